import Foundation

/// Whether bytes are iCalendar at all, as the loader judges it, for what
/// must decide before loading (a downloaded body, before it replaces the
/// copy kept).
package enum CalendarText {
    /// True when the loader would read the text as iCalendar (UTF-16 too).
    package static func looksLikeCalendar(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { all in
            if TextBytes.utf16ByteOrder(all) != nil { return true }
            let head = UnsafeBufferPointer(rebasing: all[..<min(all.count, 1 << 16)])
            return ComponentSplitter.split(head, in: 0..<head.count).looksLikeICalendar
        }
    }

    /// What text that is not iCalendar looks like (`it looks like an HTML page ...`).
    package static func describe(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { TextDecoding.describeNonCalendar($0) }
    }
}
