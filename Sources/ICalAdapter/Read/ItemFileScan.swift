import Foundation

/// What one file of a folder holds, read from its lines without parsing:
/// whether it is one item (the components of one UID, as vdirsyncer writes
/// a collection: one file per event), whether it names its calendar, and
/// whether it can be read joined to its neighbours (`CollectionText`).
package struct ItemFileScan: Sendable {
    /// The UID of its top-level components when they all have the same
    /// one; nil when they have none, several, or one has none.
    package private(set) var soleUID: String?
    /// Whether it has `X-WR-CALNAME`: it names a calendar of its own.
    package private(set) var namesCalendar = false
    /// Whether it has `X-WR-TIMEZONE`, which applies to its whole stream.
    package private(set) var hasWRTimezone = false
    /// Whether it starts with BEGIN:VCALENDAR (after a UTF-8 byte-order
    /// mark and blank lines) and ends with END:VCALENDAR (before blank
    /// lines), with every BEGIN closed: what it holds ends with it.
    package private(set) var isClosedCalendar = false
    /// Whether its first line is BEGIN:VCALENDAR: whether it is iCalendar at all.
    package private(set) var startsCalendar = false

    /// True when the file is one item: some top-level component, and all
    /// of them share one UID.
    package var holdsOneItem: Bool { soleUID != nil }

    /// Whether it reads the same joined after another such file as alone:
    /// a closed VCALENDAR in UTF-8 that says nothing of the whole stream.
    package var isJoinable: Bool { isClosedCalendar && !hasWRTimezone }

    /// Scans `bytes`. With `stopsEarly`, the scan ends as soon as the file
    /// is known not to be one item (a second UID, a calendar name): enough
    /// to classify a large file without reading all of it.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, stopsEarly: Bool = false) {
        if TextBytes.utf16ByteOrder(bytes) != nil { return }
        var uid: String?
        var several = false
        var componentWithoutUID = false
        var components = 0
        var depth = 0
        var currentHasUID = false
        var currentIsZone = false
        var unbalanced = false
        var first = true
        var endsCalendar = false
        let start = TextDecoding.hasUTF8BOM(bytes) ? 3 : 0
        // A UID is compared whole, its folds joined (long Exchange UIDs are folded).
        func see(uid value: String) {
            if uid == nil { uid = value } else if uid != value { several = true }
        }
        for contentLine in ContentLines(bytes, in: start..<max(start, bytes.count)) {
            let line = contentLine.firstText(in: bytes)
            // Only the first line can start with a blank: the others that do are folds.
            guard let head = line.first, !ContentLines.isBlank(head) else { continue }
            if first {
                first = false
                guard ItemFileScan.keyword(line, "BEGIN:VCALENDAR") else { return }
                startsCalendar = true
            }
            if ItemFileScan.keyword(line, "BEGIN:") {
                depth += 1
                if depth == 2 {
                    currentIsZone = ItemFileScan.keyword(line, "BEGIN:VTIMEZONE")
                    currentHasUID = false
                    if !currentIsZone { components += 1 }
                }
                endsCalendar = false
                continue
            }
            if ItemFileScan.keyword(line, "END:") {
                if depth == 2 && !currentIsZone && !currentHasUID { componentWithoutUID = true }
                depth -= 1
                if depth < 0 { unbalanced = true }
                let word = line.prefix { !ContentLines.isBlank($0) }
                endsCalendar = depth == 0 && word.count == 13 && ItemFileScan.keyword(line, "END:VCALENDAR")
                continue
            }
            endsCalendar = false
            if depth == 2 && !currentIsZone, var value = ItemFileScan.value(line, of: "UID") {
                currentHasUID = true
                if contentLine.isFolded {
                    let whole = contentLine.unfolded(in: bytes)
                    value = whole.withUnsafeBufferPointer { ItemFileScan.value($0, of: "UID") } ?? value
                }
                see(uid: value)
            } else if depth == 1 {
                if ItemFileScan.value(line, of: "X-WR-CALNAME") != nil { namesCalendar = true }
                if ItemFileScan.value(line, of: "X-WR-TIMEZONE") != nil { hasWRTimezone = true }
            }
            if stopsEarly && (several || namesCalendar) { return }
        }
        soleUID = several || componentWithoutUID || components == 0 ? nil : uid
        isClosedCalendar = endsCalendar && !unbalanced
    }

    /// Whether the line starts with `word`, in any case.
    static func keyword(_ line: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard line.count >= word.utf8CodeUnitCount else { return false }
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for i in 0..<w.count where line[i] | 0x20 != w[i] | 0x20 { return false }
        return true
    }

    /// The value of a property line named `name` (`NAME:value` or
    /// `NAME;PARAM=...:value`), else nil.
    static func value(_ line: UnsafeBufferPointer<UInt8>, of name: StaticString) -> String? {
        let count = name.utf8CodeUnitCount
        guard line.count > count, line[count] == 0x3A || line[count] == 0x3B, keyword(line, name) else { return nil }
        var quoted = false
        for i in count..<line.count {
            if line[i] == 0x22 { quoted.toggle() }
            if line[i] == 0x3A && !quoted {
                return String(decoding: UnsafeBufferPointer(rebasing: line[(i + 1)...]), as: UTF8.self)
            }
        }
        return nil
    }
}
