import AgendaCore
import Foundation

/// The UTF-8 byte-order mark, and a word on what a non-calendar input
/// looks like. (Other encodings: TextRepair.)
enum TextDecoding {
    static func hasUTF8BOM(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// A short description of an input with no iCalendar in it.
    static func describeNonCalendar(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let head = bytes.prefix(4096)
        if head.allSatisfy(TextBytes.isBlankOrLineEnd) {
            return "it is empty"
        }
        let controls = head.filter { $0 < 0x20 && !TextBytes.isCSpace($0) }.count
        if head.contains(0) || controls * 10 > head.count {
            return "it looks like binary data"
        }
        let text = String(decoding: head, as: UTF8.self).trimmingWhitespace().lowercased()
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || text.contains("<body")
            || text.contains("<head") {
            return "it looks like an HTML page (a login or error page saved instead of the calendar?)"
        }
        if text.hasPrefix("<") { return "it looks like XML" }
        if text.hasPrefix("{") || text.hasPrefix("[") { return "it looks like JSON" }
        if text.hasPrefix("begin:vcard") { return "it is a vCard (contacts), not a calendar" }
        return "no BEGIN:VCALENDAR line"
    }
}
