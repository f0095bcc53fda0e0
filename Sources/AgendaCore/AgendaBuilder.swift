import Foundation

/// The grouping engine: places occurrences on the days of the window, in the
/// display zone, under the per-day key year·10000 + month·100 + day, and
/// sorts sections and rows into agenda order.
public struct AgendaBuilder: Sendable {
    public let window: AgendaWindow
    public let today: CivilDate
    public let selection: Selection

    public init(window: AgendaWindow, today: CivilDate, selection: Selection) {
        self.window = window
        self.today = today
        self.selection = selection
    }

    public func build(_ occurrences: some Sequence<Occurrence>) -> [AgendaSection] {
        var rows: [AgendaRow] = []
        rows.reserveCapacity(occurrences.underestimatedCount)
        var undated: [AgendaRow] = []
        // Every occurrence of a series shares its Event or Reminder: match the text once per item.
        var textMatches: [ObjectIdentifier: Bool] = [:]
        for occurrence in occurrences where selection.admits(occurrence) {
            if let matcher = selection.text {
                let id = occurrence.itemIdentity
                let matched = textMatches[id] ?? matcher.matches(occurrence)
                textMatches[id] = matched
                if !matched { continue }
            }
            if occurrence.isReminder {
                if let row = placeReminder(occurrence) {
                    if row.day == nil { undated.append(row) } else { rows.append(row) }
                }
            } else {
                placeEvent(occurrence, into: &rows)
            }
        }
        rows.sort(by: AgendaBuilder.agendaOrder)
        undated.sort(by: AgendaBuilder.agendaOrder)

        var sections: [AgendaSection] = []
        var start = 0
        while start < rows.count {
            let key = rows[start].day!.dayKey
            var end = start + 1
            while end < rows.count && rows[end].day!.dayKey == key { end += 1 }
            sections.append(AgendaSection(period: .day(rows[start].day!), rows: rows[start..<end]))
            start = end
        }
        if !undated.isEmpty { sections.append(AgendaSection(period: .undated, rows: undated[...])) }
        return sections
    }

    /// An event goes under every day of the window it touches.
    func placeEvent(_ occurrence: Occurrence, into rows: inout [AgendaRow]) {
        guard let startTime = occurrence.start else { return }
        let clock = window.clock
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
                rows.append(AgendaRow(occurrence: occurrence, day: day, timing: .allDay, isFirstListed: isFirst,
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
        // An end at exactly midnight does not touch the next day.
        let last = e > s ? clock.civilDate(of: e - 1) : first
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
                second = clock.secondsIntoDay(of: s)
            } else if day == last && e < clock.startOfDay(day.adding(days: 1)) {
                timing = .continues(until: e)
            } else {
                timing = .allDay
                rank = 0
            }
            rows.append(AgendaRow(occurrence: occurrence, day: day, timing: timing, isFirstListed: isFirst,
                dayIndex: index, dayCount: count, rank: rank, secondOfDay: second))
            isFirst = false
            day = day.adding(days: 1)
        }
    }

    /// A reminder goes under its due day (start day without DUE); an open one
    /// due before today under today; one without dates in the undated section.
    func placeReminder(_ occurrence: Occurrence) -> AgendaRow? {
        guard let anchor = occurrence.anchor else {
            return AgendaRow(occurrence: occurrence, day: nil, timing: .undated, isFirstListed: true,
                dayIndex: 1, dayCount: 1, rank: 0, secondOfDay: 0)
        }
        let clock = window.clock
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
            second = clock.secondsIntoDay(of: instant)
        }
        var listed = day
        if day < today && !completedOrCancelled(occurrence) {
            listed = today
            timing = .overdue(since: day)
            rank = 0
            second = 0
        }
        guard window.contains(day: listed) else { return nil }
        return AgendaRow(occurrence: occurrence, day: listed, timing: timing, isFirstListed: true,
            dayIndex: 1, dayCount: 1, rank: rank, secondOfDay: second)
    }

    func completedOrCancelled(_ occurrence: Occurrence) -> Bool {
        if case .reminder(let r) = occurrence.item, r.isCompleted { return true }
        return occurrence.isCancelled
    }

    func dayNumber(_ wall: Date) -> Int { Int((wall.timeIntervalSince1970 / 86400).rounded(.down)) }

    /// Day, then all-day rows, then start time, then title; the rest only
    /// makes the order total so that output is deterministic.
    static func agendaOrder(_ a: AgendaRow, _ b: AgendaRow) -> Bool {
        // Day, rank and time in one comparison; strings only on ties.
        if a.sortKey != b.sortKey { return a.sortKey < b.sortKey }
        if a.occurrence.title != b.occurrence.title { return a.occurrence.title < b.occurrence.title }
        if a.occurrence.isReminder != b.occurrence.isReminder { return !a.occurrence.isReminder }
        let ac = a.occurrence.calendar, bc = b.occurrence.calendar
        if ac.name != bc.name { return ac.name < bc.name }
        if ac.path != bc.path { return ac.path < bc.path }
        if a.occurrence.uid != b.occurrence.uid { return a.occurrence.uid < b.occurrence.uid }
        let at = a.occurrence.start?.wall ?? .distantPast, bt = b.occurrence.start?.wall ?? .distantPast
        if at != bt { return at < bt }
        return a.dayIndex < b.dayIndex
    }
}
