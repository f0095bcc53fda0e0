/// Text that is not the UTF-8 iCalendar asks for, made readable before
/// libical sees it, and said so once per file.
///
/// - NUL bytes are dropped: libical reads C strings and would stop at the
///   first one, losing the rest of the component. So are the other control
///   characters RFC 5545 does not allow in a value (all but tab and the line
///   ends, and U+0080 to U+009F): an escape sequence in a title would
///   otherwise reach the terminal that shows the agenda.
/// - A line that is not valid UTF-8 is read as Windows-1252 (a superset of
///   Latin-1, what old Outlook and phone exports write) and re-encoded, so
///   titles are not mojibake and JSON output stays valid UTF-8. A line that
///   is UTF-8 but for some broken bytes (it holds a valid multi-byte
///   sequence) keeps its UTF-8, and only the broken bytes become U+FFFD. The decision
///   is made per logical line, folds included: a fold that splits a UTF-8
///   sequence in two (RFC 5545 allows it, and libical joins the halves when
///   it unfolds) is still valid UTF-8, and a file that mixes UTF-8 and
///   Latin-1 lines gets each right.
/// - UTF-16, with a byte-order mark or without one (a file that starts with
///   `BEGIN:` in UTF-16), is converted to UTF-8 first, as it is read
///   (`UTF16Transcoder`); code units that are not valid UTF-16 become U+FFFD.
enum TextRepair {
    /// What was repaired: where first, for the one warning of each kind per file.
    struct Report {
        /// The line and property of the first NUL byte or control character dropped.
        var firstNUL: (line: Int, property: String)?
        /// The line and property of the first line read as Windows-1252.
        var firstRecoded: (line: Int, property: String)?
        /// The line and property of the first UTF-8 line with broken bytes.
        var firstBroken: (line: Int, property: String)?
        /// Lines rewritten before libical reads them (`PropertyGuard`), each warned where it is.
        var notes: [PropertyGuard.Note] = []
        /// RRULE and EXRULE lines met so far (`PropertyGuard.maxRules`).
        var rules = 0

        /// Takes in one component's report, as the file's: the warnings the
        /// file has not given yet, `(line, message)`.
        mutating func absorb(_ chunk: Report) -> [Warning] {
            var warnings: [Warning] = []
            if firstNUL == nil, let nul = chunk.firstNUL {
                firstNUL = nul
                warnings.append(Warning(nul.line, .controlCharacters, "text: control characters", "\(Report.prefix(nul.property))NUL bytes or control characters in the text; removed (here and anywhere else in this file)"))
            }
            if firstRecoded == nil, let recoded = chunk.firstRecoded {
                firstRecoded = recoded
                warnings.append(Warning(recoded.line, .notUTF8, "text: not UTF-8", "\(Report.prefix(recoded.property))text is not UTF-8; read as Latin-1 (Windows-1252) here and on every such line of this file"))
            }
            if firstBroken == nil, let broken = chunk.firstBroken {
                firstBroken = broken
                warnings.append(Warning(broken.line, .brokenUTF8, "text: broken UTF-8", "\(Report.prefix(broken.property))UTF-8 text with broken bytes; each replaced by U+FFFD (here and on every such line of this file)"))
            }
            return warnings
        }

        private static func prefix(_ property: String) -> String { property.isEmpty ? "" : "\(property): " }
    }

    /// Lines longer than this are folded before libical reads them: its
    /// string reader looks for the end of the line again for every 80 bytes
    /// it takes, which makes a line of a few megabytes take seconds.
    static let foldWidth = 1000

