import AgendaCore

/// The lines of a component by what libical quotes of a line it could not
/// read (`LibicalWording.Locator`): its property name, each parameter, the
/// whole line. Indexed in one pass when the first such message asks, so
/// that ten thousand of them cost ten thousand lookups, not passes; each
/// lookup takes the next line with that text, so that every warning names
/// its own line.
final class MarkedLines {
    /// Per key (a kind letter and the text), the lines and the property
    /// they are on, and how many were taken.
    private var lines: [String: (entries: [(line: Int, property: String)], taken: Int)] = [:]
    /// Text longer than this is keyed by its start: libical quotes it whole.
    static let keyLength = 200

    init(_ chunk: FramedComponent, _ buffer: UnsafeBufferPointer<UInt8>) {
        for line in ContentLines(buffer, in: chunk.range, firstLine: chunk.firstLine) {
            let text = line.firstText(in: buffer)
            if !text.isEmpty { index(text, line: line.number) }
        }
    }

    private func index(_ text: UnsafeBufferPointer<UInt8>, line: Int) {
        let colon = text.firstIndex(of: 0x3A) ?? text.count
        let head = UnsafeBufferPointer(rebasing: text[..<colon])
        let parts = head.split(separator: 0x3B, omittingEmptySubsequences: false)
        let name = MarkedLines.key(parts.first.map { Array($0) } ?? [])
        add("N" + name, line, name)
        for parameter in parts.dropFirst() { add("P" + MarkedLines.key(Array(parameter)), line, name) }
        if head.count > 1, parts.count > 1, parts[1].isEmpty { add("P;", line, name) }
        add("L" + MarkedLines.key(Array(text)), line, name)
    }

    private func add(_ key: String, _ line: Int, _ property: String) {
        lines[key, default: ([], 0)].entries.append((line, property.uppercased()))
    }

    private static func key<C: Collection<UInt8>>(_ bytes: C) -> String {
        TextBytes.string(bytes.prefix(keyLength))
    }

    func find(_ locator: LibicalWording.Locator) -> (line: Int, property: String?)? {
        let key: String
        switch locator {
        case .name(let name): key = "N" + String(name.prefix(MarkedLines.keyLength))
        case .parameter(let parameter): key = "P" + String(parameter.prefix(MarkedLines.keyLength))
        case .line(let text): key = "L" + String(text.prefix(MarkedLines.keyLength))
        }
        guard var slot = lines[key], !slot.entries.isEmpty else { return nil }
        let entry = slot.entries[min(slot.taken, slot.entries.count - 1)]
        slot.taken += 1
        lines[key] = slot
        if case .parameter = locator { return (entry.line, entry.property) }
        return (entry.line, nil)
    }
}
