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
        package let year: Int
        package let month: Int
        /// Weeks of seven days.
        package let weeks: [[Day]]
    }

    package let months: [Month]

    /// The days a month grid shows: whole weeks from the one holding the
    /// first of `year`-`month` (starting on `firstWeekday`, 1 = Sunday) to the one holding its last day.
    package static func days(year: Int, month: Int, firstWeekday: Int) -> [CivilDate] {
        let first = CivilDate(year: year, month: month, day: 1)
        let start = first.adding(days: -((first.weekday - firstWeekday + 7) % 7))
        let last = first.adding(days: CivilDate.daysIn(year: year, month: month) - 1)
        let end = last.adding(days: 7 - (last.weekday - firstWeekday + 7) % 7)
        return (0..<(end.daysSinceEpoch - start.daysSinceEpoch)).map { start.adding(days: $0) }
    }

    /// - Parameter months: (year, month) of each month shown, in order.
    package init(sections: [AgendaSection], months: [(year: Int, month: Int)], firstWeekday: Int, wording: RowWording) {
        var items: [CivilDate: [GridItem]] = [:]
        for section in sections {
            guard let day = section.day else { continue }
            items[day] = section.rows.map { row in
                let occurrence = section.occurrences[row]
                let time: String? =
                    switch row.timing {
                    case .starts(let t): wording.formats.shortTime(t)
                    case .due(let t?): wording.formats.shortTime(t)
                    default: nil
                    }
                return GridItem(row, occurrence, wording: wording, time: time)
            }
        }
        self.months = months.map { m in
            let days = MonthLayout.days(year: m.year, month: m.month, firstWeekday: firstWeekday).map {
                Day(date: $0, inMonth: $0.month == m.month, items: items[$0] ?? [])
            }
            return Month(year: m.year, month: m.month, weeks: stride(from: 0, to: days.count, by: 7).map { Array(days[$0..<$0 + 7]) })
        }
    }
}
