import Foundation

/// Bytes in, UTF-8 out, and a word on what a non-calendar input looks like.
enum TextDecoding {
    /// Whether the input starts with a UTF-16 byte-order mark.
    static func isUTF16(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 2 && ((bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF))
    }

    static func hasUTF8BOM(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// A UTF-16 file (with its byte-order mark) as UTF-8.
    static func utf8(fromUTF16 bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard let text = String(data: Data(buffer: bytes), encoding: .utf16) else { return Array(bytes) }
        return Array(text.utf8)
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
