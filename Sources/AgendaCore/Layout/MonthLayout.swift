import Foundation

/// The month calendar's content (`ics-agenda month`): each month as weeks
/// of seven days from the first weekday, and each day's items in the
/// agenda's order (overdue reminders, all day, then by time). Days of the
/// weeks that belong to the month before or after are kept with their
/// items, marked as outside.
package struct MonthLayout: Sendable {
    package struct Day: Sendable {
        package let date: CivilDate
        package let inMonth: Bool
        package let items: [GridItem]
    }

    package struct Month: Sendable {
        /// Its first and last day: a month of the locale's calendar (Persian, Hebrew, ...) as of the Gregorian.
        package let first: CivilDate
        package let last: CivilDate
        /// Weeks of seven days.
        package let weeks: [[Day]]
    }

    package let months: [Month]
    /// The weekday each week starts on (1 = Sunday).
    package let firstWeekday: Int

    /// The months of `calendar` (the locale's) from the one holding `day`:
    /// each one's first and last day.
    package static func months(_ count: Int, from day: CivilDate,
        calendar: Calendar) -> [(first: CivilDate, last: CivilDate)] {
        var months: [(first: CivilDate, last: CivilDate)] = []
        var date = day.midnightUTC
        for _ in 0..<count {
            guard let interval = calendar.dateInterval(of: .month, for: date) else { break }
            let first = CivilDate(daysSinceEpoch: Int((interval.start.timeIntervalSince1970 / 86400).rounded()))
            let end = CivilDate(daysSinceEpoch: Int((interval.end.timeIntervalSince1970 / 86400).rounded()))
            months.append((first, end.adding(days: -1)))
            date = end.midnightUTC
        }
        return months
    }

    /// The days a month grid shows: whole weeks from the one holding
    /// `first` (starting on `firstWeekday`, 1 = Sunday) to the one holding `last`.
    package static func days(first: CivilDate, last: CivilDate, firstWeekday: Int) -> [CivilDate] {
        let start = first.adding(days: -((first.weekday - firstWeekday + 7) % 7))
        let end = last.adding(days: 7 - (last.weekday - firstWeekday + 7) % 7)
        return (0..<(end.daysSinceEpoch - start.daysSinceEpoch)).map { start.adding(days: $0) }
    }

    /// - Parameter months: the first and last day of each month shown, in order.
    package init(
        sections: [AgendaSection], months: [(first: CivilDate, last: CivilDate)], firstWeekday: Int
    ) {
        self.firstWeekday = firstWeekday
        var items: [CivilDate: [GridItem]] = [:]
        for section in sections {
            guard let day = section.day else { continue }
            items[day] = section.rows.map { row in
                let occurrence = section.occurrences[row]
                let time: Date? =
                    switch row.timing {
                    case .starts(let t): t
                    case .due(let t?): t
                    default: nil
                    }
                return GridItem(row: row, occurrence: occurrence, time: time)
            }
        }
        self.months = months.map { m in
            let days = MonthLayout.days(first: m.first, last: m.last, firstWeekday: firstWeekday).map {
                Day(date: $0, inMonth: m.first <= $0 && $0 <= m.last, items: items[$0] ?? [])
            }
            return Month(first: m.first, last: m.last, weeks: stride(from: 0, to: days.count, by: 7)
                .map { Array(days[$0..<$0 + 7]) })
        }
    }
}
