import Foundation

/// Which listed busy timed occurrences overlap in time, found once per agenda (`find`), before any formatter runs.
/// What each row overlaps is answered a day at a time, each day alone (`NamedOverlaps.day`, a `DayOverlaps`).
///
/// Each day's busy timed rows become spans, sorted by start: a span overlaps another when something begun before it
/// runs past its start, or the next to begin begins before it ends. Rows that overlap something carry their span's
/// index (`AgendaRow.overlap`), every other row -1, so the formatters' cost for them is one comparison.
///
/// Busy is `Occurrence.isBusy` and timed: all-day rows neither overlap nor are overlapped. An end equal to another's
/// start is not an overlap.
package final class Overlaps: Sendable {
    /// One busy timed row's time, as seconds since 1970.
    struct Span { let start: Int64, end: Int64 }

    /// A span's time as kept, in seconds from its day's `base`: 8 bytes a span, kept so that a day's answers are
    /// made from its spans alone. One too far from its day for 32 bits (a start of `Int32.min`) is in `far`.
    struct SpanTime { let start: Int32, end: Int32 }

    /// By span (each day's in order of start, end and row): its time, its row, and whether it overlaps another of its
    /// day (its row carries the span).
    let times: [SpanTime], far: [Int32: Span]
    let spanRows: [Int32], overlapping: [Bool]
    /// By day of the agenda (`AgendaBuilder.days(of:)`): its spans, a range of the above (maybe empty), and its rows.
    let days: [Range<Int>]
    let dayRows: [Range<Int>]
    /// The agenda's rows (the same storage the sections slice), and what they show.
    let rows: [AgendaRow]
    let occurrences: AgendaOccurrences
    /// By item number: its rank in title order (`ItemRanks`), which title groups follow.
    let itemRanks: [Int32]
    /// A multi-day occurrence that overlaps something, by the span of its first listed row (which carries its JSON):
    /// its spans, one a day it is listed on; those first spans, ascending; and every such span, its occurrence's first.
    let spansOfOccurrence: [Int32: [Int32]]
    let owners: [Int32]
    let ownerOfSpan: [Int32: Int32]

    init(spans found: DaySpans = DaySpans(), rows: [AgendaRow] = [], occurrences: AgendaOccurrences = .none,
        itemRanks: [Int32] = [], dayRows: [Range<Int>] = [], spansOfOccurrence: [Int32: [Int32]] = [:]) {
        (times, far, spanRows, overlapping, days) = (found.times, found.far, found.rows, found.overlapping, found.days)
        (self.rows, self.occurrences, self.itemRanks, self.dayRows) = (rows, occurrences, itemRanks, dayRows)
        self.spansOfOccurrence = spansOfOccurrence
        ownerOfSpan = Dictionary(uniqueKeysWithValues: spansOfOccurrence.flatMap { k, list in list.map { ($0, k) } })
        owners = spansOfOccurrence.keys.sorted()
    }

    static let none = Overlaps()

    /// Finds the overlaps of `rows` (sorted by day, as `AgendaBuilder` sorts them; `dayRows`, each day's rows, from
    /// `AgendaBuilder.days(of:)`) and marks each overlapping row with its span. Days are independent: `threads`
    /// threads each take a run of them.
    static func find(
        in rows: inout [AgendaRow], days dayRows: [Range<Int>], occurrences: AgendaOccurrences, itemRanks: [Int32],
            clock: ZoneClock, threads: Int = 1
    ) -> Overlaps {
        let parts = rows.count >= AgendaBuilder.parallelFrom ? max(1, min(threads, dayRows.count)) : 1
        var found = [DaySpans](repeating: DaySpans(), count: parts)
        found.withUnsafeMutableBufferPointer { found in
            let shared = SharedSlots(slots: found)
            let work: @Sendable (Int) -> Void = { [rows, dayRows] w in
                let days = dayRows[(dayRows.count * w / parts)..<(dayRows.count * (w + 1) / parts)]
                shared.slots[w] = DaySpans(rows: rows, days: days, occurrences: occurrences, clock: clock,
                    room: w == 0 ? rows.count : 0)
            }
            if parts == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: parts, execute: work) }
        }
        // The first part's arrays have room for every part's spans: the others are appended to them, and the spans
        // are held once and a part more, not twice.
        var joined = found[0]
        found[0] = DaySpans()
        for n in found.indices.dropFirst() {
            joined.append(found[n])
            found[n] = DaySpans()  // each part's memory goes once joined
        }
        guard joined.overlapping.contains(true) else { return .none }
        let multiDay = joined.multiDay
        joined.multiDay = [:]
        var spanOfRow: [Int32: Int32] = [:]
        if !multiDay.isEmpty {
            for (i, row) in joined.rows.enumerated() where rows[Int(row)].dayCount > 1 { spanOfRow[row] = Int32(i) }
        }
        var spansOfOccurrence: [Int32: [Int32]] = [:]
        for var list in multiDay.values {
            list = list.map { spanOfRow[$0]! }
            guard list.contains(where: { joined.overlapping[Int($0)] }) else { continue }
            // The first listed row carries the occurrence's JSON.
            if let first = list.first(where: { rows[Int(joined.rows[Int($0)])].isFirstListed }) {
                spansOfOccurrence[first] = list
                joined.overlapping[Int(first)] = true
            }
        }
        for (i, row) in joined.rows.enumerated() where joined.overlapping[i] { rows[Int(row)].overlap = Int32(i) }
        return Overlaps(spans: joined, rows: rows, occurrences: occurrences, itemRanks: itemRanks, dayRows: dayRows,
            spansOfOccurrence: spansOfOccurrence)
    }

    /// Which spans of one day (sorted by start and end) overlap another of the day: something that began earlier
    /// runs past its start, or the next to begin later begins before it ends, or another lasting span begins at the
    /// same time as it (and it lasts).
    static func overlapping(_ spans: [Span]) -> [Bool] {
        var overlapping = [Bool](repeating: false, count: spans.count)
        var latestEnd = Int64.min  // of the spans that began before the current start
        var i = 0
        while i < spans.count {
            // The spans beginning at this time: i..<j.
            let s = spans[i].start
            var j = i, lasting = 0
            while j < spans.count && spans[j].start == s {
                if spans[j].end > s { lasting += 1 }
                j += 1
            }
            let next = j < spans.count ? spans[j].start : Int64.max
            var latest = latestEnd
            for k in i..<j {
                let e = spans[k].end
                if latestEnd > s || next < e || (lasting > 1 && e > s) { overlapping[k] = true }
                latest = max(latest, e)
            }
            latestEnd = latest
            i = j
        }
        return overlapping
    }

    /// Midnight UTC of `row`'s day, as seconds since 1970: what its day's spans are kept from.
    static func base(of row: AgendaRow) -> Int64 { (row.sortDay - AgendaRow.dayOffset) * 86_400 }

    /// Day `d`'s spans, in order.
    func spans(ofDay d: Int) -> [Span] {
        let base = Overlaps.base(of: rows[dayRows[d].lowerBound])
        return days[d].map { i in
            let t = times[i]
            return t.start == Int32.min ? far[Int32(i)]! : Span(start: base + Int64(t.start), end: base + Int64(t.end))
        }
    }

    /// The multi-day occurrences whose first listed rows' spans are in `spans`, by those spans.
    func owners(in spans: Range<Int>) -> ArraySlice<Int32> {
        let from = Overlaps.first(owners.count) { owners[$0] >= spans.lowerBound }
        return owners[from..<Overlaps.first(owners.count) { owners[$0] >= spans.upperBound }]
    }

    /// The day (an index of `days`) of span `i`.
    func day(ofSpan i: Int) -> Int { Overlaps.first(days.count) { days[$0].upperBound > i } }

    /// The day (an index of `days`) whose rows have `sortDay`, or nil when the agenda has none with it.
    func day(sortDay key: Int64) -> Int? {
        let d = Overlaps.first(dayRows.count) { rows[dayRows[$0].lowerBound].sortDay >= key }
        return d < dayRows.count && rows[dayRows[d].lowerBound].sortDay == key ? d : nil
    }

    /// The first of `0..<count` where `isPast` holds (and holds for all after it), or `count`.
    static func first(_ count: Int, where isPast: (Int) -> Bool) -> Int {
        var a = 0, b = count
        while a < b {
            let m = (a + b) / 2
            if isPast(m) { b = m } else { a = m + 1 }
        }
        return a
    }
}
