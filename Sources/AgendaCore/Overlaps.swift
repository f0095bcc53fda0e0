import Foundation

/// Which listed busy timed occurrences overlap in time, found once per
/// agenda (`find`), before any formatter runs.
///
/// Each day's busy timed rows become spans, sorted by start and swept once,
/// keeping those still running: a span that meets a running one overlaps
/// it. Rows that overlap something carry their span's index
/// (`AgendaRow.overlap`), every other row -1, so the formatters' cost for
/// them is one comparison. What a row overlaps is then read from its day's
/// sorted spans (those that start before it ends and end after it starts),
/// not kept as a list per row: on a dense calendar (a few hundred meetings
/// a day, multi-day ones among them) every row overlaps dozens of others,
/// and lists of them would take gigabytes.
///
/// Busy is `Occurrence.isBusy` and timed: all-day rows neither overlap nor
/// are overlapped. An end equal to another's start is not an overlap.
public final class Overlaps: @unchecked Sendable {
    /// One busy timed row, as seconds since 1970.
    struct Span {
        let start: Int64
        let end: Int64
        /// The row's index in `rows`.
        let row: Int32
        /// The row's item number (`AgendaRow.item`).
        let item: Int32
        /// Its day's spans are `dayStart..<dayEnd` (sorted by start).
        let dayStart: Int32
        let dayEnd: Int32
        /// The rank of its UID among the UIDs of overlapping rows (equal
        /// UIDs share one), or -1 (no UID, or overlaps nothing).
        var uid: Int32
    }

    let spans: [Span]
    /// The agenda's rows (the same storage the sections slice).
    let rows: [AgendaRow]
    /// By item number: a number per distinct title (in title order), for
    /// the items of overlapping rows; -1 for others.
    let titleGroup: [Int32]
    /// UIDs by rank, each escaped as a JSON string, one after another:
    /// rank r is `uidBytes[uidBounds[r]..<uidBounds[r + 1]]`.
    let uidBytes: [UInt8]
    let uidBounds: [Int]
    /// The first listed row of a multi-day occurrence: the spans of all its
    /// rows (JSON lists what it overlaps on any day).
    let spansOfOccurrence: [Int32: [Int32]]
    /// Each day's spans again, in UID order (`uidOrder[dayStart..<dayEnd]`):
    /// a row's UIDs are read off in order, not gathered and sorted.
    let uidOrder: [Int32]
    /// Each day's spans in title order (`titleGroup`), for the marks.
    let titleOrder: [Int32]

    init(
        spans: [Span], rows: [AgendaRow], titleGroup: [Int32], uidBytes: [UInt8], uidBounds: [Int], spansOfOccurrence: [Int32: [Int32]],
        uidOrder: [Int32], titleOrder: [Int32]
    ) {
        self.uidOrder = uidOrder
        self.titleOrder = titleOrder
        self.spans = spans
        self.rows = rows
        self.titleGroup = titleGroup
        self.uidBytes = uidBytes
        self.uidBounds = uidBounds
        self.spansOfOccurrence = spansOfOccurrence
    }

    static let none = Overlaps(spans: [], rows: [], titleGroup: [], uidBytes: [], uidBounds: [0], spansOfOccurrence: [:], uidOrder: [], titleOrder: [])

