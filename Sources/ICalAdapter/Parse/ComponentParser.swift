import AgendaCore

/// The parse stage: hands one framed component to libical and reads it into
/// a `ComponentRecord`, with a warning, on its own line, for everything
/// libical or the checks of what was written (`WrittenValues`) found wrong.
/// Safe to use from several threads at once: libical 3.0.16 keeps its error
/// state and temporary buffers per thread and guards its zone tables with
/// mutexes (`builtin_mutex`, `changes_mutex` in icaltimezone.c); `ZoneTable`
/// locks; everything else here is local to the call.
struct ComponentParser: @unchecked Sendable {
    let reader: ComponentReader
    let zones: ZoneTable
    /// nil: every component is parsed.
    let prefilter: WindowPrefilter?

    func parse(_ framed: FramedComponent, _ buffer: UnsafeBufferPointer<UInt8>,
        scratch: inout [CChar]) -> ParsedComponent {
        if let skippable = prefilter?.skippableEvent(framed, buffer) {
            // A one-off event far from the window: counted, and known as a
            // revision of its UID, but not parsed.
            return ParsedComponent(line: framed.firstLine, skipped: skippable)
        }
        var repair = TextRepair.Report()
        var warnings = ComponentWarnings()
        // One binding a guard: libical's component is noncopyable, owned here.
        guard let component = ComponentParser.libicalComponent(framed, buffer, scratch: &scratch, warnings: &warnings,
            repair: &repair) else {
            warnings.rest = ComponentParser.told(repair.notes) + warnings.rest
            return ParsedComponent(line: framed.firstLine, warnings: warnings)
        }
        guard let kind = ComponentRecord.Kind(component.kind) else {
            warnings.rest = ComponentParser.told(repair.notes) + warnings.rest
            return ParsedComponent(line: framed.firstLine, warnings: warnings)
        }
        var reader = self.reader
        reader.calendar = framed.calendar
        let lines = LineFinder(framed, buffer)
        var record = reader.read(component.borrowed, kind: kind)
        WrittenValues.check(&record, lines)
        var diagnosis = RecordDiagnosis(lines: lines, line: framed.firstLine, zones: zones, notes: repair.notes)
        diagnosis.tell(record, inITIPMessage: framed.inITIPMessage)
        warnings.rest += diagnosis.warnings
        return ParsedComponent(line: framed.firstLine, record: consume record, warnings: warnings, lines: lines)
    }

    /// What libical reads of a framed component, without warnings: for a
    /// look ahead at components whose warnings are given when they are parsed.
    func record(of framed: FramedComponent, _ buffer: UnsafeBufferPointer<UInt8>,
        scratch: inout [CChar]) -> ComponentRecord? {
        var ignored = ComponentWarnings()
        var repair = TextRepair.Report()
        guard let component = ComponentParser.libicalComponent(framed, buffer, scratch: &scratch, warnings: &ignored,
            repair: &repair) else {
            return nil
        }
        guard let kind = ComponentRecord.Kind(component.kind) else { return nil }
        var reader = self.reader
        reader.calendar = framed.calendar
        return reader.read(component.borrowed, kind: kind)
    }

    /// Hands one framed component to libical: its framing and text mended
    /// (`ChunkText`), their warnings into `warnings`, and nil (with a
    /// warning) when libical cannot read it.
    static func libicalComponent(
        _ framed: FramedComponent, _ buffer: UnsafeBufferPointer<UInt8>, scratch: inout [CChar],
            warnings: inout ComponentWarnings
    ) -> OwnedComponent? {
        var repair = TextRepair.Report()
        let component = libicalComponent(framed, buffer, scratch: &scratch, warnings: &warnings, repair: &repair)
        warnings.rest = told(repair.notes) + warnings.rest
        return component
    }

    private static func libicalComponent(
        _ framed: FramedComponent, _ buffer: UnsafeBufferPointer<UInt8>, scratch: inout [CChar],
            warnings: inout ComponentWarnings,
        repair: inout TextRepair.Report
    ) -> OwnedComponent? {
        warnings.framing += ChunkText.prepare(framed, buffer, into: &scratch, report: &repair)
        warnings.oncePerFile = repair.oncePerFile()
        guard let component = OwnedComponent.parse(scratch) else {
            warnings.rest.append(Warning(framed.firstLine, .unreadableComponent, "unreadable component",
                "\(framed.name) could not be read; skipped"))
            return nil
        }
        return component
    }

    /// Lines rewritten before libical read them, when no record names them.
    private static func told(_ notes: [PropertyGuard.Note]) -> [Warning] {
        notes.map { Warning($0.line, $0.damage, "\($0.property): \($0.message)") }
    }
}
