import Foundation

/// Lines of iCalendar text read at the byte level, as libical reads them,
/// before anything is parsed: where a line ends, a property's value colon
/// (parameters may quote one), and the word of a BEGIN or END line. Every
/// stage that cuts text (stretches, components, lines) uses these.
enum LineScan {
    /// How far into a line with control characters a BEGIN or END keyword is looked for.
    static let keywordReach = 1024

    /// Components that stand only at the top of a calendar: meeting one
    /// while another is open means the open one lost its END line.
    static let topLevelNames: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VCALENDAR"]

    /// The place of the first line feed in `bytes[from..<end]`, or `end`
    /// when there is none (memchr: lines are scanned by the million).
    static func lineFeed(in bytes: UnsafeBufferPointer<UInt8>, from: Int, before end: Int) -> Int {
        guard from < end, let base = bytes.baseAddress else { return end }
        return memchr(base + from, 0x0A, end - from).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? end
    }

    /// The place of the first colon of `bytes[from..<end]` outside double
    /// quotes (where a property's value begins), stopping at a line feed;
    /// the place it stopped (`end` or the line feed) when there is none.
    static func valueColon(in bytes: UnsafeBufferPointer<UInt8>, from: Int, before end: Int) -> Int {
        var i = from
        var quoted = false
        while i < end && bytes[i] != 0x0A && !(bytes[i] == 0x3A && !quoted) {
            if bytes[i] == 0x22 { quoted.toggle() }
            i += 1
        }
        return i
    }

    /// One logical line from `start`, unfolded: a line feed followed by a
    /// space or tab is no break, the first other line feed ends it, and
    /// carriage returns are left out (line ends are normalized before any
    /// stage reads them). At most `limit` bytes.
    static func unfoldedLine(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0, limit: Int = .max) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(min(bytes.count - start, limit))
        var i = start
        while i < bytes.count && line.count < limit {
            let b = bytes[i]
            if b == 0x0A {
                guard ContentLines.isFold(bytes, at: i + 1, before: bytes.count) else { break }
                i += 2
                continue
            }
            if b != 0x0D { line.append(b) }
            i += 1
        }
        return line
    }

    /// The upper-cased word after `BEGIN:` or `END:` on a line, if it is one.
    /// NUL bytes and a byte-order mark at the start (files concatenated
    /// with their marks) do not hide a BEGIN or END line.
    static func keyword(_ line: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> String? {
        if let first = line.first, first == 0xEF || line.prefix(word.utf8CodeUnitCount + 1)
            .contains(where: TextBytes.isControl) {
            // The start of the line only: a keyword and its name are short, and a
            // line of 80,000 NUL bytes, looked at from each of its places, was quadratic.
            var cleaned = line.prefix(keywordReach).filter { !TextBytes.isControl($0) }
            if cleaned.starts(with: [0xEF, 0xBB, 0xBF]) { cleaned.removeFirst(3) }
            return cleaned.withUnsafeBufferPointer { plainKeyword($0, word) }
        }
        return plainKeyword(line, word)
    }

    /// `BEGIN` or `END` as libical reads them: the word, then parameters
    /// if any (`END;X-A=1:VALARM`), a colon and the name, which may be empty.
    /// Blanks after the word count for nothing (`END :VALARM`): libical trims
    /// them from a property name, so such a line closes whatever is open.
    private static func plainKeyword(_ line: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> String? {
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard line.count > w.count else { return nil }
        for i in 0..<w.count where line[i] | 0x20 != w[i] | 0x20 { return nil }
        var i = w.count
        // libical's make_segment trims what iswspace calls space: blank, tab, VT, FF, CR.
        while i < line.count, TextBytes.isCSpace(line[i]) { i += 1 }
        guard i < line.count else { return nil }
        if line[i] == 0x3B {  // ';': parameters, up to the first colon outside quotes
            var quoted = false
            var lastSemicolon = i
            while i < line.count && (line[i] != 0x3A || quoted) {
                if line[i] == 0x22 { quoted.toggle() } else if line[i] == 0x3B && !quoted { lastSemicolon = i }
                i += 1
            }
            // No colon at all: libical still reads the word (`END;STANDARD`
            // ends what is open, `BEGIN;VALARM` opens an alarm), so the name
            // is what follows the last ';'.
            if i == line.count { i = lastSemicolon }
        } else if line[i] != 0x3A {
            return nil
        }
        var rest = line[(i + 1)...]
        while let last = rest.last, ContentLines.isBlank(last) { rest = rest.dropLast() }
        // Control characters are dropped, as the loader drops them (and kept out of warnings).
        if rest.contains(where: { $0 >= 0x7F || TextBytes.isControl($0) }) {
            return TextBytes.string(rest).uppercased()
        }
        return asciiUppercased(rest)
    }

    /// ASCII text upper-cased byte by byte, as `uppercased()` would, without
    /// Unicode's tables: every BEGIN and END line of a file names one.
    static func asciiUppercased<C: Collection<UInt8>>(_ text: C) -> String {
        String(unsafeUninitializedCapacity: text.count) { out in
            var i = 0
            for b in text {
                out[i] = b >= 0x61 && b <= 0x7A ? b - 0x20 : b
                i += 1
            }
            return i
        }
    }
}