    /// Copies `range` of `buffer` into `out` for libical: NUL bytes
    /// dropped, lines that are not UTF-8 re-encoded from Windows-1252,
    /// lines longer than `foldWidth` folded.
    /// - Parameter firstLine: the line number `range` starts on, for the report.
    /// - Returns: how many lines it passed.
    @discardableResult
    static func copy(
        _ range: Range<Int>, of buffer: UnsafeBufferPointer<UInt8>, firstLine: Int, into out: inout [CChar], report: inout Report
    ) -> Int {
        var start = range.lowerBound
        var line = firstLine
        let end = range.upperBound
        while start < end {
            // Blank lines before a folded continuation (`UID`, blank,
            // ` :1234`, as an old Mozilla export writes every property) is
            // left out, so that the fold joins the line before it, as
            // readers that skip blank lines read it; libical would end the
            // line there and lose the component. RFC 5545 has no blank lines.
            if buffer[start] == 0x0A || buffer[start] == 0x0D {
                var next = start, blank = 0
                while next < end, buffer[next] == 0x0A || buffer[next] == 0x0D {
                    if buffer[next] == 0x0A { blank += 1 }
                    next += 1
                }
                if next < end, buffer[next] == 0x20 || buffer[next] == 0x09 {
                    line += blank
                    start = next
                    continue
                }
            }
            // A logical line: up to a line break not followed by a fold.
            var stop = start
            var clean = true  // ASCII without NUL, and short lines: copied as it is
            var breaks = 0
            var lineStart = start
            while stop < end {
                let byte = buffer[stop]
                if byte == 0x0A {
                    breaks += 1
                    if stop - lineStart > foldWidth { clean = false }
                    lineStart = stop + 1
                    if stop + 1 < end, buffer[stop + 1] == 0x20 || buffer[stop + 1] == 0x09 {
                        stop += 1
                        continue
                    }
                    stop += 1
                    break
                }
                if byte >= 0x80 || TextRepair.isControl(byte) { clean = false }
                stop += 1
            }
            if stop - lineStart > foldWidth { clean = false }
            var text = UnsafeBufferPointer(rebasing: buffer[start..<stop])
            // A byte-order mark where a line starts (files concatenated with
            // theirs) is dropped, with control characters before or inside it:
            // the framing reads such a line as what follows the mark
            // (ComponentSplitter.keyword), and so must libical.
            if !clean, let afterMark = TextRepair.endOfByteOrderMark(text) {
                text = UnsafeBufferPointer(rebasing: text[afterMark...])
                if afterMark > 3, report.firstNUL == nil { report.firstNUL = (line, propertyName(text)) }
            }
            if PropertyGuard.needsLook(text), let rewritten = PropertyGuard.rewrite(text, line: line, report: &report) {
                rewritten.withUnsafeBufferPointer { emit($0, clean: false, line: line, into: &out, report: &report) }
            } else {
                emit(text, clean: clean, line: line, into: &out, report: &report)
            }
            line += breaks
            start = stop
        }
        return line - firstLine
    }

    /// Appends one logical line for libical: as it is when `clean`, else
    /// with control characters dropped, re-encoded when it is not UTF-8, and folded.
    private static func emit(
        _ text: UnsafeBufferPointer<UInt8>, clean: Bool, line: Int, into out: inout [CChar], report: inout Report
    ) {
        if clean {
            append(text, to: &out)
        } else {
            var folder = Folder()
            if isUTF8(text) {
                var i = 0
                while i < text.count {
                    let byte = text[i]
                    i += 1
                    if isControl(byte) {
                        if report.firstNUL == nil { report.firstNUL = (line, propertyName(text)) }
                        continue
                    }
                    // U+0080 to U+009F (C1) are NON-US-ASCII, which TEXT allows
                    // (RFC 5545 3.3.11): kept; what reaches a terminal escapes them (PrintableText).
                    folder.append(byte, to: &out)
                }
            } else if mostlyUTF8(text) {
                if report.firstNUL == nil, text.contains(where: isControl) { report.firstNUL = (line, propertyName(text)) }
                if report.firstBroken == nil { report.firstBroken = (line, propertyName(text)) }
                appendUTF8Replacing(text, to: &out, folder: &folder)
            } else {
                if report.firstNUL == nil, text.contains(where: isControl) { report.firstNUL = (line, propertyName(text)) }
                if report.firstRecoded == nil { report.firstRecoded = (line, propertyName(text)) }
                appendWindows1252(text, to: &out, folder: &folder)
            }
        }
    }

