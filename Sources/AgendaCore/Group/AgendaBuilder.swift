import Foundation

/// The grouping engine: places occurrences on the days of the window, in the
/// display zone, under the per-day key year·10000 + month·100 + day, and
/// sorts sections and rows into agenda order.
package struct AgendaBuilder: Sendable {
    package let window: AgendaWindow
    package let today: CivilDate
    package let selection: Selection

    package init(window: AgendaWindow, today: CivilDate, selection: Selection) {
        self.window = window
        self.today = today
        self.selection = selection
    }

    package func build(_ occurrences: [Occurrence], threads: Int = 1) -> [AgendaSection] {
        build(parts: [occurrences], threads: threads)
    }

    /// - Parameters:
    ///   - parts: the occurrences, one array per calendar, in input order.
    ///   - threads: how many threads place and sort rows. Each takes a
    ///     contiguous stretch of the occurrences (at least `stretchesFrom`
    ///     stretches when there are several threads) and sorts its own rows; the
    ///     sorted runs are merged, earlier stretch first on ties, which is
    ///     the order one stable sort of everything gives: the agenda is the
    ///     same whatever the number.
    package func build(parts: [[Occurrence]], threads: Int = 1) -> [AgendaSection] {
        let total = parts.reduce(0) { $0 + $1.count }
        let workers = total >= AgendaBuilder.parallelFrom ? max(1, threads) : 1
        // Stretches, each placed and sorted by one thread: at least
        // `stretchesFrom` when several threads work, so that the run being
        // merged into the first (which has room for all) is a small part of
        // the rows: rows are held once and an eighth more, not a half.
        let stretches = workers == 1 ? 1 : max(workers, AgendaBuilder.stretchesFrom)
        let occurrences = AgendaOccurrences(parts)
        var runs = [PlacedRows](repeating: PlacedRows(), count: stretches)
        let (rows, dayRows, undated, overlaps) = runs.withUnsafeMutableBufferPointer { runs in
            let shared = SharedRuns(runs: runs)
            func inParallel(_ work: @escaping @Sendable (Int) -> Void) {
                if stretches == 1 {
                    work(0)
                } else {
                    DispatchQueue.concurrentPerform(iterations: stretches, execute: work)
                }
            }
            // Each worker places its stretch, numbering the items it meets
            // from 0; the items are ranked once, all together, and numbered
            // across the workers (each worker's after the previous one's);
            // each worker then renumbers its rows' items and sorts them.
            inParallel { w in
                shared.runs[w] = self.place(parts, from: total * w / stretches, to: total * (w + 1) / stretches,
                    room: w == 0 ? total : 0)
            }
            let ranks = ItemRanks.ranks(of: runs.map(\.sortedItems)).joined()
            let table = ItemTable(ranks: Array(ranks))
            var first: [Int32] = [0]
            for run in runs.dropLast() { first.append(first.last! + Int32(run.sortedItems.count)) }
            inParallel { [first] w in shared.runs[w].sort(firstItem: first[w], ranks: table, occurrences: occurrences) }
            // The first run's array has room for every run's rows (`place`):
            // each next run is merged into it from the back, so that the rows
            // are held once and a run more, not twice.
            var rows = runs[0].rows, undated = runs[0].undated
            runs[0] = PlacedRows()
            // Room for every row (multi-day occurrences may pass the room
            // reserved for occurrences): grown once here, while it holds a stretch's rows, not doubled later.
            rows.reserveCapacity(rows.count + runs.dropFirst().reduce(0) { $0 + $1.rows.count })
            for w in 1..<stretches {
                let run = runs[w]
                runs[w] = PlacedRows()  // each run's memory goes once merged
                AgendaBuilder.merge(run.rows, into: &rows, ranks: table, occurrences: occurrences)
                AgendaBuilder.merge(run.undated, into: &undated, ranks: table, occurrences: occurrences)
            }
            AgendaBuilder.keepLatestOverdue(&rows, occurrences: occurrences)
            // Before any formatter: each asks a row for its overlaps many times, on several threads.
            let dayRows = AgendaBuilder.days(of: rows)
            let overlaps = Overlaps.find(in: &rows, days: dayRows, occurrences: occurrences, itemRanks: table.ranks,
                clock: window.clock, threads: workers)
            return (rows, dayRows, undated, overlaps)
        }

        var sections = dayRows.map { day in
            AgendaSection(period: .day(rows[day.lowerBound].day!), rows: rows[day], occurrences: occurrences,
                overlaps: overlaps)
        }
        if !undated.isEmpty {
            sections.append(AgendaSection(period: .undated, rows: undated[...], occurrences: occurrences))
        }
        return sections
    }

    /// Each day's rows of `rows` (sorted by day): consecutive ranges.
    static func days(of rows: [AgendaRow]) -> [Range<Int>] {
        var days: [Range<Int>] = []
        var start = 0
        while start < rows.count {
            let key = rows[start].sortDay
            var end = start + 1
            while end < rows.count && rows[end].sortDay == key { end += 1 }
            days.append(start..<end)
            start = end
        }
        return days
    }

    /// Of the overdue instances of one recurring reminder (its UID in its
    /// calendar; a reminder without UID is a series of its own), only the
    /// latest is listed: a weekly chore missed three times is one thing to
    /// do today, not three.
    static func keepLatestOverdue(_ rows: inout [AgendaRow], occurrences: AgendaOccurrences) {
        struct Series: Hashable {
            let calendar: String
            let uid: String
            let item: ObjectIdentifier?
        }
        var latest: [Series: (index: Int, since: CivilDate, start: Date)] = [:]
        var dropped: [Int] = []
        for index in rows.indices {
            guard case .overdue(let since) = rows[index].timing else { continue }
            let occurrence = occurrences[rows[index]]
            let uid = occurrence.uid
            let series = Series(calendar: occurrence.calendar.path, uid: uid,
                item: uid.isEmpty ? occurrence.itemIdentity : nil)
            let start = occurrence.anchor?.wall ?? .distantPast
            if let kept = latest[series] {
                if (since, start) > (kept.since, kept.start) {
                    dropped.append(kept.index)
                    latest[series] = (index, since, start)
                } else {
                    dropped.append(index)
                }
            } else {
                latest[series] = (index, since, start)
            }
        }
        guard !dropped.isEmpty else { return }
        // In place: a second array of every row would be the agenda's peak.
        dropped.sort()
        var kept = dropped[0], next = 0
        for index in dropped[0]..<rows.count {
            if next < dropped.count && dropped[next] == index {
                next += 1
                continue
            }
            rows[kept] = rows[index]
            kept += 1
        }
        rows.removeLast(rows.count - kept)
    }

    /// Below this many occurrences one thread is quicker than starting more.
    static let parallelFrom = 4096
    /// How many stretches the occurrences are placed in, at least, when several threads place them.
    static let stretchesFrom = 8

    /// The rows of occurrences `from..<to` of the parts read as one
    /// sequence, in that order, and the items they show (`PlacedRows`).
    /// - Parameter room: reserve room for the rows of this many occurrences
    ///   when more than `to - from` (the first run, which the others are merged into).
    func place(_ parts: [[Occurrence]], from: Int, to: Int, room: Int = 0) -> PlacedRows {
        var placed = PlacedRows()
        // A row an occurrence, and a few more for those that span days: an
        // array that doubles when full would hold up to twice the rows.
        let expected = max(to - from, room)
        placed.rows.reserveCapacity(expected + expected / 16 + 16)
        // Every occurrence of a series shares its Event or Reminder: match
        // the text once per item, and number it once per series.
        var textMatches: [ObjectIdentifier: Bool] = [:]
        // Copied once: each copy counts a reference to the zone's tables,
        // which every placing thread shares.
        let clock = window.clock
        var numbers: [ObjectIdentifier: Int32] = [:]
        var items: [Occurrence] = []  // one occurrence of each item, by its number
        var previous: ObjectIdentifier? = nil
        var number: Int32 = 0
        var offset = 0
        for (p, part) in parts.enumerated() {
            defer { offset += part.count }
            let lower = max(from - offset, 0), upper = min(to - offset, part.count)
            guard lower < upper else { continue }
            for position in lower..<upper {
                let occurrence = part[position]
                guard selection.admits(occurrence) else { continue }
                let source = AgendaOccurrences.Index(part: Int32(p), position: Int32(position))
                let item = occurrence.itemIdentity
                if let matcher = selection.text {
                    let matched = textMatches[item] ?? matcher.matches(occurrence)
                    textMatches[item] = matched
                    if !matched { continue }
                }
                if item != previous {
                    previous = item
                    if let known = numbers[item] {
                        number = known
                    } else {
                        number = Int32(items.count)
                        numbers[item] = number
                        items.append(occurrence)
                    }
                }
                switch occurrence.kind {
                case .event:
                    placeEvent(occurrence, source, item: number, clock: clock, into: &placed.rows)
                case .reminder:
                    if let row = placeReminder(occurrence, source, item: number, clock: clock) {
                        if row.day == nil { placed.undated.append(row) } else { placed.rows.append(row) }
                    }
                }
            }
        }
        placed.sortedItems = ItemRanks.SortedItems(items)
        return placed
    }

    /// An event goes under every day of the window it touches.
    func placeEvent(_ occurrence: Occurrence, _ source: AgendaOccurrences.Index, item: Int32, clock: ZoneClock,
        into rows: inout [AgendaRow]) {
        guard let startTime = occurrence.start else { return }
        let endTime = occurrence.end ?? startTime
        if startTime.isDate {
            let first = CivilDate(daysSinceEpoch: dayNumber(startTime.wall))
            var last = CivilDate(daysSinceEpoch: dayNumber(endTime.wall) - 1)
            if last < first { last = first }
            let count = last.daysSinceEpoch - first.daysSinceEpoch + 1
            var day = max(first, window.firstDay)
            let stop = min(last, window.endDay.adding(days: -1))
            var isFirst = true
            while day <= stop {
                AgendaBuilder.growing(&rows)
                rows.append(AgendaRow(source: source, item: item, day: day, timing: .allDay, isFirstListed: isFirst,
                    dayIndex: day.daysSinceEpoch - first.daysSinceEpoch + 1, dayCount: count, rank: 0, secondOfDay: 0))
                isFirst = false
                day = day.adding(days: 1)
            }
            return
        }
        let s = startTime.instant(in: clock)
        let e = max(endTime.instant(in: clock), s)
        guard window.intersects(start: s, end: e) else { return }
        let first = clock.civilDate(of: s)
        // An end at midnight does not touch the next day, nor one less than a
        // minute after it (00:00:02): agendas show minutes, and "until 12:00 AM"
        // on a day of its own would be a day it does not really take.
        let last = e > s ? max(first, clock.civilDate(of: e - 60)) : first
        let count = last.daysSinceEpoch - first.daysSinceEpoch + 1
        var day = max(first, window.firstDay)
        let stop = min(last, window.endDay.adding(days: -1))
        var isFirst = true
        while day <= stop {
            let index = day.daysSinceEpoch - first.daysSinceEpoch + 1
            let timing: AgendaRow.Timing
            var rank = 1
            var second = 0
            if day == first {
                timing = .starts(s)
                second = clock.elapsedSecondsIntoDay(of: s)
            } else if day == last && e < clock.startOfDay(day.adding(days: 1)) {
                timing = .continues(until: e)
            } else {
                timing = .allDay
                rank = 0
            }
            AgendaBuilder.growing(&rows)
            rows.append(AgendaRow(source: source, item: item, day: day, timing: timing, isFirstListed: isFirst,
                dayIndex: index, dayCount: count, rank: rank, secondOfDay: second))
            isFirst = false
            day = day.adding(days: 1)
        }
    }

    /// Room for one more row: a quarter more when full, not twice as much.
    @inline(__always)
    static func growing(_ rows: inout [AgendaRow]) {
        if rows.count == rows.capacity { rows.reserveCapacity(rows.count + rows.count / 4 + 16) }
    }

    /// A reminder goes under its due day (start day without DUE); an open one
    /// due before today under today; one without dates in the undated
    /// section, when the window holds today: like an overdue one, it is to
    /// do now, and an agenda of other days (`--from tomorrow` from cron)
    /// does not list it every day.
    func placeReminder(_ occurrence: Occurrence, _ source: AgendaOccurrences.Index, item: Int32,
        clock: ZoneClock) -> AgendaRow? {
        guard let anchor = occurrence.anchor else {
            guard window.contains(day: today) else { return nil }
            return AgendaRow(source: source, item: item, day: nil, timing: .undated, isFirstListed: true,
                dayIndex: 1, dayCount: 1, rank: 0, secondOfDay: 0)
        }
        let isDue = occurrence.due != nil
        let day: CivilDate
        var timing: AgendaRow.Timing
        var rank = 0
        var second = 0
        if anchor.isDate {
            day = CivilDate(daysSinceEpoch: dayNumber(anchor.wall))
            timing = isDue ? .due(nil) : .allDay
        } else {
            let instant = anchor.instant(in: clock)
            day = clock.civilDate(of: instant)
            timing = isDue ? .due(instant) : .starts(instant)
            rank = 1
            second = clock.elapsedSecondsIntoDay(of: instant)
        }
        var listed = day
        if day < today && !completedOrCancelled(occurrence) {
            listed = today
            timing = .overdue(since: day)
            rank = 0
            second = 0
        }
        guard window.contains(day: listed) else { return nil }
        return AgendaRow(source: source, item: item, day: listed, timing: timing, isFirstListed: true,
            dayIndex: 1, dayCount: 1, rank: rank, secondOfDay: second)
    }

    func completedOrCancelled(_ occurrence: Occurrence) -> Bool {
        if case .reminder(let r) = occurrence.item, r.isCompleted { return true }
        return occurrence.isCancelled
    }

    func dayNumber(_ wall: Date) -> Int { Int((wall.timeIntervalSince1970 / 86400).rounded(.down)) }
}

