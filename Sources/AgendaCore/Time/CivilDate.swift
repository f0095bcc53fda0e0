import Foundation

/// A proleptic Gregorian calendar date, converted to and from days since
/// 1970-01-01 with Howard Hinnant's civil-date algorithms (no Calendar
/// object, no allocation: it runs once per occurrence).
package struct CivilDate: Sendable, Hashable, Comparable {
    // Stored small: every agenda row holds one.
    private let y: Int32
    private let m: UInt8
    private let d: UInt8
    package var year: Int { Int(y) }
    package var month: Int { Int(m) }
    package var day: Int { Int(d) }

    package init(year: Int, month: Int, day: Int) {
        y = Int32(clamping: year)
        m = UInt8(clamping: month)
        d = UInt8(clamping: day)
    }

    /// The date `days` days after 1970-01-01.
    package init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    package var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The grouping key of the list-view apps: year·10000 + month·100 + day.
    package var dayKey: Int { year * 10000 + month * 100 + day }

    package var midnightUTC: Date { Date(timeIntervalSince1970: TimeInterval(daysSinceEpoch) * 86400) }

    package func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// 1 = Sunday ... 7 = Saturday, as Foundation numbers weekdays.
    package var weekday: Int {
        let w = (daysSinceEpoch + 4) % 7  // 1970-01-01 was a Thursday
        return (w < 0 ? w + 7 : w) + 1
    }

    /// `YYYY-MM-DD`.
    package var iso: String {
        let y = year < 0 ? "-" + pad(-year, 4) : pad(year, 4)
        return "\(y)-\(pad(month, 2))-\(pad(day, 2))"
    }

    package static func < (a: CivilDate, b: CivilDate) -> Bool { a.dayKey < b.dayKey }
}

/// `n` in `radix` (lower-case letters), zero-padded to `width` digits.
func pad(_ n: Int, _ width: Int, radix: Int = 10) -> String {
    let s = String(n, radix: radix)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}
