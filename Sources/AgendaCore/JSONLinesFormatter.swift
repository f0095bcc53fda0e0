import Foundation

/// `--format json`: JSON Lines, one object per occurrence in agenda order,
/// every key of the contract on every line (`null` when absent).
public struct JSONLinesFormatter: Sendable {
    public let iso: ISOTime

    public init(clock: ZoneClock) {
        iso = ISOTime(clock: clock)
    }

    /// - Parameter threads: how many threads format lines. Rows are taken in
    ///   blocks; each thread formats a contiguous part of a block into its
    ///   own buffer, and the buffers are written in order: the bytes are
    ///   the same whatever the number, and memory follows the block.
    public func write(_ sections: [AgendaSection], to out: inout some ByteOutputStream, threads: Int = 1) {
        let blockSize = 4096
        var block: [AgendaRow] = []
        block.reserveCapacity(blockSize)
        var buffers = [[UInt8]](repeating: [], count: max(threads, 1))
        var caches = [ItemFields](repeating: ItemFields(), count: max(threads, 1))
        func flush() {
            let parts = block.count >= 1024 ? buffers.count : 1
            let rows = block
            buffers.withUnsafeMutableBufferPointer { buffers in
                caches.withUnsafeMutableBufferPointer { caches in
                    let shared = SharedBuffers(buffers: buffers, caches: caches)
                    let work: @Sendable (Int) -> Void = { part in
                        // Taken out, not copied: a copy would not be unique, and
                        // emptying it would allocate (and fault in) a new buffer.
                        var bytes: [UInt8] = []
                        swap(&bytes, &shared.buffers[part])
                        bytes.removeAll(keepingCapacity: true)
                        for row in rows[(rows.count * part / parts)..<(rows.count * (part + 1) / parts)] {
                            self.append(row, to: &bytes, fields: &shared.caches[part])
                            bytes.append(0x0A)
                        }
                        shared.buffers[part] = bytes
                    }
                    if parts == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: parts, execute: work) }
                }
            }
            for part in 0..<parts { buffers[part].withUnsafeBufferPointer { out.write(bytes: $0) } }
            block.removeAll(keepingCapacity: true)
        }
        for section in sections {
            for row in section.rows where row.isFirstListed {
                block.append(row)
                if block.count == blockSize { flush() }
            }
        }
        if !block.isEmpty { flush() }
    }

    /// One object, keys in the contract's order, every key present.
    func append(_ row: AgendaRow, to line: inout [UInt8]) {
        var fields = ItemFields()
        append(row, to: &line, fields: &fields)
    }

    /// One object; what belongs to the item (kind, UID, title, location and
    /// the rest) comes ready escaped from `fields`, the times are written here.
    func append(_ row: AgendaRow, to line: inout [UInt8], fields: inout ItemFields) {
        row.withOccurrence { append(row, $0, to: &line, fields: &fields) }
    }

    private func append(_ row: AgendaRow, _ o: Occurrence, to line: inout [UInt8], fields: inout ItemFields) {
        let item = fields.index(of: o)
        let isReminder = o.isReminder
        let start = isReminder ? (o.start ?? o.due) : o.start
        let end = isReminder ? (o.due ?? o.start) : o.end
        func key(_ k: StaticString) {
            line.append(contentsOf: UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount))
        }
        func time(_ t: AgendaTime?) {
            guard let t else { return key("null") }
            line.append(0x22)
            iso.append(t, to: &line)
            line.append(0x22)
        }
        fields.append(item, part: 0, to: &line)  // {"kind":…,"uid":…,"recurrence_id":
        time(o.recurrenceID)
        fields.append(item, part: 1, to: &line)  // ,"title":…,"start":
        time(start)
        key(",\"end\":"); time(end)
        key(",\"all_day\":"); key(o.isAllDay ? "true" : "false")
        key(",\"day\":")
        if let day = row.day {
            line.append(0x22)
            ISOTime.append(date: day, to: &line)
            line.append(0x22)
        } else {
            key("null")
        }
        fields.append(item, part: 2, to: &line)  // ,"location":…,"source":…,"due":
        time(o.due)
        fields.append(item, part: 3, to: &line)  // ,"completed":…,"priority":…}
    }
}

