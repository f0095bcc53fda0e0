import Foundation
import Synchronization

/// Which listed busy timed occurrences overlap in time, found once per
/// agenda (`find`), before any formatter runs.
///
/// Each day's busy timed rows become spans, sorted by start: a span
/// overlaps another when something begun before it runs past its start,
/// or the next to begin begins before it ends. Rows that overlap something
/// carry their span's index (`AgendaRow.overlap`), every other row -1, so
/// the formatters' cost for them is one comparison. What a row overlaps
/// (distinct UIDs for JSON, distinct titles for the marks) is read from an
/// index of the day's spans (`DistinctOverlaps`), made on first use, in
/// time that grows with the answer's length: on a dense calendar a row
/// overlaps thousands of occurrences of a few series.
///
/// Busy is `Occurrence.isBusy` and timed: all-day rows neither overlap nor
/// are overlapped. An end equal to another's start is not an overlap.
public final class Overlaps: Sendable {
    /// One busy timed row, as seconds since 1970.
    struct Span {
        let start: Int64
        let end: Int64
        /// The row's index in `rows`.
        let row: Int32
        /// The row's item number (`AgendaRow.item`).
        let item: Int32
        /// The rank of its UID among the UIDs of overlapping rows (equal
        /// UIDs share one), or -1 (no UID, or overlaps nothing).
        var uid: Int32
    }

    let spans: [Span]
    /// Each day's spans: consecutive ranges of `spans`.
    let days: [Range<Int>]
    /// The agenda's rows (the same storage the sections slice).
    let rows: [AgendaRow]
    /// What the rows show.
    let occurrences: AgendaOccurrences
    /// By item number: a number per distinct title (in title order), for
    /// the items of overlapping rows; -1 for others.
    let titleGroup: [Int32]
    /// Title groups' titles as rows show them (`oneLine`), one after
    /// another: group g is `titleBytes[titleBounds[g]..<titleBounds[g + 1]]`.
    let titleBytes: [UInt8]
    let titleBounds: [Int]
    /// UIDs by rank, each escaped as a JSON string, one after another:
    /// rank r is `uidBytes[uidBounds[r]..<uidBounds[r + 1]]`.
    let uidBytes: [UInt8]
    let uidBounds: [Int]
    /// The first listed row of a multi-day occurrence: the spans of all its
    /// rows (JSON lists what it overlaps on any day).
    let spansOfOccurrence: [Int32: [Int32]]
    /// Each day's indexes by UID and by title, each made when first asked
    /// for, by the thread that asks: the threads that write rows make the
    /// indexes of their own days side by side.
    private let uidIndex: [DayIndex]
    private let titleIndex: [DayIndex]
    /// Every occurrence once, over the whole window, for what a multi-day
    /// occurrence overlaps on any of its days; made when first asked for.
    private let wholeIndex = Mutex<WholeWindow?>(nil)

    /// The spans of the window, one per occurrence, in order of start, as
    /// one day of `index`; `place` gives a multi-day occurrence's place in them.
    struct WholeWindow {
        let spans: [Span]
        let index: DistinctOverlaps
        let place: [Int32: Int]
    }

    init(
        spans: [Span], days: [Range<Int>], rows: [AgendaRow], occurrences: AgendaOccurrences, titleGroup: [Int32], titleBytes: [UInt8], titleBounds: [Int], uidBytes: [UInt8], uidBounds: [Int],
        spansOfOccurrence: [Int32: [Int32]]
    ) {
        self.spans = spans
        self.days = days
        self.rows = rows
        self.occurrences = occurrences
        self.titleGroup = titleGroup
        self.titleBytes = titleBytes
        self.titleBounds = titleBounds
        self.uidBytes = uidBytes
        self.uidBounds = uidBounds
        self.spansOfOccurrence = spansOfOccurrence
        uidIndex = days.map { _ in DayIndex() }
        titleIndex = days.map { _ in DayIndex() }
        var cost = 0
        for list in spansOfOccurrence.values {
            for s in list {
                var a = 0, b = days.count
                while a < b {
                    let m = (a + b) / 2
                    if days[m].upperBound <= Int(s) { a = m + 1 } else { b = m }
                }
                cost += days[a].count
            }
        }
        multiDayCost = cost
    }

