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
/// (distinct UIDs for JSON, `OverlapQueries`; distinct titles for the marks,
/// `OverlapMarks`) is found for all the rows of a day in one sweep
/// (`SweptOverlaps`) where each overlaps a few dozen others, else read from
/// an index of the day's spans (`DistinctOverlaps`), in time that grows with
/// the answer's length: on a dense calendar a row overlaps thousands of
/// occurrences of a few series.
/// Each day's sweep or index is made by the thread that first asks for it
/// (the formatters' threads make their own days' side by side) and let go
/// once the formatter has written the day (`release`).
///
/// Busy is `Occurrence.isBusy` and timed: all-day rows neither overlap nor
/// are overlapped. An end equal to another's start is not an overlap.
package final class Overlaps: Sendable {
    /// One busy timed row, as seconds since 1970.
    struct Span {
        let start: Int64
        let end: Int64
        /// The row's index in `rows` (its item is the row's: a span is
        /// kept in 24 bytes, one for nearly every row).
        let row: Int32
        /// The rank of its UID among the UIDs of overlapping rows (equal
        /// UIDs share one), where an index asks it (a day's, `byUID`, or of
        /// whole occurrences, `WholeOccurrences`); else -1.
        var uid: Int32
    }

    /// By span (each day's in order of start, end and row): its row. The
    /// spans themselves are made a day at a time (`daySpans`), when asked.
    let spanRows: [Int32]
    /// By span: whether it overlaps something (its row carries the span).
    let overlapping: [Bool]
    /// Each day's spans: consecutive ranges of `spanRows`; and each day's
    /// rows, which its spans are made of.
    let days: [Range<Int>]
    let dayRows: [Range<Int>]
    /// The zone spans are made in.
    let clock: ZoneClock
    /// The UIDs of overlapping rows ranked (`rankUIDs`), when first asked
    /// for: JSON lists them, the text formats do not (100,000 UIDs held 2.8 MB).
    var uids: ItemNames {
        rankedUIDs.get {
            Overlaps.rankUIDs(rows: spanRows, overlapping: overlapping, of: rows, occurrences: occurrences,
                items: itemRanks.count)
        }
    }
    private let rankedUIDs = MadeOnce<ItemNames>()
    /// The titles of overlapping rows grouped (`groupTitles`), when first
    /// asked for: the text formats' marks name them, JSON does not (a
    /// hundred thousand items took 16 ms, on one thread).
    var titles: ItemNames {
        groupedTitles.get {
            Overlaps.groupTitles(rows: spanRows, overlapping: overlapping, of: rows, occurrences: occurrences,
                itemRanks: itemRanks)
        }
    }
    private let groupedTitles = MadeOnce<ItemNames>()
    /// By item number: its rank in title order (`ItemRanks`), which title groups follow.
    let itemRanks: [Int32]
    /// The agenda's rows (the same storage the sections slice).
    let rows: [AgendaRow]
    /// What the rows show.
    let occurrences: AgendaOccurrences
    /// The first listed row of a multi-day occurrence: the spans of all its
    /// rows (JSON lists what it overlaps on any day).
    let spansOfOccurrence: [Int32: [Int32]]
    /// Each day's indexes by UID and by title, each made when first asked
    /// for, by the thread that asks: the threads that write rows make the
    /// indexes of their own days side by side.
    let uidIndex: [DayIndex]
    let titleIndex: [DayIndex]
    /// Each day's answers by UID and by title for all its spans at once
    /// (`SweptOverlaps`), made when first asked for; nil for a day left to its index.
    let uidSweep: [DaySweepCache]
    let titleSweep: [DaySweepCache]
    /// Each day's spans, made when first asked for and let go with its indexes.
    let spanCache: [DaySpanCache]
    /// Every occurrence once, over runs of days, for what a multi-day
    /// occurrence overlaps on any of its days (`WholeOccurrences`); made when first asked for.
    let wholeIndex = Mutex(WholeOccurrences())

    /// The spans of a run of days, one per occurrence, in order of start, as
    /// one day of `index`; `place` gives a multi-day occurrence's place in them.
    struct WholeWindow {
        let spans: [Span]
        let index: DistinctOverlaps
        let place: [Int32: Int]
    }

    init(
        spans found: DaySpans, rows: [AgendaRow], occurrences: AgendaOccurrences, clock: ZoneClock,
            itemRanks: [Int32], spansOfOccurrence: [Int32: [Int32]]
    ) {
        spanRows = found.rows
        overlapping = found.overlapping
        days = found.days
        dayRows = found.dayRows
        self.clock = clock
        self.rows = rows
        self.occurrences = occurrences
        self.itemRanks = itemRanks
        self.spansOfOccurrence = spansOfOccurrence
        uidIndex = days.map { _ in DayIndex() }
        titleIndex = days.map { _ in DayIndex() }
        uidSweep = days.map { _ in DaySweepCache() }
        titleSweep = days.map { _ in DaySweepCache() }
        spanCache = days.map { _ in DaySpanCache() }
        var cost = 0, repeats = 0
        let days = found.days
        for list in spansOfOccurrence.values {
            repeats += list.count - 1
            let listed = list.map { Overlaps.day(ofSpan: Int($0), in: days) }
            for d in listed { cost += days[d].count }
            // And the days next to them (`OverlapQueries`).
            if let first = listed.min(), first > 0 { cost += days[first - 1].count }
            if let last = listed.max(), last + 1 < days.count { cost += days[last + 1].count }
        }
        multiDayCost = cost
        windowSpans = found.rows.count - repeats
    }

    /// The spans of the window, a multi-day occurrence's once: what the
    /// indexes of whole occurrences (`byWholeOccurrence`) are made of, a run of days at a time.
    let windowSpans: Int

    /// The spans on the days of the multi-day occurrences that overlap
    /// something and on the days next to those, each day counted once for
    /// each of them: what asking each of their days costs at most.
    let multiDayCost: Int

    /// Whether a multi-day occurrence's overlaps are found by looking at
    /// each span of its days and the days next to them (`multiDayRanks`),
    /// or asked of an index of the whole occurrences of its run of days
    /// (`byWholeOccurrence`): the answers are the same. The days' spans are
    /// looked at on the threads that write, a comparison a span; the other
    /// is one more index, made a run of days at a time by one thread, about
    /// 2 µs a span of the window (on the 300k calendar it was a fifth of
    /// the JSON run, and 18 MB). So the days' while their steps are at most
    /// `multiDayStepsPerSpan` a span of the window: not for a few long
    /// occurrences over crowded days, nor for a crowd of multi-day
    /// occurrences (each looks at every span of its days).
    var multiDayByDays: Bool { multiDayCost <= Overlaps.multiDayStepsPerSpan * windowSpans }

    /// Tests set it (within their task) to 0 to ask the whole occurrences' indexes,
    /// to a million to ask the days'.
    @TaskLocal package static var multiDayStepsPerSpan = 256

    /// The steps a span past which a day is left to its indexes, not swept
    /// (`SweptOverlaps`); tests set it (within their task) to 0 to ask the indexes.
    @TaskLocal package static var sweptStepsPerSpan = 256

    static let none = Overlaps(
        spans: DaySpans(), rows: [], occurrences: .none, clock: ZoneClock(TimeZone(secondsFromGMT: 0)!),
        itemRanks: [], spansOfOccurrence: [:])

    /// Finds the overlaps of `rows` (sorted by day, as `AgendaBuilder` sorts
    /// them; `dayRows`, each day's rows, from `AgendaBuilder.days(of:)`) and
    /// marks each overlapping row with its span. Days are independent:
    /// `threads` threads each take a run of them.
    static func find(
        in rows: inout [AgendaRow], days dayRows: [Range<Int>], occurrences: AgendaOccurrences, itemRanks: [Int32],
            clock: ZoneClock, threads: Int = 1
    ) -> Overlaps {
        let parts = rows.count >= AgendaBuilder.parallelFrom ? max(1, min(threads, dayRows.count)) : 1
        var found = [DaySpans](repeating: DaySpans(), count: parts)
        found.withUnsafeMutableBufferPointer { found in
            let shared = SharedDaySpans(parts: found)
            let work: @Sendable (Int) -> Void = { [rows, dayRows] w in
                let days = dayRows[(dayRows.count * w / parts)..<(dayRows.count * (w + 1) / parts)]
                shared.parts[w] = DaySpans(rows: rows, days: days, occurrences: occurrences, clock: clock,
                    room: w == 0 ? rows.count : 0)
            }
            if parts == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: parts, execute: work) }
        }
        // The first part's arrays have room for every part's spans: the
        // others are appended to them, and the spans are held once and a part more, not twice.
        var joined = found[0]
        found[0] = DaySpans()
        for n in found.indices.dropFirst() {
            let base = joined.rows.count
            joined.rows += found[n].rows
            joined.overlapping += found[n].overlapping
            joined.days += found[n].days.map { ($0.lowerBound + base)..<($0.upperBound + base) }
            joined.dayRows += found[n].dayRows
            joined.multiDay.merge(found[n].multiDay) { $0 + $1 }
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
        return Overlaps(spans: joined, rows: rows, occurrences: occurrences, clock: clock, itemRanks: itemRanks,
            spansOfOccurrence: spansOfOccurrence)
    }

    /// Marks the spans of one day (`day`, sorted by start and end) that
    /// overlap another of the day: something that began earlier runs past
    /// its start, or the next to begin later begins before it ends, or
    /// another lasting span begins at the same time as it (and it lasts).
    static func markOverlapping(_ spans: [Span], _ day: Range<Int>, in overlapping: UnsafeMutableBufferPointer<Bool>) {
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

    /// How many days from the first have had their indexes let go (`release`).
    private let released = Mutex(0)

    /// Lets go the indexes of the days before `row`'s, which a formatter
    /// writing in agenda order has written: memory holds the days being
    /// written, not the window's. A day asked for again is indexed again.
    package func release(before row: AgendaRow) {
        let key = row.sortDay
        released.withLock { released in
            // The day before the cursor too: a multi-day occurrence also asks
            // the day before its first (`OverlapQueries`), made again once let go.
            if released > 0 { forget(day: released - 1) }
            while released < days.count, rows[dayRows[released].lowerBound].sortDay < key {
                forget(day: released)
                released += 1
            }
        }
    }

    /// Lets go what was made for day `d`.
    private func forget(day d: Int) {
        uidIndex[d].forget()
        titleIndex[d].forget()
        uidSweep[d].forget()
        titleSweep[d].forget()
        spanCache[d].forget()
    }

    /// Day `d`'s spans, in the order `find` numbered them (span
    /// `days[d].lowerBound + k` is the k-th).
    func daySpans(_ d: Int) -> [Span] {
        spanCache[d].get { make(day: d) }
    }

    /// Day `d`'s spans, made again from its rows.
    func make(day d: Int) -> [Span] {
        var spans: [Span] = []
        spans.reserveCapacity(days[d].count)
        DaySpans.make(rows, dayRows[d], occurrences: occurrences, clock: clock, into: &spans)
        return spans
    }

    /// Span `i` (of the window's numbering).
    func span(_ i: Int) -> Span {
        let d = day(ofSpan: i)
        return daySpans(d)[i - days[d].lowerBound]
    }

    /// The day (an index of `days`) of span `i`.
    func day(ofSpan i: Int) -> Int { Overlaps.day(ofSpan: i, in: days) }

    static func day(ofSpan i: Int, in days: [Range<Int>]) -> Int {
        var a = 0, b = days.count
        while a < b {
            let m = (a + b) / 2
            if days[m].upperBound <= i { a = m + 1 } else { b = m }
        }
        return a
    }
}
