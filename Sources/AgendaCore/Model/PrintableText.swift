/// Text that is safe to print on one line of a terminal: what a file name,
/// a calendar name or a quoted value may carry (a newline, ESC, a byte that
/// is not UTF-8) is shown escaped, so that nothing read from the input or
/// the file system can start a line or move the cursor.
package enum PrintableText {
    /// Where a file name's bytes that are not UTF-8 are kept in a `String`:
    /// byte `b` (0x80 to 0xFF) is the scalar `rawByteBase + b` of Unicode's
    /// private use plane 16, so that the name can still be opened
    /// (`fileSystemBytes`) and is printed as `\xFF`.
    static let rawByteBase: UInt32 = 0x10FE00

    /// `\n`, `\r`, other C0 and C1 controls and DEL as `\xNN`, a raw byte as
    /// `\xNN`, bidirectional controls as `\uNNNN`; a tab stays. Text without any of them is returned as it is.
    package static func escaped(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: needsEscape) else { return s }
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case _ where rawByte(scalar) != nil: out += "\\x" + hex(rawByte(scalar)!)
            case _ where isBidiControl(scalar): out += "\\u" + String(scalar.value, radix: 16, uppercase: true)
            case _ where needsEscape(scalar): out += "\\x" + hex(scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The same, line by line: for a message of several lines (help, usage).
    package static func escapedKeepingLines(_ s: String) -> String {
        s.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: "\n")
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (v < 0x20 && v != 0x09) || (0x7F...0x9F).contains(v) || rawByte(scalar) != nil || isBidiControl(scalar)
    }

    /// Bidirectional embeddings, overrides and isolates (U+202A to U+202E,
    /// U+2066 to U+2069): they turn the rest of a line around. Marks (U+200E,
    /// U+200F) stay: right-to-left text uses them.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    static func rawByte(_ scalar: Unicode.Scalar) -> UInt32? {
        let v = scalar.value
        return v >= rawByteBase + 0x80 && v <= rawByteBase + 0xFF ? v - rawByteBase : nil
    }

    static func hex(_ v: UInt32) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(v >> 4 & 0xF)], digits[Int(v & 0xF)]])
    }

    /// A command-line argument or a directory entry as the system gives it:
    /// UTF-8 as it is, every byte that is not part of valid UTF-8 kept as a
    /// raw-byte scalar (see `rawByteBase`).
    package static func decodingFileSystemBytes<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var out = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        // The bytes not yet parsed: an error names only its length.
        var all = Array(bytes)[...]
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                out.append(Unicode.UTF8.decode(encoded))
                all = all.dropFirst(encoded.count)
            case .error(let length):
                for byte in all.prefix(length) { out.append(Unicode.Scalar(rawByteBase + UInt32(byte))!) }
                all = all.dropFirst(length)
            case .emptyInput:
                return String(out)
            }
        }
    }

    /// The bytes to hand the system for a name made by `decodingFileSystemBytes`.
    package static func fileSystemBytes(_ s: String) -> [UInt8] {
        guard s.unicodeScalars.contains(where: { rawByte($0) != nil }) else { return Array(s.utf8) }
        var bytes: [UInt8] = []
        for scalar in s.unicodeScalars {
            if let b = rawByte(scalar) { bytes.append(UInt8(b)) } else { bytes += Array(String(scalar).utf8) }
        }
        return bytes
    }
}
