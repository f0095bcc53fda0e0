import Foundation

/// The days an agenda covers, in the display zone: `firstDay` up to, not
/// including, `endDay`.
package struct AgendaWindow: Sendable {
    package let firstDay: CivilDate
    package let endDay: CivilDate
    package let clock: ZoneClock
    /// 00:00 of `firstDay` in the display zone.
    package let start: Date
    /// 00:00 of `endDay` in the display zone (exclusive).
    package let end: Date

    package init(firstDay: CivilDate, endDay: CivilDate, clock: ZoneClock) {
        self.firstDay = firstDay
        self.endDay = max(endDay, firstDay)
        self.clock = clock
        self.start = clock.startOfDay(firstDay)
        self.end = clock.startOfDay(self.endDay)
    }

    /// From one instant to another (`next`'s now ..< now + within): the
    /// days are those the span touches, but only the span is read and listed.
    package init(from start: Date, to end: Date, clock: ZoneClock) {
        firstDay = clock.civilDate(of: start)
        endDay = max(clock.civilDate(of: max(end, start + 1) - 1).adding(days: 1), firstDay.adding(days: 1))
        self.clock = clock
        self.start = start
        self.end = max(end, start)
    }

    /// The window from the earliest start of `windows` to the latest end; nil for none.
    package static func spanning(_ windows: [AgendaWindow]) -> AgendaWindow? {
        guard let first = windows.first else { return nil }
        guard windows.count > 1 else { return first }
        return AgendaWindow(from: windows.map(\.start).min()!, to: windows.map(\.end).max()!, clock: first.clock)
    }

    /// From the start of `firstDay` to the same date one calendar year later
    /// (2028-02-29 + 1 year is 2029-02-28), end exclusive.
    package static func oneYear(from firstDay: CivilDate, clock: ZoneClock) -> AgendaWindow {
        AgendaWindow(firstDay: firstDay, endDay: firstDay.addingCalendarYears(1), clock: clock)
    }

    /// `days` days starting with `firstDay` (`days: 1` is that one day), at
    /// most `maxDays` (the command line refuses more; no count can overflow here).
    package static func days(_ days: Int, from firstDay: CivilDate, clock: ZoneClock) -> AgendaWindow {
        AgendaWindow(firstDay: firstDay, endDay: firstDay.adding(days: min(max(days, 0), maxDays)), clock: clock)
    }

    /// 10,000 years of days: more than any window of years 1 to 9999.
    package static let maxDays = 3_652_425

    /// `firstDay` through `lastDay`, both included.
    package static func through(_ lastDay: CivilDate, from firstDay: CivilDate, clock: ZoneClock) -> AgendaWindow {
        AgendaWindow(firstDay: firstDay, endDay: lastDay.adding(days: 1), clock: clock)
    }

    package func contains(day: CivilDate) -> Bool { day >= firstDay && day < endDay }

    /// Whether a span of time touches the window. A zero-length span (a
    /// date-time event without end) touches it when it starts inside.
    package func intersects(start s: Date, end e: Date) -> Bool {
        if e > s { return s < end && e > start }
        return s >= start && s < end
    }
}

extension CivilDate {
    package static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Calendar arithmetic on years: the same month and day, clamped to the
    /// month's length (Feb 29 becomes Feb 28 in a common year).
    func addingCalendarYears(_ years: Int) -> CivilDate {
        let y = year + years
        return CivilDate(year: y, month: month, day: min(day, CivilDate.daysIn(year: y, month: month)))
    }
}