    /// Appends bytes, folding a line (CRLF and a space) every `foldWidth`
    /// bytes, never inside a UTF-8 sequence (libical would join it again,
    /// but the halves need not be valid on their own for other readers).
    private struct Folder {
        var column = 0
        var enabled = true

        mutating func append(_ byte: UInt8, to out: inout [CChar]) {
            if byte == 0x0A || byte == 0x0D {
                column = 0
            } else if enabled && column >= TextRepair.foldWidth && byte & 0xC0 != 0x80 {
                out.append(contentsOf: [0x0D, 0x0A, 0x20])
                column = 1
            } else {
                column += 1
            }
            out.append(CChar(bitPattern: byte))
        }
    }

    /// Where a line's text starts after a byte-order mark (EF BB BF) at its
    /// start, control characters before and inside the mark passed over;
    /// nil when it does not start with one.
    static func endOfByteOrderMark(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        var matched = 0
        for (i, byte) in text.enumerated() where !isControl(byte) {
            guard byte == mark[matched] else { return nil }
            matched += 1
            if matched == mark.count { return i + 1 }
        }
        return nil
    }

    /// Whether a byte is a control character a value may not hold: all
    /// but tab and the line ends (which delimit lines and folds).
    static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
    }

    /// Bytes as text: UTF-8 when they are, else Windows-1252; control
    /// characters dropped (line ends too: this is for one-line texts).
    static func string<C: Collection<UInt8>>(_ bytes: C) -> String {
        let array = Array(bytes.lazy.filter { !isControl($0) && $0 != 0x0A && $0 != 0x0D })
        if let text = String(validating: array, as: UTF8.self) {
            if !text.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) }) { return text }
            return String(String.UnicodeScalarView(text.unicodeScalars.filter { !(0x80...0x9F).contains($0.value) }))
        }
        var out: [CChar] = []
        var folder = Folder()
        folder.enabled = false  // no folds in a String
        array.withUnsafeBufferPointer { appendWindows1252($0, to: &out, folder: &folder) }
        return String(decoding: out.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether the bytes are valid UTF-8 once folds (a line break and one
    /// space or tab) and NUL bytes are taken out: the text libical will see.
    static func isUTF8(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var need = 0  // continuation bytes still expected
        var lowest: UInt8 = 0x80, highest: UInt8 = 0xBF  // the range of the next continuation byte
        var i = 0
        while i < text.count {
            let byte = text[i]
            i += 1
            if byte == 0 { continue }
            if byte == 0x0D || byte == 0x0A {
                // A fold inside a sequence is skipped; a line end is not text.
                if byte == 0x0D, i < text.count, text[i] == 0x0A { i += 1 }
                if i < text.count, text[i] == 0x20 || text[i] == 0x09 { i += 1 }
                continue
            }
            if need > 0 {
                guard byte >= lowest && byte <= highest else { return false }
                need -= 1
                lowest = 0x80
                highest = 0xBF
                continue
            }
            switch byte {
            case 0x00...0x7F: continue
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; lowest = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; highest = 0x9F
            case 0xF0: need = 3; lowest = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; highest = 0x8F
            default: return false
            }
        }
        return need == 0
    }

    /// The property name a content line starts with (up to `;` or `:`), for warnings.
    static func propertyName(_ line: UnsafeBufferPointer<UInt8>) -> String {
        var name: [UInt8] = []
        for byte in line {
            if byte == 0 { continue }
            if byte == 0x3A || byte == 0x3B || byte == 0x0D || byte == 0x0A || name.count >= 40 { break }
            guard (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
            else { return "" }
            name.append(byte)
        }
        return String(decoding: name, as: UTF8.self).uppercased()
    }

    private static func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [CChar]) {
        UnsafeRawBufferPointer(bytes).withMemoryRebound(to: CChar.self) { out.append(contentsOf: $0) }
    }

    /// Whether a line that is not valid UTF-8 is nonetheless UTF-8 with
    /// damage: it holds a valid multi-byte sequence. Latin-1 text almost
    /// never forms one (it takes a letter such as Ã right before a symbol such
    /// as ©), while damaged UTF-8 (bytes lost to "?") keeps most of its own.
    static func mostlyUTF8(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var valid = 0, i = 0
        while i < text.count {
            let byte = text[i]
            guard byte >= 0x80 else {
                i += 1
                continue
            }
            let length = byte >= 0xF0 && byte <= 0xF4 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 && byte <= 0xDF ? 2 : 0
            if length > 0, i + length <= text.count,
                String(validating: UnsafeBufferPointer(rebasing: text[i..<(i + length)]), as: UTF8.self) != nil
            {
                valid += 1
                i += length
            } else {
                i += 1
            }
        }
        return valid > 0
    }

    /// A UTF-8 line with broken bytes: folds taken out, each broken byte
    /// replaced by U+FFFD (Swift's own decoding), folded again.
    private static func appendUTF8Replacing(_ text: UnsafeBufferPointer<UInt8>, to out: inout [CChar], folder: inout Folder) {
        var joined: [UInt8] = []
        var lineEnd: [UInt8] = []
        var i = 0
        while i < text.count {
            let byte = text[i]
            if isControl(byte) {
                i += 1
            } else if byte == 0x0D || byte == 0x0A {
                var j = i
                if text[j] == 0x0D, j + 1 < text.count, text[j + 1] == 0x0A { j += 1 }
                if j + 1 < text.count, text[j + 1] == 0x20 || text[j + 1] == 0x09 {
                    i = j + 2  // a fold
                } else {
                    lineEnd.append(contentsOf: text[i...j])
                    i = j + 1
                }
            } else {
                joined.append(byte)
                i += 1
            }
        }
        for unit in String(decoding: joined, as: UTF8.self).utf8 { folder.append(unit, to: &out) }
        for byte in lineEnd { folder.append(byte, to: &out) }
    }

    /// Windows-1252 to UTF-8; the five bytes it leaves undefined become U+FFFD (not C1 controls).
    private static func appendWindows1252(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [CChar], folder: inout Folder) {
        for byte in bytes where !isControl(byte) {
            if byte < 0x80 {
                folder.append(byte, to: &out)
                continue
            }
            let scalar = byte < 0xA0 ? windows1252[Int(byte - 0x80)] : UInt32(byte)
            for unit in Unicode.Scalar(scalar)!.utf8 { folder.append(unit, to: &out) }
        }
    }

    /// U+0080 to U+009F as Windows-1252 has them.
    private static let windows1252: [UInt32] = [
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
        0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
    ]

    // MARK: UTF-16

    /// Whether the input is UTF-16: a byte-order mark, or `BEGIN:` written
    /// in UTF-16 without one. nil when it is not; else whether big-endian.
    static func utf16ByteOrder(_ bytes: UnsafeBufferPointer<UInt8>) -> (bigEndian: Bool, skip: Int)? {
        guard bytes.count >= 2 else { return nil }
        if bytes[0] == 0xFF && bytes[1] == 0xFE { return (false, 2) }
        if bytes[0] == 0xFE && bytes[1] == 0xFF { return (true, 2) }
        let begin = Array("BEGIN:".utf8)
        guard bytes.count >= 2 * begin.count else { return nil }
        func matches(_ bigEndian: Bool) -> Bool {
            for (i, c) in begin.enumerated() {
                let (high, low) = bigEndian ? (bytes[2 * i], bytes[2 * i + 1]) : (bytes[2 * i + 1], bytes[2 * i])
                guard high == 0, low | 0x20 == c | 0x20 else { return false }
            }
            return true
        }
        if matches(false) { return (false, 0) }
        if matches(true) { return (true, 0) }
        return nil
    }
}
