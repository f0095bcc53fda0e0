/// A day as the command line names it: `YYYY-MM-DD`, `today`, `tomorrow`,
/// `yesterday`, `+Nd` or `-Nd` (relative to today).
package enum DayExpression {
    package struct Invalid: Error, CustomStringConvertible {
        package let text: String
        package var description: String {
            "cannot read \"\(text)\" as a day: use YYYY-MM-DD, today, tomorrow, yesterday, +Nd or -Nd (N under 1000000)"
        }
    }

    package static func resolve(_ text: String, today: CivilDate) throws -> CivilDate {
        switch text.lowercased() {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        default: break
        }
        if let sign = text.first, sign == "+" || sign == "-", text.last == "d" || text.last == "D",
            text.dropFirst().dropLast().allSatisfy({ $0.isASCII && $0.isNumber }),
            let n = Int(text.dropFirst().dropLast()), n < 1_000_000
        {
            return today.adding(days: sign == "+" ? n : -n)
        }
        if let date = CivilDate(iso: text) { return date }
        throw Invalid(text: text)
    }
}

extension CivilDate {
    /// Reads `YYYY-MM-DD`, rejecting dates that do not exist (2025-02-30).
    package init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            (1...12).contains(m), d >= 1, d <= CivilDate.daysIn(year: y, month: m)
        else { return nil }
        self.init(year: y, month: m, day: d)
    }
}
