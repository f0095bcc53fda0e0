/// Bytes read as text, before anything is parsed: control characters,
/// byte-order marks (UTF-8, UTF-16), Windows-1252 decoded to UTF-8, and the
/// folds of lines too long for libical. `TextRepair` mends a component's
/// text with them; warnings write bytes as text with `string`.
enum TextBytes {
    /// Lines longer than this are folded before libical reads them: its
    /// string reader looks for the end of the line again for every 80 bytes
    /// it takes, which makes a line of a few megabytes take seconds.
    static let foldWidth = 1000

    /// Appends bytes, folding a line (CRLF and a space) every `foldWidth`
    /// bytes, never inside a UTF-8 sequence (libical would join it again,
    /// but the halves need not be valid on their own for other readers).
    struct Folder {
        var column = 0
        var enabled = true

        mutating func append(_ byte: UInt8, to out: inout [CChar]) {
            if byte == 0x0A || byte == 0x0D {
                column = 0
            } else if enabled && column >= TextBytes.foldWidth && byte & 0xC0 != 0x80 {
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

    /// Whether a byte is a blank or a line end: what a text of nothing else is empty of.
    static func isBlankOrLineEnd(_ byte: UInt8) -> Bool {
        ContentLines.isBlank(byte) || byte == 0x0A || byte == 0x0D
    }

    /// Whether a byte is what C's `isspace` calls space: blank, tab, line
    /// feed, vertical tab, form feed, carriage return.
    static func isCSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
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

    /// Windows-1252 to UTF-8; the five bytes it leaves undefined become U+FFFD (not C1 controls).
    static func appendWindows1252(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [CChar], folder: inout Folder) {
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
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD,
            0x017D, 0xFFFD,
        0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD,
            0x017E, 0x0178,
    ]

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
