import Foundation

/// `--format json`: JSON Lines, one object per occurrence in agenda order,
/// every key of the contract on every line (`null` when absent).
package struct JSONLinesFormatter: OutputFormatter, Sendable {
    package let iso: ISOTime
    /// How many threads format lines.
    package let threads: Int

    package init(clock: ZoneClock, threads: Int = 1) {
        iso = ISOTime(clock: clock)
        self.threads = threads
    }

    /// Rows are taken in blocks of whole days; each of the `threads`
    /// formats a contiguous part of a block into its own buffer, and the
    /// buffers are written in order: the bytes are the same whatever the
    /// number, and memory follows the block.
    ///
    /// A part begins on a day where it can (`partBounds`): the first thread
    /// to ask for a day's overlap index makes it and a second asking waits,
    /// so threads that shared a day took turns (the write ran on 1.5 of 2 cores).
    package func write(_ sections: [AgendaSection], to out: inout some ByteOutputStream) {
        // A block is at least `blockSize` rows and ends with a day, or is
        // `blockLimit` rows of a crowded day: at least two days of a busy
        // calendar, about 1 MB of lines held until the block is written.
        let blockSize = 1024, blockLimit = 4096
        var block: [AgendaRow] = []
        block.reserveCapacity(blockLimit)
        let buffers = (0..<max(threads, 1)).map { _ in LineBuffer() }
        var caches = [ItemFields](repeating: ItemFields(), count: max(threads, 1))
        let overlaps = sections.first?.overlaps ?? .none
        let occurrences = sections.first?.occurrences ?? .none
        func flush() {
            let parts = block.count >= 256 ? buffers.count : 1
            let rows = block
            let bounds = JSONLinesFormatter.partBounds(of: rows, parts: parts)
            caches.withUnsafeMutableBufferPointer { caches in
                let shared = SharedCaches(caches: caches)
                let work: @Sendable (Int) -> Void = { part in
                    let buffer = buffers[part]
                    buffer.count = 0
                    for row in rows[bounds[part]..<bounds[part + 1]] {
                        self.write(row, occurrences[row], to: buffer, fields: &shared.caches[part], overlaps: overlaps)
                    }
                }
                if parts == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: parts, execute: work) }
            }
            for part in 0..<parts { out.write(bytes: buffers[part].bytes) }
            block.removeAll(keepingCapacity: true)
        }
        for section in sections {
            for row in section.rows where row.isFirstListed {
                if block.count >= blockLimit || (block.count >= blockSize && block.last!.sortDay != row.sortDay) {
                    flush()
                }
                if block.isEmpty { overlaps.release(before: row) }  // the days written so far
                block.append(row)
            }
        }
        if !block.isEmpty { flush() }
    }

    /// Where each of `parts` parts of `rows` begins (and the last ends):
    /// about equal, each moved to the nearer start of a day when that is
    /// within half a part (on many cores a part is less than a day, and
    /// moving it further would leave one thread twice the rows).
    package static func partBounds(of rows: [AgendaRow], parts: Int) -> [Int] {
        var bounds = [0]
        let slack = rows.count / max(parts, 1) / 2
        for p in 1..<max(parts, 1) {
            let even = rows.count * p / parts
            var later = even, earlier = even
            while later > 0 && later < rows.count && rows[later - 1].sortDay == rows[later].sortDay { later += 1 }
            while earlier > 0 && earlier < rows.count && rows[earlier - 1].sortDay == rows[earlier].sortDay {
                earlier -= 1
            }
            let nearer = even - earlier <= later - even ? earlier : later
            let moved = abs(nearer - even) <= slack && nearer > bounds.last! && nearer < rows.count
            bounds.append(moved ? nearer : max(even, bounds.last!))
        }
        bounds.append(rows.count)
        return bounds
    }

    /// Lines for rows chosen one by one (`ics-agenda next`), each with
    /// `extra` keys after the agenda's: `extras[i]` is written as it is,
    /// before row i's closing brace (`,"minutes_until":25`).
    package func write(
        _ rows: [AgendaRow], occurrences: AgendaOccurrences, overlaps: Overlaps, extras: [String],
            to out: inout some ByteOutputStream
    ) {
        let buffer = LineBuffer()
        var fields = ItemFields()
        for (row, extra) in zip(rows, extras) {
            write(row, occurrences[row], to: buffer, fields: &fields, overlaps: overlaps, extra: Array(extra.utf8))
        }
        out.write(bytes: buffer.bytes)
    }

    /// Writes a whole number that is not negative in decimal at `p`; the bytes written.
    static func writeDecimal(_ value: Int, at p: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = 1, rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        var v = value
        for i in stride(from: digits - 1, through: 0, by: -1) {
            p[i] = 0x30 + UInt8(v % 10)
            v /= 10
        }
        return digits
    }

    /// One line: an object, keys in the contract's order, every key present,
    /// and a line feed. What belongs to the item (kind, UID, title, location
    /// and the rest) comes ready escaped from `fields`, the overlaps from
    /// `overlaps`; the times are written here, straight into the buffer.
    func write(_ row: AgendaRow, _ o: Occurrence, to buffer: LineBuffer, fields: inout ItemFields, overlaps: Overlaps,
        extra: [UInt8] = []) {
        let item = fields.index(of: row.item, o)
        let start = o.shownStart, end = o.shownEnd
        let overlapping = row.overlap >= 0
        let overlapCount = overlapping
            ? overlaps.uidRanks(of: row, into: &fields.overlapRanks, last: &fields.sweptDay) : 0
        let names = fields.sweptDay.names  // set by `uidRanks` for a row that overlaps something
        let overlapLength = overlapping ? overlaps.jsonLength(of: fields.overlapRanks, names: names) : 2
        // Room for the item's parts, four quoted times, a day, the keys and the overlaps.
        var p = buffer.reserve(fields.length(of: item) + 512 + overlapLength + extra.count)
        let begin = p
        func key(_ k: StaticString) {
            p.update(from: k.utf8Start, count: k.utf8CodeUnitCount)
            p += k.utf8CodeUnitCount
        }
        func time(_ t: AgendaTime?) {
            guard let t else { return key("null") }
            p[0] = 0x22
            p += 1 + iso.write(t, at: p + 1)
            p[0] = 0x22
            p += 1
        }
        p += fields.copy(item, part: 0, to: p)  // {"kind":…,"uid":…,"recurrence_id":
        time(o.recurrenceID)
        p += fields.copy(item, part: 1, to: p)  // ,"title":…,"start":
        time(start)
        key(",\"end\":"); time(end)
        key(",\"all_day\":"); key(o.isAllDay ? "true" : "false")
        key(",\"day\":")
        if let day = row.day {
            p[0] = 0x22
            p += 1 + ISOTime.write(date: day, at: p + 1)
            p[0] = 0x22
            p += 1
        } else {
            key("null")
        }
        p += fields.copy(item, part: 2, to: p)  // ,"location":…,"source":…,"calendar_color":…,"due":
        time(o.due)
        p += fields.copy(item, part: 3, to: p)  // ,"completed":…,"priority":…
        key(",\"overlaps\":")
        if overlapping {
            p += overlaps.writeUIDs(fields.overlapRanks, at: p, names: names)
        } else {
            key("[]")
        }
        key(",\"overlap_count\":")
        p += JSONLinesFormatter.writeDecimal(overlapCount, at: p)
        p += fields.copy(item, part: 4, to: p)  // ,"meeting_url":…,"partstat":…
        if !extra.isEmpty {
            extra.withUnsafeBufferPointer { p.update(from: $0.baseAddress!, count: $0.count) }
            p += extra.count
        }
        p[0] = 0x7D
        p[1] = 0x0A
        p += 2
        buffer.count += p - begin
    }
}