    /// The spans on the days of the multi-day occurrences that overlap
    /// something, each day counted once for each of them: what asking each
    /// of their days costs at most.
    let multiDayCost: Int

    /// Whether a multi-day occurrence's overlaps are asked of the index of
    /// each of its days, or of the window's (`byWholeOccurrence`): the
    /// answers are the same; the days' indexes are quicker (and made
    /// anyway) while their spans are few; past `multiDayBudget` steps
    /// (a thousand occurrences of a year, each day crowded) the window's.
    var multiDayByDays: Bool { multiDayCost <= Overlaps.multiDayBudget }

    /// Tests set it to 0 (within their task) to ask the window's index.
    @TaskLocal public static var multiDayBudget = 8_000_000

    static let none = Overlaps(spans: [], days: [], rows: [], occurrences: .none, titleGroup: [], titleBytes: [], titleBounds: [0], uidBytes: [], uidBounds: [0], spansOfOccurrence: [:])

    /// Finds the overlaps of `rows` (sorted by day, as `AgendaBuilder` sorts
    /// them) and marks each overlapping row with its span. Days are
    /// independent: `threads` threads each take a run of them.
    static func find(in rows: inout [AgendaRow], occurrences: AgendaOccurrences, itemRanks: [Int32], clock: ZoneClock, threads: Int = 1) -> Overlaps {
        // Each day's rows.
        var dayRows: [Range<Int>] = []
        var index = 0
        while index < rows.count {
            let day = rows[index].sortKey / AgendaRow.dayFactor
            var end = index + 1
            while end < rows.count && rows[end].sortKey / AgendaRow.dayFactor == day { end += 1 }
            dayRows.append(index..<end)
            index = end
        }
        let parts = rows.count >= AgendaBuilder.parallelFrom ? max(1, min(threads, dayRows.count)) : 1
        var found = [DaySpans](repeating: DaySpans(), count: parts)
        found.withUnsafeMutableBufferPointer { found in
            let shared = SharedDaySpans(parts: found)
            let work: @Sendable (Int) -> Void = { [rows, dayRows] w in
                shared.parts[w] = DaySpans(rows: rows, days: dayRows[(dayRows.count * w / parts)..<(dayRows.count * (w + 1) / parts)],
                    occurrences: occurrences, clock: clock)
            }
            if parts == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: parts, execute: work) }
        }
        var spans: [Span] = []
        var overlapping: [Bool] = []
        var multiDay: [ObjectIdentifier: [Int32]] = [:]  // an occurrence listed on several days: its rows
        var days: [Range<Int>] = []  // each day's spans
        spans.reserveCapacity(found.reduce(0) { $0 + $1.spans.count })
        for n in found.indices {
            let base = spans.count
            spans += found[n].spans
            overlapping += found[n].overlapping
            days += found[n].days.map { ($0.lowerBound + base)..<($0.upperBound + base) }
            multiDay.merge(found[n].multiDay) { $0 + $1 }
            found[n] = DaySpans()  // each part's memory goes once joined
        }
        guard overlapping.contains(true) else { return .none }
        var spanOfRow: [Int32: Int32] = [:]
        if !multiDay.isEmpty {
            for (i, span) in spans.enumerated() where rows[Int(span.row)].dayCount > 1 { spanOfRow[span.row] = Int32(i) }
        }
        var spansOfOccurrence: [Int32: [Int32]] = [:]
        for var list in multiDay.values {
            list = list.map { spanOfRow[$0]! }
            guard list.contains(where: { overlapping[Int($0)] }) else { continue }
            // The first listed row carries the occurrence's JSON.
            if let first = list.first(where: { rows[Int(spans[Int($0)].row)].isFirstListed }) {
                spansOfOccurrence[first] = list
                overlapping[Int(first)] = true
            }
        }
        for (i, span) in spans.enumerated() where overlapping[i] { rows[Int(span.row)].overlap = Int32(i) }
        // Rank the UIDs of overlapping rows once, item by item (a series
        // shares its UID), so that a row's list sorts as numbers.
        var uidOfItem = [Int32](repeating: -2, count: itemRanks.count)
        var items: [(uid: [UInt8], item: Int32)] = []
        for (i, span) in spans.enumerated() where overlapping[i] && uidOfItem[Int(span.item)] == -2 {
            uidOfItem[Int(span.item)] = -1
            let uid = occurrences[rows[Int(span.row)]].uid
            if !uid.isEmpty { items.append((Array(uid.utf8), span.item)) }
        }
        items.sort { a, b in
            a.uid.withUnsafeBufferPointer { x in
                b.uid.withUnsafeBufferPointer { y in
                    let c = memcmp(x.baseAddress!, y.baseAddress!, min(x.count, y.count))
                    return c != 0 ? c < 0 : x.count < y.count
                }
            }
        }
        var uidBytes: [UInt8] = [], uidBounds: [Int] = [0]
        var previous: [UInt8]? = nil
        for (uid, item) in items {
            if uid != previous {
                JSONText.append(String(decoding: uid, as: UTF8.self), to: &uidBytes)
                uidBounds.append(uidBytes.count)
                previous = uid
            }
            uidOfItem[Int(item)] = Int32(uidBounds.count - 2)
        }
        for i in spans.indices where overlapping[i] { spans[i].uid = uidOfItem[Int(spans[i].item)] }
        // Number the distinct titles in title order, once: item ranks put
        // titles in order (ItemRanks sorts by title first), so equal titles
        // are neighbours.
        var titled: [(rank: Int32, item: Int32, row: Int32)] = []
        var seen = [Bool](repeating: false, count: itemRanks.count)
        for (i, span) in spans.enumerated() where overlapping[i] && !seen[Int(span.item)] {
            seen[Int(span.item)] = true
            titled.append((itemRanks[Int(span.item)], span.item, span.row))
        }
        titled.sort { $0.rank < $1.rank }
        var titleGroup = [Int32](repeating: -1, count: itemRanks.count)
        var titleBytes: [UInt8] = [], titleBounds: [Int] = [0]
        var previousTitle: String? = nil
        for (_, item, row) in titled {
            let occurrence = occurrences[rows[Int(row)]]
            if occurrence.title != previousTitle {
                titleBytes += Overlaps.oneLine(occurrence).utf8
                titleBounds.append(titleBytes.count)
                previousTitle = occurrence.title
            }
            titleGroup[Int(item)] = Int32(titleBounds.count - 2)
        }
        return Overlaps(
            spans: spans, days: days, rows: rows, occurrences: occurrences, titleGroup: titleGroup, titleBytes: titleBytes, titleBounds: titleBounds, uidBytes: uidBytes, uidBounds: uidBounds,
            spansOfOccurrence: spansOfOccurrence)
    }

    /// Marks the spans of one day (`day`, sorted by start and end) that
    /// overlap another of the day: something that began earlier runs past
    /// its start, or the next to begin later begins before it ends, or
    /// another lasting span begins at the same time as it (and it lasts).
    static func markOverlapping(_ spans: [Span], _ day: Range<Int>, in overlapping: inout [Bool]) {
        var latestEnd = Int64.min  // of the spans that began before the current start
        var i = day.lowerBound
        while i < day.upperBound {
            // The spans beginning at this time: i..<j.
            let s = spans[i].start
            var j = i, lasting = 0
            while j < day.upperBound && spans[j].start == s {
                if spans[j].end > s { lasting += 1 }
                j += 1
            }
            let next = j < day.upperBound ? spans[j].start : Int64.max
            var latest = latestEnd
            for k in i..<j {
                let e = spans[k].end
                if latestEnd > s || next < e || (lasting > 1 && e > s) { overlapping[k] = true }
                latest = max(latest, e)
            }
            latestEnd = latest
            i = j
        }
    }

    /// The day (an index of `days`) of span `i`.
    private func day(ofSpan i: Int) -> Int {
        var a = 0, b = days.count
        while a < b {
            let m = (a + b) / 2
            if days[m].upperBound <= i { a = m + 1 } else { b = m }
        }
        return a
    }

    /// Day `d`'s index by UID, made on first use; its spans are numbered from the day's first.
    private func byUID(day d: Int) -> DistinctOverlaps {
        uidIndex[d].get {
            spans.withUnsafeBufferPointer { spans in
                DistinctOverlaps(spans: UnsafeBufferPointer(rebasing: spans[days[d]]), days: [0..<days[d].count], first: Overlaps.uidsListed) { $0.uid }
            }
        }
    }

    /// Day `d`'s index by title, made on first use; its spans are numbered from the day's first.
    private func byTitle(day d: Int) -> DistinctOverlaps {
        titleIndex[d].get {
            spans.withUnsafeBufferPointer { spans in
                DistinctOverlaps(spans: UnsafeBufferPointer(rebasing: spans[days[d]]), days: [0..<days[d].count], first: Overlaps.titlesShown) {
                    titleGroup[Int($0.item)]
                }
            }
        }
    }

    /// The window's index of whole occurrences, made on first use: each
    /// multi-day occurrence's spans (one a day, each its whole time) are
    /// one, so that it is asked once for all its days.
    private var byWholeOccurrence: WholeWindow {
        wholeIndex.withLock { whole in
            if let whole { return whole }
            var duplicate = [Bool](repeating: false, count: spans.count)
            for list in spansOfOccurrence.values { for s in list.dropFirst() { duplicate[Int(s)] = true } }
            var order = spans.indices.filter { !duplicate[$0] }
            order.sort { (spans[$0].start, spans[$0].end, spans[$0].row) < (spans[$1].start, spans[$1].end, spans[$1].row) }
            var position = [Int](repeating: -1, count: spans.count)
            for (g, i) in order.enumerated() { position[i] = g }
            // Keyed by the first listed span of each multi-day occurrence (`spansOfOccurrence`), which keeps the first of its list.
            var byKey: [Int32: Int] = [:]
            for (key, list) in spansOfOccurrence { if let first = list.first { byKey[key] = position[Int(first)] } }
            let ordered = order.map { spans[$0] }
            let index = ordered.withUnsafeBufferPointer { ordered in
                DistinctOverlaps(spans: ordered, days: ordered.isEmpty ? [] : [0..<ordered.count], first: Overlaps.uidsListed,
                    wanted: Set(byKey.values)) { $0.uid }
            }
            whole = WholeWindow(spans: ordered, index: index, place: byKey)
            return whole!
        }
    }

    /// At most this many UIDs are listed in a row's JSON `overlaps`; `overlap_count` counts them all.
    public static let uidsListed = 10

    /// The first `uidsListed` UID ranks (sorted, unique) of everything the
    /// row's occurrence overlaps, on any day, into `ranks`; how many bytes
    /// the JSON array of them takes, and how many UIDs there are in all.
    func uidRanks(of row: AgendaRow, into ranks: inout [Int32]) -> (length: Int, count: Int) {
        ranks.removeAll(keepingCapacity: true)
        guard row.overlap >= 0 else { return (2, 0) }
        // One day's index, or for a multi-day occurrence the window's taken
        // whole: what it overlaps on any of its days is what overlaps its
        // whole time among the window's occurrences.
        let index: DistinctOverlaps, i: Int, span: Span
        if let list = spansOfOccurrence[row.overlap], multiDayByDays {
            // What it overlaps on each of its days (its whole time each
            // day), joined: the first ten of the joined are among each day's.
            for s in list {
                let d = day(ofSpan: Int(s))
                let local = Int(s) - days[d].lowerBound
                let dayIndex = byUID(day: d)
                let colours = dayIndex.colours(ofDayOf: local)
                dayIndex.forEachColour(overlapping: spans[Int(s)], at: local) { ranks.append(colours[colours.startIndex + Int($0)]) }
            }
            Overlaps.order(&ranks, below: uidBounds.count - 1)
            let count = ranks.count
            if count > Overlaps.uidsListed { ranks.removeLast(count - Overlaps.uidsListed) }
            return (length(of: ranks), count)
        } else if spansOfOccurrence[row.overlap] != nil {
            let whole = byWholeOccurrence
            i = whole.place[row.overlap]!
            (index, span) = (whole.index, whole.spans[i])
        } else {
            let d = day(ofSpan: Int(row.overlap))
            i = Int(row.overlap) - days[d].lowerBound
            (index, span) = (byUID(day: d), spans[Int(row.overlap)])
        }
        // Each colour comes once, as its place in the day's ascending list,
        // so the places in order are the ranks in order.
        let colours = index.colours(ofDayOf: i)
        if let answer = index.firstColours.answer(at: i) {
            // A day of many UIDs: found for the whole day at once.
            for place in answer.places { ranks.append(colours[colours.startIndex + Int(place)]) }
            return (length(of: ranks), answer.count)
        }
        index.forEachColour(overlapping: span, at: i) { ranks.append($0) }
        Overlaps.order(&ranks, below: colours.count)
        for n in ranks.indices { ranks[n] = colours[colours.startIndex + Int(ranks[n])] }
        let count = ranks.count
        if count > Overlaps.uidsListed { ranks.removeLast(count - Overlaps.uidsListed) }
        return (length(of: ranks), count)
    }

    /// The bytes of the JSON array of `ranks`.
    private func length(of ranks: [Int32]) -> Int {
        var length = 1
        for rank in ranks { length += uidBounds[Int(rank) + 1] - uidBounds[Int(rank)] + 1 }
        return max(length, 2)
    }

    /// Sorts `places`, numbers below `count`, and drops repeats: by a bit
    /// set when they are many for their range (no comparisons), else by
    /// comparison.
    static func order(_ places: inout [Int32], below count: Int) {
        guard places.count > 1 else { return }
        let words = (count + 63) / 64
        var n = 0
        if places.count * 8 < words {
            places.sort()
            for k in places.indices where n == 0 || places[k] != places[n - 1] {
                places[n] = places[k]
                n += 1
            }
        } else {
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: words) { bits in
                bits.initialize(repeating: 0)
                for p in places { bits[Int(p) >> 6] |= 1 << UInt64(p & 63) }
                for w in 0..<words {
                    var word = bits[w]
                    while word != 0 {
                        places[n] = Int32(w << 6 + word.trailingZeroBitCount)
                        n += 1
                        word &= word - 1
                    }
                }
            }
        }
        places.removeLast(places.count - n)
    }

    /// How many distinct UIDs the row's occurrence overlaps (JSON `overlap_count`).
    public func count(of row: AgendaRow) -> Int {
        var ranks: [Int32] = []
        return uidRanks(of: row, into: &ranks).count
    }

    /// The row's JSON `overlaps` value, as text.
    public func json(of row: AgendaRow) -> String {
        var ranks: [Int32] = []
        let length = uidRanks(of: row, into: &ranks).length
        var bytes = [UInt8](repeating: 0, count: length)
        let written = bytes.withUnsafeMutableBufferPointer { row.overlap >= 0 ? writeUIDs(ranks, at: $0.baseAddress!) : 0 }
        return row.overlap >= 0 ? String(decoding: bytes[..<written], as: UTF8.self) : "[]"
    }

    /// Writes the JSON array of `ranks` (from `uidRanks`) at `p`; the bytes written.
    func writeUIDs(_ ranks: [Int32], at p: UnsafeMutablePointer<UInt8>) -> Int {
        var q = p
        q[0] = 0x5B
        q += 1
        uidBytes.withUnsafeBufferPointer { bytes in
            for (n, rank) in ranks.enumerated() {
                if n > 0 {
                    q[0] = 0x2C
                    q += 1
                }
                let from = uidBounds[Int(rank)], count = uidBounds[Int(rank) + 1] - from
                q.update(from: bytes.baseAddress! + from, count: count)
                q += count
            }
        }
        q[0] = 0x5D
        return q + 1 - p
    }

    /// At most this many titles are named in a row's mark; the rest are counted.
    static let titlesShown = 3

    /// `(overlaps Review, Standup)`, `(overlaps A, B, C and 12 more)`: the
    /// mark after a row's title, naming what it overlaps that day (sorted,
    /// unique titles); empty when it overlaps nothing that day.
    public func mark(_ row: AgendaRow) -> String {
        var bytes: [UInt8] = []
        return writeMark(row, to: &bytes) ? String(decoding: bytes, as: UTF8.self) : ""
    }

    /// Appends the row's mark (`mark`) to `bytes`, as it is asked for
    /// every overlapping row of a text agenda: no string is made. False,
    /// and nothing appended, when it overlaps nothing that day.
    public func writeMark(_ row: AgendaRow, to bytes: inout [UInt8]) -> Bool {
        guard row.overlap >= 0 else { return false }
        let shown = Overlaps.titlesShown
        // The `shown` smallest places in the day's ascending list of title
        // groups (the first titles), in order, and how many there are; on
        // the stack: every overlapping row asks.
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: shown) { first in
            first.initialize(repeating: .max)
            var distinct = 0
            let d = day(ofSpan: Int(row.overlap))
            let i = Int(row.overlap) - days[d].lowerBound
            let index = byTitle(day: d)
            if let answer = index.firstColours.answer(at: i) {
                // A day of many titles: found for the whole day at once.
                distinct = answer.count
                for (n, place) in answer.places.enumerated() where n < shown { first[n] = place }
            } else {
                index.forEachColour(overlapping: spans[Int(row.overlap)], at: i) { place in
                    distinct += 1
                    guard shown > 0, place < first[shown - 1] else { return }
                    var k = shown - 1
                    while k > 0 && first[k - 1] > place {
                        first[k] = first[k - 1]
                        k -= 1
                    }
                    first[k] = place
                }
            }
            guard distinct > 0 else { return false }
            let groups = index.colours(ofDayOf: i)
            bytes.append(contentsOf: "(overlaps ".utf8)
            for n in 0..<min(distinct, shown) {
                if n > 0 { bytes.append(contentsOf: ", ".utf8) }
                let g = Int(groups[groups.startIndex + Int(first[n])])
                bytes.append(contentsOf: titleBytes[titleBounds[g]..<titleBounds[g + 1]])
            }
            if distinct > shown {
                bytes.append(contentsOf: " and ".utf8)
                bytes.append(contentsOf: String(distinct - shown).utf8)
                bytes.append(contentsOf: " more".utf8)
            }
            bytes.append(0x29)
            return true
        }
    }

    /// A title as a row shows it: one line, `(no title)` when empty.
    static func oneLine(_ o: Occurrence) -> String {
        let title = o.title
        if title.isEmpty { return "(no title)" }
        return RowWording.singleLine(title)
    }
}

