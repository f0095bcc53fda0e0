import Foundation

/// Line ends other than CRLF and LF, as other readers take them: CR alone
/// (classic Mac OS), CR CR LF (CRLF text written again through a CRLF
/// filter) and LF CR. RFC 5545 3.1 asks for CRLF; like LF alone, these
/// are read without a word (every line is where the writer meant it).
enum LineEndings {
    enum Style { case crOnly, crCRLF, lfCR }

    /// The style of the text's first line end, when it is one of these.
    static func style(of bytes: UnsafeBufferPointer<UInt8>) -> Style? {
        let limit = min(bytes.count, 1 << 16)
        var i = 0
        while i < limit && bytes[i] != 0x0D && bytes[i] != 0x0A { i += 1 }
        guard i < limit else { return nil }
        func at(_ k: Int) -> UInt8? { k < bytes.count ? bytes[k] : nil }
        if bytes[i] == 0x0A { return at(i + 1) == 0x0D ? .lfCR : nil }
        if at(i + 1) == 0x0A { return nil }
        if at(i + 1) == 0x0D && at(i + 2) == 0x0A { return .crCRLF }
        return .crOnly
    }

    /// A copy of the text with LF or CRLF line ends, or nil when it has them already.
    static func normalized(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let style = style(of: bytes) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            switch style {
            case .crOnly where b == 0x0D:
                out.append(0x0A)
                if i + 1 < n && bytes[i + 1] == 0x0A { i += 1 }  // a CRLF among them is one line end
            case .crCRLF where b == 0x0D && i + 2 < n && bytes[i + 1] == 0x0D && bytes[i + 2] == 0x0A:
                out += [0x0D, 0x0A]
                i += 2
            case .lfCR where b == 0x0A:
                out.append(0x0A)
                if i + 1 < n && bytes[i + 1] == 0x0D { i += 1 }
            default:
                out.append(b)
            }
            i += 1
        }
        return out
    }
}