/// One formatting thread's lines, written through a pointer into memory
/// reserved a line ahead: appending to an array piece by piece (a dozen
/// pieces a line, each checked and counted) cost more than the pieces.
final class LineBuffer: @unchecked Sendable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    var count = 0

    init() {
        capacity = 1 << 16
        start = .allocate(capacity: capacity)
    }

    deinit { start.deallocate() }

    /// Where the next bytes go, with room for `bytes` of them.
    func reserve(_ bytes: Int) -> UnsafeMutablePointer<UInt8> {
        if count + bytes > capacity {
            capacity = max(capacity * 2, count + bytes)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: start, count: count)
            start.deallocate()
            start = grown
        }
        return start + count
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }
}

/// The parts of a JSON line that are the same for every occurrence of an
/// item, escaped once per item and kept for the formatting thread's later
/// rows: a series lists its title, location and description on each of its
/// lines, and escaping them again, through several objects, was most of
/// the formatting time.
package struct ItemFields {
    /// By the agenda's item number (`AgendaRow.item`): the item's place
    /// here, or -1 when this thread has not met it yet.
    private var index: [Int32] = []
    /// The items kept now, by number: what `forgetAll` resets (not the whole
    /// index, which has a place for every item of the agenda: at 300,000
    /// items, resetting it each time the cache filled grew faster than the rows).
    private var kept: [Int32] = []
    private var bytes: [UInt8] = []
    /// Five parts per item: where each begins in `bytes`; the next begins where it ends.
    private var bounds: [Int] = [0]
    /// The UID ranks of a row's `overlaps` while it is written
    /// (`Overlaps.uidRanks`): kept per thread, reused.
    var overlapRanks: [Int32] = []
    /// The day this thread last asked overlaps of (`Overlaps.uidRanks`), and the agenda's ranked UIDs.
    var sweptDay = Overlaps.SweptDay()

    /// The place here of item `item`, the item of `occurrence`, its parts escaped on first sight.
    package mutating func index(of item: Int32, _ occurrence: Occurrence) -> Int {
        let item = Int(item)
        if item >= index.count { index += repeatElement(-1, count: max(item + 1 - index.count, index.count)) }
        if index[item] >= 0 { return Int(index[item]) }
        // Full: forget every item before this one is added (the caller holds
        // no earlier item's place: a row asks for its item's first).
        if bytes.count > ItemFields.keptBytes { forgetAll() }
        if bytes.capacity < ItemFields.keptBytes { bytes.reserveCapacity(ItemFields.keptBytes + (64 << 10)) }
        let number = (bounds.count - 1) / ItemFields.parts
        index[item] = Int32(number)
        kept.append(Int32(item))
        switch occurrence.item {
        case .event(let event): escape(event, kind: "\"event\"", reminder: nil, occurrence)
        case .reminder(let reminder): escape(reminder, kind: "\"reminder\"", reminder: reminder, occurrence)
        }
        return number
    }

    /// An item's five parts, appended to `bytes`. Generic over the item's
    /// type, each field is read where it lies: read through `CalendarItem`
    /// every field was a counted reference, and its calendar's (one object
    /// for every item) was counted by every formatting thread at once.
    private mutating func escape<Item: CalendarItem>(_ item: Item, kind: StaticString, reminder: Reminder?,
        _ occurrence: Occurrence) {
        func key(_ k: StaticString) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount))
        }
        func text(_ s: String?) { JSONText.append(s, to: &bytes) }
        key("{\"kind\":"); key(kind)
        key(",\"uid\":"); text(item.uid.isEmpty ? nil : item.uid)  // no UID: null, as the contract says
        key(",\"recurrence_id\":")
        bounds.append(bytes.count)
        key(",\"title\":"); text(item.title)
        key(",\"start\":")
        bounds.append(bytes.count)
        key(",\"location\":"); text(item.location)
        key(",\"description\":"); text(item.description)
        key(",\"status\":"); text(item.status)
        bytes.append(contentsOf: calendarPart(item.calendar))
        key(",\"due\":")
        bounds.append(bytes.count)
        key(",\"completed\":"); key(reminder.map { $0.isCompleted ? "true" : "false" } ?? "null")
        key(",\"priority\":")
        if let priority = reminder?.priority { bytes.append(contentsOf: String(priority).utf8) } else { key("null") }
        bounds.append(bytes.count)
        key(",\"meeting_url\":"); text(occurrence.meetingURL)
        key(",\"partstat\":"); text(occurrence.partstat)
        bounds.append(bytes.count)
    }

    /// `,"calendar":…,"source":…,"calendar_color":…` of `calendar`, escaped
    /// once for the run of items of one calendar (nearly always all of them).
    private mutating func calendarPart(_ calendar: CalendarInfo) -> [UInt8] {
        let id = ObjectIdentifier(calendar)
        if id == calendarShown { return calendarBytes }
        calendarShown = id
        var part: [UInt8] = []
        part += Array(",\"calendar\":".utf8)
        JSONText.append(calendar.name, to: &part)
        part += Array(",\"source\":".utf8)
        JSONText.append(calendar.source, to: &part)
        part += Array(",\"calendar_color\":".utf8)
        JSONText.append(calendar.color, to: &part)
        calendarBytes = part
        return part
    }

    /// The calendar `calendarBytes` were escaped for.
    private var calendarShown: ObjectIdentifier?
    private var calendarBytes: [UInt8] = []

    static let parts = 5

    /// About how much escaped text a thread keeps: a series' text is
    /// escaped once for many rows, but a one-off item's is used once, and
    /// keeping every item's made memory grow faster than the rows (300,000
    /// components: 135 MB more than text). Reserved once, so the array never
    /// doubles past it (4 MB kept had grown to 8 MB a thread: a third of the
    /// 100k agenda's peak).
    package static let keptBytes = 256 << 10

    /// Forgets every item: each is escaped again when next met.
    mutating func forgetAll() {
        for item in kept { index[Int(item)] = -1 }
        kept.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        bounds.removeAll(keepingCapacity: true)
        bounds.append(0)
    }

    package init() {}

    /// The bytes room is kept for: at most `keptBytes` and one item more.
    package var heldBytes: Int { bytes.capacity }

    /// The length of all the parts of an item.
    package func length(of item: Int) -> Int {
        bounds[item * ItemFields.parts + ItemFields.parts] - bounds[item * ItemFields.parts]
    }

    /// Copies one part of an item to `p`; the bytes copied.
    func copy(_ item: Int, part: Int, to p: UnsafeMutablePointer<UInt8>) -> Int {
        let from = bounds[item * ItemFields.parts + part], count = bounds[item * ItemFields.parts + part + 1] - from
        bytes.withUnsafeBufferPointer { p.update(from: $0.baseAddress! + from, count: count) }
        return count
    }
}

/// Each formatting thread writes only its own item cache (and its own LineBuffer).
private struct SharedCaches: @unchecked Sendable {
    let caches: UnsafeMutableBufferPointer<ItemFields>
}
