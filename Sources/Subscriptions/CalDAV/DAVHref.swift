import AgendaCore
import Foundation

/// Hrefs as servers write them: a path or a whole URL, percent-encoded one
/// way or another (`@` or `%40`).
package enum DAVHref {
    /// What two hrefs of one resource have in common: the path, without
    /// scheme and host, percent-decoded, without a trailing slash. A `%`
    /// not followed by two hex digits is itself (a server that writes
    /// `100%.ics` raw in one answer and `100%25.ics` in another names one
    /// item). Two hrefs with one key name one item: escapes that decode to
    /// bytes that are not UTF-8 are kept as escapes (upper-case hex, behind
    /// `%%`, which no path decoded to text begins with), so `%FF` and `%FE`
    /// stay two items.
    package static func key(_ href: String) -> String {
        let start = pathStart(href)
        if start > 0 && start == href.utf8.count { return "/" }  // `https://host`: its root
        let bytes = Array(Array(href.utf8)[start...])
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let high = HexDigits.value(bytes[i + 1]),
                let low = HexDigits.value(bytes[i + 2]) {
                decoded.append(high << 4 | low)
                i += 3
            } else {
                decoded.append(bytes[i])
                i += 1
            }
        }
        while decoded.count > 1 && decoded.last == UInt8(ascii: "/") { decoded.removeLast() }
        if let text = String(validating: decoded, as: UTF8.self) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var escaped = Array("%%".utf8)
        for byte in decoded {
            if byte < 0x80 && byte != UInt8(ascii: "%") {
                escaped.append(byte)
            } else {
                escaped += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Where the path of `href` begins: after `scheme://authority` when it
    /// starts with a scheme (RFC 3986 §3.1: a letter, then letters, digits,
    /// `+`, `-`, `.`), else at its start: a `://` further on is the path's.
    static func pathStart(_ href: String) -> Int {
        let bytes = Array(href.utf8)
        guard let first = bytes.first, isLetter(first) else { return 0 }
        var i = 1
        while i < bytes.count, isLetter(bytes[i]) || (0x30...0x39).contains(bytes[i])
            || "+-.".utf8.contains(bytes[i]) {
            i += 1
        }
        guard bytes[i...].starts(with: "://".utf8) else { return 0 }
        return bytes[(i + 3)...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

    /// The href as it is sent back: its path percent-encoded as RFC 3986
    /// §3.3 writes a path, whatever form the server wrote it in. A `%`
    /// and two hex digits stay as they are; every other byte that is not
    /// unreserved, a sub-delimiter, `:`, `@` or `/` is written `%XX` (a raw
    /// blank, a `%` not followed by hex, `?`, `#`, non-ASCII). A whole URL
    /// keeps its scheme and host. Encoded twice, it is the same.
    package static func encoded(_ href: String) -> String {
        let all = Array(href.utf8)
        let start = pathStart(href)
        let bytes = Array(all[start...])
        var out = Array(all[..<start])
        out.reserveCapacity(all.count)
        let hex = Array("0123456789ABCDEF".utf8)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%"), i + 2 < bytes.count, isHex(bytes[i + 1]), isHex(bytes[i + 2]) {
                out += bytes[i...(i + 2)]
                i += 3
                continue
            }
            if kept(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isHex(_ byte: UInt8) -> Bool { HexDigits.value(byte) != nil }


    /// Unreserved, sub-delimiters, `:`, `@` and `/` (RFC 3986 §2.3, §3.3).
    private static func kept(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: "-._~!$&'()*+,;=:@/".utf8.contains(byte)
        }
    }
}