/// The parts of a JSON line that are the same for every occurrence of an
/// item, escaped once per item and kept for the formatting thread's later
/// rows: a series lists its title, location and description on each of its
/// lines, and escaping them again, through several objects, was most of
/// the formatting time.
struct ItemFields {
    private var index: [ObjectIdentifier: Int32] = [:]
    private var bytes: [UInt8] = []
    /// Four parts per item: where each begins in `bytes`; the next begins where it ends.
    private var bounds: [Int] = [0]

    /// The item's number here, its parts escaped on first sight.
    mutating func index(of occurrence: Occurrence) -> Int {
        let id = occurrence.itemIdentity
        if let known = index[id] { return Int(known) }
        let number = (bounds.count - 1) / 4
        index[id] = Int32(number)
        let reminder: Reminder?
        if case .reminder(let r) = occurrence.item { reminder = r } else { reminder = nil }
        func key(_ k: StaticString) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount))
        }
        func text(_ s: String?) { JSONText.append(s, to: &bytes) }
        key("{\"kind\":"); key(reminder == nil ? "\"event\"" : "\"reminder\"")
        key(",\"uid\":"); text(occurrence.uid.isEmpty ? nil : occurrence.uid)  // no UID: null, as the contract says
        key(",\"recurrence_id\":")
        bounds.append(bytes.count)
        key(",\"title\":"); text(occurrence.title)
        key(",\"start\":")
        bounds.append(bytes.count)
        key(",\"location\":"); text(occurrence.location)
        key(",\"description\":"); text(occurrence.description)
        key(",\"status\":"); text(occurrence.status)
        key(",\"calendar\":"); text(occurrence.calendar.name)
        key(",\"source\":"); text(occurrence.calendar.source)
        key(",\"due\":")
        bounds.append(bytes.count)
        key(",\"completed\":"); key(reminder.map { $0.isCompleted ? "true" : "false" } ?? "null")
        key(",\"priority\":")
        if let priority = reminder?.priority { bytes.append(contentsOf: String(priority).utf8) } else { key("null") }
        bytes.append(0x7D)
        bounds.append(bytes.count)
        return number
    }

    func append(_ item: Int, part: Int, to line: inout [UInt8]) {
        let at = item * 4 + part
        bytes.withUnsafeBufferPointer { line.append(contentsOf: UnsafeBufferPointer(rebasing: $0[bounds[at]..<bounds[at + 1]])) }
    }
}

/// Each formatting thread writes only its own buffer and item cache.
private struct SharedBuffers: @unchecked Sendable {
    let buffers: UnsafeMutableBufferPointer<[UInt8]>
    let caches: UnsafeMutableBufferPointer<ItemFields>
}

/// JSON string literals, escaped per RFC 8259 (and U+2028/U+2029, for JavaScript readers).
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
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                let isLineSeparator = b == 0xE2 && i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9)
                if b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F || isLineSeparator {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<i]))
                    var scalar = Int(b)
                    var width = 1
                    if isLineSeparator {
                        scalar = bytes[i + 2] == 0xA8 ? 0x2028 : 0x2029
                        width = 3
                    }
                    switch b {
                    case 0x22: out.append(contentsOf: [0x5C, 0x22])
                    case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                    case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
                    case 0x0D: out.append(contentsOf: [0x5C, 0x72])
                    case 0x09: out.append(contentsOf: [0x5C, 0x74])
                    default: out.append(contentsOf: ("\\u" + pad(scalar, 4, hex: true)).utf8)
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
}

func pad(_ n: Int, _ width: Int, hex: Bool) -> String {
    let s = String(n, radix: 16)
    return String(repeating: "0", count: max(0, width - s.count)) + s
}
