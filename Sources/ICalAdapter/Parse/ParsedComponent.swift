import AgendaCore

/// One framed VEVENT or VTODO as the parse stage hands it on
/// (`ComponentParser`): what libical read of it, or why nothing was, with
/// every warning about what was written; the expand stage places it.
struct ParsedComponent {
    enum Content {
        /// Not read: the frame could not be parsed, or is not a VEVENT or VTODO.
        case unread
        /// A one-off event far from the window, not parsed (`WindowPrefilter`):
        /// what it says of itself for counts and revisions.
        case skipped(uid: String, sequence: Int, recurs: Bool)
        case record(ComponentRecord)
    }

    var content = Content.unread
    /// Where the component starts.
    let line: Int
    var warnings = ComponentWarnings()
    /// Its lines, for a warning the expand stage gives (a cut RRULE); nil when not read.
    var lines: LineFinder? = nil

    init(line: Int) {
        self.line = line
    }

    /// How warnings name a component: its kind and title.
    static func label(_ record: ComponentRecord) -> String {
        let kindName = record.kind == .event ? "VEVENT" : "VTODO"
        return record.summary.isEmpty ? kindName : "\(kindName) \"\(record.summary)\""
    }
}
