import AgendaCore
/// The text libical reads for one framed component: the chunk's bytes with
/// the splitter's repairs (END lines put back, stray END lines and
/// components nested too deep left out) and TextRepair's (NUL bytes,
/// Windows-1252 lines, very long lines folded).
enum ChunkText {
    /// Fills `out` with the chunk's text for `icalparser_parse_string`,
    /// NUL-terminated, and returns the warnings about its framing.
    /// `report` collects what TextRepair mended (the loader warns once per file).
    static func prepare(
        _ chunk: FramedComponent, _ buffer: UnsafeBufferPointer<UInt8>, into out: inout [CChar],
        report: inout TextRepair.Report
    ) -> [Warning] {
        var warnings: [Warning] = []
        if !chunk.unclosed.isEmpty {
            var names = chunk.unclosed.reversed().map { "END:\($0)" }
            if names.count > 4 { names = names.prefix(3) + ["\(names.count - 3) more"] }
            let missing = names.joined(separator: ", ")
            warnings.append(Warning(chunk.firstLine, .framing,
                chunk.rootClosed ? "framing: inner component not closed" : "framing: not closed", chunk.rootClosed
                ? "\(chunk.name) holds a component that is not closed (missing \(missing)); closed with the " +
                    "component around it"
                : "\(chunk.name) is not closed (missing \(missing)); read up to where it stops"))
        }
        out.removeAll(keepingCapacity: true)
        guard let repairs = chunk.repairs else {
            TextRepair.copy(chunk.range, of: buffer, firstLine: chunk.firstLine, into: &out, report: &report)
            out.append(0)
            return warnings
        }
        warnings += repairs.notes
        // Insertions and dropped ranges in the order of the text; an
        // insertion at the end of a dropped range comes after it.
        enum Edit { case insert([String]), drop(Int), lineBreak }
        let edits = (repairs.insertions.map { ($0.at, 1, Edit.insert($0.names)) }
            + repairs.dropped.map { ($0.lowerBound, 0, Edit.drop($0.upperBound)) }
            + repairs.lineBreaks.map { ($0, 1, Edit.lineBreak) })
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        var cursor = chunk.range.lowerBound
        var line = chunk.firstLine
        for (at, _, edit) in edits {
            let stop = min(max(at, cursor), chunk.range.upperBound)
            line += TextRepair.copy(cursor..<stop, of: buffer, firstLine: line, into: &out, report: &report)
            cursor = stop
            switch edit {
            case .insert(let names):
                for name in names { out.append(contentsOf: "\r\nEND:\(name)\r\n".utf8.map { CChar(bitPattern: $0) }) }
            case .lineBreak:
                out.append(contentsOf: "\r\n".utf8.map { CChar(bitPattern: $0) })
            case .drop(let end):
                let end = min(end, chunk.range.upperBound)
                line += buffer[cursor..<max(end, cursor)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                cursor = max(end, cursor)
            }
        }
        TextRepair.copy(cursor..<chunk.range.upperBound, of: buffer, firstLine: line, into: &out, report: &report)
        out.append(0)
        return warnings
    }
}