    /// Finds the overlaps of `rows` (sorted by day, as `AgendaBuilder` sorts
    /// them) and marks each overlapping row with its span.
    static func find(in rows: inout [AgendaRow], itemRanks: [Int32], clock: ZoneClock) -> Overlaps {
        var spans: [Span] = []
        var overlapping: [Bool] = []
        var multiDay: [ObjectIdentifier: [Int32]] = [:]  // an occurrence listed on several days: its rows
        var active: [Int32] = []
        var days: [Range<Int>] = []  // each day's spans
        var index = 0
        while index < rows.count {
            let day = rows[index].sortKey / AgendaRow.dayFactor
            let first = spans.count
            while index < rows.count && rows[index].sortKey / AgendaRow.dayFactor == day {
                let row = rows[index]
                switch row.timing {
                case .starts, .continues, .allDay:
                    row.withOccurrence { o in
                        guard o.isBusy, let start = o.start, !start.isDate else { return }
                        let s = Int64(start.instant(in: clock).timeIntervalSince1970.rounded(.down))
                        let e = max(o.end.map { Int64($0.instant(in: clock).timeIntervalSince1970.rounded(.down)) } ?? s, s)
                        if row.dayCount > 1 { multiDay[ObjectIdentifier(o), default: []].append(Int32(index)) }
                        spans.append(Span(start: s, end: e, row: Int32(index), item: row.item, dayStart: 0, dayEnd: 0, uid: -1))
                    }
                default: break
                }
                index += 1
            }
            let last = spans.count
            if last > first { days.append(first..<last) }
            guard last - first > 1 else {
                if last > first { spans[first] = spans[first].inDay(first, last) }
                overlapping += repeatElement(false, count: last - first)
                continue
            }
            // Sorted by start (`multiDay` knows multi-day spans by their rows).
            spans[first..<last].sort { $0.start != $1.start ? $0.start < $1.start : $0.row < $1.row }
            overlapping += repeatElement(false, count: last - first)
            active.removeAll(keepingCapacity: true)
            for i in first..<last {
                spans[i] = spans[i].inDay(first, last)
                let s = spans[i].start, e = spans[i].end
                active.removeAll { spans[Int($0)].end <= s }
                // A running span overlaps this one when this one lasts, or
                // (a zero-length one) when it began earlier.
                for a in active where e > s || spans[Int(a)].start < s {
                    overlapping[Int(a)] = true
                    overlapping[i] = true
                }
                active.append(Int32(i))
            }
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
            let uid = rows[Int(span.row)].occurrence.uid
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
        var group: Int32 = -1
        var previousTitle: String? = nil
        for (_, item, row) in titled {
            let title = rows[Int(row)].occurrence.title
            if title != previousTitle {
                group += 1
                previousTitle = title
            }
            titleGroup[Int(item)] = group
        }
        var uidOrder = (0..<Int32(spans.count)).map { $0 }
        for day in days where day.count > 1 { uidOrder[day].sort { spans[Int($0)].uid < spans[Int($1)].uid } }
        var titleOrder = uidOrder
        for day in days where day.count > 1 {
            titleOrder[day].sort { titleGroup[Int(spans[Int($0)].item)] < titleGroup[Int(spans[Int($1)].item)] }
        }
        return Overlaps(
            spans: spans, rows: rows, titleGroup: titleGroup, uidBytes: uidBytes, uidBounds: uidBounds, spansOfOccurrence: spansOfOccurrence,
            uidOrder: uidOrder, titleOrder: titleOrder)
    }

    /// The spans of the same day that overlap span `i`: those that start
    /// before it ends and end after it starts (for a zero-length span, those
    /// running at its time that began before it), read from the day's spans
    /// in start order up to its end.
    func others(of i: Int, _ body: (Span) -> Void) {
        let span = spans[i]
        var j = Int(span.dayStart)
        let stop = Int(span.dayEnd)
        while j < stop && spans[j].start < span.end {
            if j != i && spans[j].end > span.start { body(spans[j]) }
            j += 1
        }
        // A zero-length span: what runs at its time and began before it.
        if span.end == span.start {
            j = Int(span.dayStart)
            while j < stop && spans[j].start < span.start {
                if spans[j].end > span.start { body(spans[j]) }
                j += 1
            }
        }
    }

    /// The UID ranks (sorted, unique) of everything the row's occurrence
    /// overlaps, on any day, into `ranks`; how many bytes the JSON array of
    /// them takes.
    func uidRanks(of row: AgendaRow, into ranks: inout [Int32]) -> Int {
        ranks.removeAll(keepingCapacity: true)
        guard row.overlap >= 0 else { return 2 }
        let i = row.overlap
        if let all = spansOfOccurrence[i] {
            for s in all { others(of: Int(s)) { if $0.uid >= 0 { ranks.append($0.uid) } } }
            ranks.sort()
        } else {
            // The day's spans in UID order: what overlaps comes out sorted.
            let span = spans[Int(i)]
            for k in Int(span.dayStart)..<Int(span.dayEnd) {
                let j = Int(uidOrder[k])
                let other = spans[j]
                if other.uid >= 0 && j != Int(i) && other.start < span.end && other.end > span.start { ranks.append(other.uid) }
            }
        }
        var length = 2
        var kept = 0
        for n in ranks.indices where kept == 0 || ranks[n] != ranks[kept - 1] {
            let rank = ranks[n]
            ranks[kept] = rank
            kept += 1
            length += uidBounds[Int(rank) + 1] - uidBounds[Int(rank)] + 1
        }
        ranks.removeLast(ranks.count - kept)
        return length
    }

    /// The row's JSON `overlaps` value, as text.
    public func json(of row: AgendaRow) -> String {
        var ranks: [Int32] = []
        let length = uidRanks(of: row, into: &ranks)
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
        guard row.overlap >= 0 else { return "" }
        // The day's spans in title order: distinct titles are counted as they come.
        let i = Int(row.overlap)
        let span = spans[i]
        var titles: [String] = []
        var distinct = 0
        var previous: Int32 = -1
        for k in Int(span.dayStart)..<Int(span.dayEnd) {
            let j = Int(titleOrder[k])
            let other = spans[j]
            guard j != i && other.start < span.end && other.end > span.start else { continue }
            let group = titleGroup[Int(other.item)]
            if group == previous { continue }
            previous = group
            distinct += 1
            if titles.count < Overlaps.titlesShown { titles.append(Overlaps.oneLine(rows[Int(other.row)].occurrence)) }
        }
        guard distinct > 0 else { return "" }
        let shown = titles.joined(separator: ", ")
        return distinct > titles.count ? "(overlaps \(shown) and \(distinct - titles.count) more)" : "(overlaps \(shown))"
    }

    /// A title as a row shows it: one line, `(no title)` when empty.
    static func oneLine(_ o: Occurrence) -> String {
        let title = o.title
        if title.isEmpty { return "(no title)" }
        guard title.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return title }
        return title.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\r", with: " ")
    }
}

extension Overlaps.Span {
    func inDay(_ start: Int, _ end: Int) -> Overlaps.Span {
        Overlaps.Span(start: self.start, end: self.end, row: row, item: item, dayStart: Int32(start), dayEnd: Int32(end), uid: uid)
    }
}
