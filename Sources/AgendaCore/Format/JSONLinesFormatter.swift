import Foundation

/// `--format json`: JSON Lines, one object per occurrence in agenda order,
/// every key of the contract on every line (`null` when absent).
package struct JSONLinesFormatter: OutputFormatter, Sendable {
    package let iso: ISOTime
    /// How many threads format lines.
    package let threads: Int
    /// How the overlaps are found (tests ask each way).
    var ways = NamedOverlaps.Ways()

    package init(clock: ZoneClock, threads: Int = 1) {
        iso = ISOTime(clock: clock)
        self.threads = threads
    }

    /// The first listed rows, written by `threads` threads in blocks of whole days (`BlockWriter`), each given what
    /// its day overlaps by UID; each thread keeps its own items' escaped text (`ItemFields`). A block is at least
    /// 1,024 rows, about 1 MB of lines held until it is written.
    package func write(_ sections: [AgendaSection], to out: inout some ByteOutputStream) {
        let uids = (sections.first?.overlaps ?? .none).named(.uids, ways: ways)
        let occurrences = sections.first?.occurrences ?? .none
        BlockWriter(threads: threads, blockRows: 1024).write(sections, keep: { $0.isFirstListed }, to: &out,
            state: { ItemFields() }, day: { uids.day(sortDay: $0) }) { row, _, overlaps, fields, buffer in
            self.write(row, occurrences[row], to: buffer, fields: &fields, overlaps: overlaps)
        }
    }

    /// Lines for rows chosen one by one (`ics-agenda next`), each with
    /// `extra` keys after the agenda's: `extras[i]` is written as it is,
    /// before row i's closing brace (`,"minutes_until":25`).
    package func write(
        _ rows: [AgendaRow], occurrences: AgendaOccurrences, overlaps: Overlaps, extras: [String],
            to out: inout some ByteOutputStream
    ) {
        let buffer = BlockBuffer(), uids = overlaps.named(.uids)
        var fields = ItemFields(), days: [Int: DayOverlaps] = [:]
        for (row, extra) in zip(rows, extras) {
            // Each day's answers made once (rows come in any order; an alarm's may be listed under another day).
            let day = row.overlap < 0 ? -1 : overlaps.day(ofSpan: Int(row.overlap))
            if days[day] == nil { days[day] = uids.day(of: row) }
            write(row, occurrences[row], to: buffer, fields: &fields, overlaps: days[day]!, extra: Array(extra.utf8))
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
    func write(_ row: AgendaRow, _ o: Occurrence, to buffer: BlockBuffer, fields: inout ItemFields,
        overlaps: DayOverlaps, extra: [UInt8] = []) {
        let item = fields.index(of: row.item, o)
        let start = o.shownStart, end = o.shownEnd
        let (overlapCount, uids) = row.overlap >= 0 ? overlaps.answer(row) : (0, [])
        let overlapLength = overlaps.jsonLength(of: uids)
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
        p += overlaps.writeUIDs(uids, at: p)
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
