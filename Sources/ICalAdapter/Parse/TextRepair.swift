import AgendaCore
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
    /// What was repaired in one component: where first, for the one warning of each kind per file.
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

        /// The warnings of what was repaired: a file's log tells the first
        /// of each damage and passes over the rest (`ComponentWarnings.oncePerFile`).
        func oncePerFile() -> [Warning] {
            var warnings: [Warning] = []
            if let nul = firstNUL {
                warnings.append(Warning(nul.line, .controlCharacters, "text: control characters",
                    "\(Report.prefix(nul.property))NUL bytes or control characters in the text; removed (here and " +
                    "anywhere else in this file)"))
            }
            if let recoded = firstRecoded {
                warnings.append(Warning(recoded.line, .notUTF8, "text: not UTF-8",
                    "\(Report.prefix(recoded.property))text is not UTF-8; read as Latin-1 (Windows-1252) here and on " +
                    "every such line of this file"))
            }
            if let broken = firstBroken {
                warnings.append(Warning(broken.line, .brokenUTF8, "text: broken UTF-8",
                    "\(Report.prefix(broken.property))UTF-8 text with broken bytes; each replaced by U+FFFD (here " +
                    "and on every such line of this file)"))
            }
            return warnings
        }

        private static func prefix(_ property: String) -> String { property.isEmpty ? "" : "\(property): " }
    }

    /// Copies `range` of `buffer` into `out` for libical: NUL bytes
    /// dropped, lines that are not UTF-8 re-encoded from Windows-1252,
    /// lines longer than `TextBytes.foldWidth` folded.
    /// - Parameter firstLine: the line number `range` starts on, for the report.
    /// - Returns: how many lines it passed.
    @discardableResult
    static func copy(
        _ range: Range<Int>, of buffer: UnsafeBufferPointer<UInt8>, firstLine: Int, into out: inout [CChar],
            report: inout Report
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
                let (next, blank) = ContentLines.pastBlankLines(buffer, from: start, before: end)
                if ContentLines.isFold(buffer, at: next, before: end) {
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
                    if stop - lineStart > TextBytes.foldWidth { clean = false }
                    lineStart = stop + 1
                    if ContentLines.isFold(buffer, at: stop + 1, before: end) {
                        stop += 1
                        continue
                    }
                    stop += 1
                    break
                }
                if byte >= 0x80 || TextBytes.isControl(byte) { clean = false }
                stop += 1
            }
            if stop - lineStart > TextBytes.foldWidth { clean = false }
            var text = UnsafeBufferPointer(rebasing: buffer[start..<stop])
            // A byte-order mark where a line starts (files concatenated with
            // theirs) is dropped, with control characters before or inside it:
            // the framing reads such a line as what follows the mark
            // (LineScan.keyword), and so must libical.
            if !clean, let afterMark = TextBytes.endOfByteOrderMark(text) {
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
            var folder = TextBytes.Folder()
            if isUTF8(text) {
                var i = 0
                while i < text.count {
                    let byte = text[i]
                    i += 1
                    if TextBytes.isControl(byte) {
                        if report.firstNUL == nil { report.firstNUL = (line, propertyName(text)) }
                        continue
                    }
                    // U+0080 to U+009F (C1) are NON-US-ASCII, which TEXT allows
                    // (RFC 5545 3.3.11): kept; what reaches a terminal escapes them (PrintableText).
                    folder.append(byte, to: &out)
                }
            } else if mostlyUTF8(text) {
                if report.firstNUL == nil, text.contains(where: TextBytes.isControl) {
                    report.firstNUL = (line, propertyName(text))
                }
                if report.firstBroken == nil { report.firstBroken = (line, propertyName(text)) }
                appendUTF8Replacing(text, to: &out, folder: &folder)
            } else {
                if report.firstNUL == nil, text.contains(where: TextBytes.isControl) {
                    report.firstNUL = (line, propertyName(text))
                }
                if report.firstRecoded == nil { report.firstRecoded = (line, propertyName(text)) }
                TextBytes.appendWindows1252(text, to: &out, folder: &folder)
            }
        }
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
                i = ContentLines.lineBreak(text, at: i - 1).next
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
            guard (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2D
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
    private static func appendUTF8Replacing(_ text: UnsafeBufferPointer<UInt8>, to out: inout [CChar],
        folder: inout TextBytes.Folder) {
        var joined: [UInt8] = []
        var lineEnd: [UInt8] = []
        var i = 0
        while i < text.count {
            let byte = text[i]
            if TextBytes.isControl(byte) {
                i += 1
            } else if byte == 0x0D || byte == 0x0A {
                let (next, isFold) = ContentLines.lineBreak(text, at: i)
                if !isFold { lineEnd.append(contentsOf: text[i..<next]) }
                i = next
            } else {
                joined.append(byte)
                i += 1
            }
        }
        for unit in String(decoding: joined, as: UTF8.self).utf8 { folder.append(unit, to: &out) }
        for byte in lineEnd { folder.append(byte, to: &out) }
    }


}
