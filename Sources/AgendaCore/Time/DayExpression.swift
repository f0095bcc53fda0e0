/// A day as the command line names it: `YYYY-MM-DD`, `today`, `tomorrow`,
/// `yesterday`, `+Nd` or `-Nd` (relative to today), a weekday's name
/// (`monday` or `mon`: the next one, today if today is one), or a span's
/// word, `this week`, `next week`, `this month`, `next month`: its first day
/// where the day begins the days shown (`--from`), its last where it ends
/// them (`--to`), so that `--from monday --to 'next week'` runs through the
/// end of next week.
package enum DayExpression {
    /// Which end of the days shown the day is: a span's word names its first
    /// day as the first, its last as the last.
    package enum End: Sendable {
        case first, last
    }

    package struct Invalid: Error, CustomStringConvertible {
        package let text: String
        /// Why a date of the right shape does not exist (`November has 30 days`).
        package var reason: String? = nil
        package var description: String {
            if let reason { return "\"\(text)\" is not a day: \(reason)" }
            return "cannot read \"\(text)\" as a day: use YYYY-MM-DD, today, tomorrow, yesterday, +Nd or -Nd "
                + "(N under 1000000), a weekday (monday: the next one), this week, next week, this month or next month"
        }
    }

    /// Weekday names and their common short forms, 1 = Sunday ... 7 = Saturday.
    static let weekdays: [String: Int] = [
        "sunday": 1, "sun": 1, "monday": 2, "mon": 2, "tuesday": 3, "tue": 3, "tues": 3, "wednesday": 4, "wed": 4,
        "thursday": 5, "thu": 5, "thur": 5, "thurs": 5, "friday": 6, "fri": 6, "saturday": 7, "sat": 7,
    ]

    /// - Parameter firstWeekday: the week's first day (1 = Sunday ... 7 =
    ///   Saturday, as the locale has it), for `this week` and `next week`.
    /// - Parameter end: which end of the days shown `text` gives.
    package static func resolve(_ text: String, today: CivilDate, firstWeekday: Int = 2, end: End = .first) throws
        -> CivilDate {
        let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" })
            .joined(separator: " ")
        let weekStart = today.adding(days: -((today.weekday - firstWeekday + 7) % 7))
        let monthStart = CivilDate(year: today.year, month: today.month, day: 1)
        let nextMonthStart = monthStart.adding(days: CivilDate.daysIn(year: today.year, month: today.month))
        switch words {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        case "this week": return end == .first ? weekStart : weekStart.adding(days: 6)
        case "next week": return weekStart.adding(days: end == .first ? 7 : 13)
        case "this month": return end == .first ? monthStart : nextMonthStart.adding(days: -1)
        case "next month":
            guard end == .last else { return nextMonthStart }
            return nextMonthStart.adding(days: CivilDate.daysIn(year: nextMonthStart.year,
                month: nextMonthStart.month) - 1)
        default: break
        }
        if let weekday = weekdays[words] { return today.adding(days: (weekday - today.weekday + 7) % 7) }
        if let sign = text.first, sign == "+" || sign == "-", text.last == "d" || text.last == "D",
            text.dropFirst().dropLast().allSatisfy({ $0.isASCII && $0.isNumber }),
            let n = Int(text.dropFirst().dropLast()), n < 1_000_000
        {
            return today.adding(days: sign == "+" ? n : -n)
        }
        if let date = CivilDate(iso: text) { return date }
        throw Invalid(text: text, reason: CivilDate.isoProblem(text))
    }
}

extension CivilDate {
    /// Reads `YYYY-MM-DD`, rejecting dates that do not exist (2025-02-30).
    package init?(iso text: String) {
        guard let (y, m, d) = CivilDate.isoFields(text), (1...12).contains(m), d >= 1,
            d <= CivilDate.daysIn(year: y, month: m) else {
            return nil
        }
        self.init(year: y, month: m, day: d)
    }

    /// The numbers of text shaped `YYYY-MM-DD`, whatever they are.
    static func isoFields(_ text: String) -> (Int, Int, Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        return (y, m, d)
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October",
        "November", "December"]

    /// Why text shaped `YYYY-MM-DD` names no day (`November has 30 days`);
    /// nil for a real day, or text of another shape.
    static func isoProblem(_ text: String) -> String? {
        guard let (y, m, d) = isoFields(text) else { return nil }
        guard (1...12).contains(m) else { return "a year has 12 months, not \(m)" }
        let days = daysIn(year: y, month: m)
        if d == 0 { return "days are numbered from 1" }
        guard d > days else { return nil }
        let name = monthNames[m - 1]
        return m == 2 ? "February \(y) has \(days) days" : "\(name) has \(days) days"
    }
}