/// One day's index, made by the first thread that asks for it; a thread
/// asking meanwhile waits for it.
final class DayIndex: Sendable {
    private let index = Mutex<DistinctOverlaps?>(nil)

    func get(_ make: () -> DistinctOverlaps) -> DistinctOverlaps {
        index.withLock { index in
            if let index { return index }
            let made = make()
            index = made
            return made
        }
    }
}

/// The busy timed spans of a run of days (`Overlaps.find`), each day's
/// sorted by start and end, and which overlap another of their day.
struct DaySpans {
    var spans: [Overlaps.Span] = []
    /// Each day's spans, consecutive ranges of `spans`.
    var days: [Range<Int>] = []
    var overlapping: [Bool] = []
    /// An occurrence listed on several days: its rows.
    var multiDay: [ObjectIdentifier: [Int32]] = [:]

    init() {}

    /// `days`: each day's rows, ranges of `rows`.
    init(rows: [AgendaRow], days dayRows: ArraySlice<Range<Int>>, occurrences: AgendaOccurrences, clock: ZoneClock) {
        for day in dayRows {
            let first = spans.count
            for index in day {
                let row = rows[index]
                switch row.timing {
                case .starts, .continues, .allDay:
                    let o = occurrences[row]
                    if o.isBusy, let start = o.start, !start.isDate {
                        let s = Int64(start.instant(in: clock).timeIntervalSince1970.rounded(.down))
                        let e = max(o.end.map { Int64($0.instant(in: clock).timeIntervalSince1970.rounded(.down)) } ?? s, s)
                        if row.dayCount > 1 { multiDay[ObjectIdentifier(o), default: []].append(Int32(index)) }
                        spans.append(Overlaps.Span(start: s, end: e, row: Int32(index), item: row.item, uid: -1))
                    }
                default: break
                }
            }
            let last = spans.count
            overlapping += repeatElement(false, count: last - first)
            guard last > first else { continue }
            days.append(first..<last)
            guard last - first > 1 else { continue }
            spans[first..<last].sort { ($0.start, $0.end, $0.row) < ($1.start, $1.end, $1.row) }
            Overlaps.markOverlapping(spans, first..<last, in: &overlapping)
        }
    }
}

/// The threads' parts of `Overlaps.find`, each written by one thread.
private struct SharedDaySpans: @unchecked Sendable {
    let parts: UnsafeMutableBufferPointer<DaySpans>
}
