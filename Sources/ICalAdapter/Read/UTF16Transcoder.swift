/// UTF-16 turned into UTF-8 a piece at a time, as it is read: a stream or
/// a file of any length in UTF-16 costs the memory of the UTF-8 being
/// read, not of the whole input (`CalendarLoader.load(streaming:)`).
///
/// Code units that are not valid UTF-16 (a surrogate without its other
/// half) become U+FFFD, each; U+FEFF (a byte-order mark, also one in the
/// middle where files were joined) is dropped. U+0000 stays a NUL byte, so
/// that a run of them is told (`NULRuns`) as in UTF-8; the result is then
/// not looked at for UTF-16 again (`CalendarLoader.isUTF8`). An odd last
/// byte is dropped.
struct UTF16Transcoder {
    let bigEndian: Bool
    /// A byte waiting for the other half of its code unit.
    private var odd: UInt8? = nil
    /// A leading surrogate waiting for its trailing one.
    private var high: UInt32? = nil

    init(bigEndian: Bool) {
        self.bigEndian = bigEndian
    }

    /// Appends the UTF-8 of `bytes`, the input's next bytes, to `out`.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        var i = 0
        if let first = odd {
            odd = nil
            take(unit(first, bytes[0]), into: &out)
            i = 1
        }
        while i + 1 < bytes.count {
            take(unit(bytes[i], bytes[i + 1]), into: &out)
            i += 2
        }
        if i < bytes.count { odd = bytes[i] }
    }

    /// At the end of the input: a leading surrogate still waiting is U+FFFD.
    mutating func finish(into out: inout [UInt8]) {
        if high != nil { UTF16Transcoder.encode(0xFFFD, into: &out) }
        high = nil
        odd = nil
    }

    private func unit(_ a: UInt8, _ b: UInt8) -> UInt32 {
        bigEndian ? UInt32(a) << 8 | UInt32(b) : UInt32(b) << 8 | UInt32(a)
    }

    private mutating func take(_ unit: UInt32, into out: inout [UInt8]) {
        if let lead = high {
            high = nil
            if (0xDC00...0xDFFF).contains(unit) {
                UTF16Transcoder.encode(0x10000 + ((lead - 0xD800) << 10) + (unit - 0xDC00), into: &out)
                return
            }
            UTF16Transcoder.encode(0xFFFD, into: &out)
        }
        switch unit {
        case 0xD800...0xDBFF: high = unit
        case 0xDC00...0xDFFF: UTF16Transcoder.encode(0xFFFD, into: &out)
        case 0xFEFF: break
        default: UTF16Transcoder.encode(unit, into: &out)
        }
    }

    /// The scalar's UTF-8, written out: appending `Unicode.Scalar.utf8` (as
    /// TextRepair does for its few recoded bytes) took 5.85 s instead of
    /// 5.3 s on a 124 MB UTF-16 calendar, where every character comes here.
    private static func encode(_ scalar: UInt32, into out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
