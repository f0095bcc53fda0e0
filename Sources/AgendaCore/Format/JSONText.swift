import Foundation

/// JSON string literals, escaped per RFC 8259 (and U+2028/U+2029, for
/// JavaScript readers, and C1 controls, for readers of lines: each JSON
/// line stays one line whatever splits it).
enum JSONText {
    static func quote(_ s: String?) -> String {
        var bytes: [UInt8] = []
        append(s, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func append(_ s: String?, to out: inout [UInt8]) {
        guard var s else {
            out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])  // null
            return
        }
        out.append(0x22)
        s.withUTF8 { bytes in
            var clean = 0  // bytes[clean..<i] need no escaping and are copied in one go
            var i = JSONText.plainPrefix(bytes)
            while i < bytes.count {
                let b = bytes[i]
                let isLineSeparator = b == 0xE2 && i + 2 < bytes.count && bytes[i + 1] == 0x80
                    && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9)
                // C1 (U+0080 to U+009F): NEL (U+0085) ends a line for many line readers (Python's splitlines).
                let isC1 = b == 0xC2 && i + 1 < bytes.count && bytes[i + 1] >= 0x80 && bytes[i + 1] <= 0x9F
                if b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F || isLineSeparator || isC1 {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<i]))
                    var scalar = Int(b)
                    var width = 1
                    if isLineSeparator {
                        scalar = bytes[i + 2] == 0xA8 ? 0x2028 : 0x2029
                        width = 3
                    } else if isC1 {
                        scalar = Int(bytes[i + 1])
                        width = 2
                    }
                    switch b {
                    case 0x22: out.append(contentsOf: [0x5C, 0x22])
                    case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                    case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
                    case 0x0D: out.append(contentsOf: [0x5C, 0x72])
                    case 0x09: out.append(contentsOf: [0x5C, 0x74])
                    default: out.append(contentsOf: ("\\u" + pad(scalar, 4, radix: 16)).utf8)
                    }
                    i += width
                    clean = i
                } else {
                    i += 1
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<bytes.count]))
        }
        out.append(0x22)
    }

    /// How many of the first bytes need no escaping, found eight at a time:
    /// a word goes on while it holds no control, quote, backslash, DEL or
    /// byte past ASCII (those are looked at one by one). Most titles,
    /// places and descriptions are plain ASCII and are copied in one go.
    static func plainPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let high: UInt64 = 0x8080_8080_8080_8080, ones: UInt64 = 0x0101_0101_0101_0101
        /// Whether a byte of `w` is zero (exact: a borrow reaches a high bit only past a zero byte).
        func hasZero(_ w: UInt64) -> Bool { (w &- ones) & ~w & high != 0 }
        var i = 0
        while i + 8 <= bytes.count {
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let control = (w &- 0x2020_2020_2020_2020) & ~w & high != 0
            let wide = ((w &+ ones) | w) & high != 0  // 0x7F and up
            if control || wide || hasZero(w ^ 0x2222_2222_2222_2222) || hasZero(w ^ 0x5C5C_5C5C_5C5C_5C5C) { break }
            i += 8
        }
        return i
    }
}
