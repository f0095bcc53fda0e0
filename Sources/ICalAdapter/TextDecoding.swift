import Foundation

/// Bytes in, UTF-8 out, and a word on what a non-calendar input looks like.
enum TextDecoding {
    /// UTF-16 files (with a byte-order mark) become UTF-8; a UTF-8 BOM is
    /// dropped; everything else is passed on as it is.
    static func utf8(_ data: Data) -> [UInt8] {
        if data.count >= 2 {
            let b0 = data[data.startIndex], b1 = data[data.startIndex + 1]
            if (b0 == 0xFF && b1 == 0xFE) || (b0 == 0xFE && b1 == 0xFF),
                let text = String(data: data, encoding: .utf16)
            {
                return Array(text.utf8)
            }
        }
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(data.dropFirst(3)) }
        return Array(data)
    }

    /// A short description of an input with no iCalendar in it.
    static func describeNonCalendar(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let head = bytes.prefix(4096)
        if head.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return "it is empty"
        }
        let controls = head.filter { $0 < 0x09 || ($0 > 0x0D && $0 < 0x20) }.count
        if head.contains(0) || controls * 10 > head.count {
            return "it looks like binary data"
        }
        let text = String(decoding: head, as: UTF8.self).trimmingWhitespace().lowercased()
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || text.contains("<body") || text.contains("<head") {
            return "it looks like an HTML page (a login or error page saved instead of the calendar?)"
        }
        if text.hasPrefix("<") { return "it looks like XML" }
        if text.hasPrefix("{") || text.hasPrefix("[") { return "it looks like JSON" }
        if text.hasPrefix("begin:vcard") { return "it is a vCard (contacts), not a calendar" }
        return "no BEGIN:VCALENDAR line"
    }
}
