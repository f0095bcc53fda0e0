import AgendaCore

/// One framed VEVENT or VTODO as the parse stage hands it on
/// (`ComponentParser`): what libical read of it, or why nothing was, with
/// every warning about what was written; the expand stage places it.
///
/// A class, made once and only read: the record (a few hundred bytes, some
/// twenty strings and arrays) is handed on by reference and read in place,
/// not copied at each step (a struct here cost 2% of the instructions of a
/// 10k-component run in copies and reference counts).
final class ParsedComponent {
    /// Where the component starts.
    let line: Int
    /// What libical read; nil when nothing was (see `skipped`).
    let record: ComponentRecord?
    /// A one-off event far from the window, not parsed (`WindowPrefilter`):
    /// what it says of itself for counts and revisions.
    let skipped: (uid: String, sequence: Int, recurs: Bool)?
    let warnings: ComponentWarnings
    /// Its lines, for a warning the expand stage gives (a cut RRULE); nil when not read.
    let lines: LineFinder?

    init(line: Int, record: ComponentRecord? = nil, skipped: (uid: String, sequence: Int, recurs: Bool)? = nil,
        warnings: ComponentWarnings = ComponentWarnings(), lines: LineFinder? = nil)
    {
        self.line = line
        self.record = record
        self.skipped = skipped
        self.warnings = warnings
        self.lines = lines
    }

    /// How warnings name a component: its kind and title.
    static func label(_ record: ComponentRecord) -> String {
        let kindName = record.kind == .event ? "VEVENT" : "VTODO"
        return record.summary.isEmpty ? kindName : "\(kindName) \"\(record.summary)\""
    }
}