/// One thread's rows: dated ones and undated reminders.
struct PlacedRows: Sendable {
    var rows: [AgendaRow] = []
    var undated: [AgendaRow] = []
    /// The items the rows show, in agenda order, for `ItemRanks.ranks`;
    /// until `sort`, a row's `item` is its item's number among these
    /// (numbered in the order they were met).
    var sortedItems = ItemRanks.SortedItems([])

    /// Numbers the rows' items from `firstItem` on, as in `ranks`, and sorts both lists.
    mutating func sort(firstItem: Int32, ranks: ItemTable, occurrences: AgendaOccurrences) {
        for i in rows.indices { rows[i].item += firstItem }
        for i in undated.indices { undated[i].item += firstItem }
        AgendaBuilder.sort(&rows, ranks: ranks, occurrences: occurrences)
        AgendaBuilder.sort(&undated, ranks: ranks, occurrences: occurrences)
        sortedItems = ItemRanks.SortedItems([])
    }
}

/// The rank of every item of an agenda, by its number (`AgendaRow.item`).
struct ItemTable: Sendable {
    let ranks: [Int32]
}

/// Each placing thread writes only its own slot.
private struct SharedRuns: @unchecked Sendable {
    let runs: UnsafeMutableBufferPointer<PlacedRows>
}
