import Foundation

/// A POSIX `TZ` string, as `$TZ` may hold it instead of a zone name:
/// `UTC+3`, `EST5EDT,M3.2.0,M11.1.0`, `CET-1CEST,M3.5.0,M10.5.0/3`,
/// `<+0330>-3:30`. The offset is written WEST of UTC (`UTC+3` is three hours
/// behind UTC, -03:00, as `Etc/GMT+3`); a daylight name without rules
/// changes on the US rules (`M3.2.0,M11.1.0`), as glibc does.
package struct POSIXTimeZone: Sendable, Equatable {
    /// Seconds east of UTC in standard time, and in daylight time (nil: none).
    package let standardOffset: Int
    package let daylightOffset: Int?
    /// When daylight time starts and ends, each in the local time then in force.
    let start: Transition?
    let end: Transition?

    struct Transition: Sendable, Equatable {
        enum Day: Sendable, Equatable {
            /// `Jn`: day 1 to 365, February 29 never counted.
            case julian(Int)
            /// `n`: day 0 to 365, February 29 counted.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday d (0 Sunday) of week w (5 the last) of month m.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }
        let day: Day
        /// Seconds after local midnight (may be negative or past a day, -167 to 167 hours).
        let time: Int
    }

    /// Reads a TZ string; nil when it is not one.
    package init?(_ text: String) {
        var s = Substring(text)
        guard let std = POSIXTimeZone.name(&s), std.count >= 3,
            let stdWest = POSIXTimeZone.offset(&s, maxHours: 24) else {
            return nil
        }
        standardOffset = -stdWest
        if s.isEmpty {
            daylightOffset = nil
            start = nil
            end = nil
            return
        }
        guard let dst = POSIXTimeZone.name(&s), dst.count >= 3 else { return nil }
        if let first = s.first, first != "," {
            guard let dstWest = POSIXTimeZone.offset(&s, maxHours: 24) else { return nil }
            daylightOffset = -dstWest
        } else {
            daylightOffset = standardOffset + 3600
        }
        if s.isEmpty { s = ",M3.2.0,M11.1.0" }
        guard s.popFirst() == ",", let start = POSIXTimeZone.transition(&s), s.popFirst() == ",",
            let end = POSIXTimeZone.transition(&s), s.isEmpty
        else { return nil }
        self.start = start
        self.end = end
    }

    private static func name(_ s: inout Substring) -> Substring? {
        if s.first == "<" {
            guard let close = s.firstIndex(of: ">") else { return nil }
            let name = s[s.index(after: s.startIndex)..<close]
            guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-") }) else {
                return nil
            }
            s = s[s.index(after: close)...]
            return name.count >= 3 ? name : nil
        }
        let name = s.prefix { $0.isASCII && $0.isLetter }
        s = s.dropFirst(name.count)
        return name
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, as written (west of UTC for an offset).
    private static func offset(_ s: inout Substring, maxHours: Int) -> Int? {
        var sign = 1
        if s.first == "+" || s.first == "-" { sign = s.popFirst() == "-" ? -1 : 1 }
        var parts: [Int] = []
        while parts.count < 3 {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= (parts.isEmpty ? 3 : 2), let n = Int(digits) else { return nil }
            s = s.dropFirst(digits.count)
            parts.append(n)
            guard s.first == ":" else { break }
            s = s.dropFirst()
        }
        guard parts[0] <= maxHours, parts.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let seconds = parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
        return sign * seconds
    }

    private static func transition(_ s: inout Substring) -> Transition? {
        let day: Transition.Day
        func number() -> Int? {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 3 else { return nil }
            s = s.dropFirst(digits.count)
            return Int(digits)
        }
        if s.first == "J" {
            s = s.dropFirst()
            guard let n = number(), (1...365).contains(n) else { return nil }
            day = .julian(n)
        } else if s.first == "M" {
            s = s.dropFirst()
            guard let m = number(), (1...12).contains(m), s.popFirst() == ".", let w = number(), (1...5).contains(w),
                s.popFirst() == ".", let d = number(), (0...6).contains(d)
            else { return nil }
            day = .monthWeekDay(month: m, week: w, weekday: d)
        } else {
            guard let n = number(), (0...365).contains(n) else { return nil }
            day = .zeroBased(n)
        }
        var time = 7200
        if s.first == "/" {
            s = s.dropFirst()
            guard let t = offset(&s, maxHours: 167) else { return nil }
            time = t
        }
        return Transition(day: day, time: time)
    }

    /// Seconds east of UTC at an instant.
    package func offset(at instant: Date) -> Int {
        guard let daylight = daylightOffset, let start, let end else { return standardOffset }
        let t = Int64(instant.timeIntervalSince1970.rounded(.down))
        let year = CivilDate(daysSinceEpoch: Int((Double(t) / 86400).rounded(.down))).year
        // The year's changes as instants; one either side covers a change
        // that the local reading puts into the neighbouring UTC year.
        var inDaylight = false
        var latest = Int64.min
        for y in [year - 1, year, year + 1] {
            let on = changeInstant(of: start, year: y, offsetBefore: standardOffset)
            let off = changeInstant(of: end, year: y, offsetBefore: daylight)
            if on <= t && on > latest { (latest, inDaylight) = (on, true) }
            if off <= t && off > latest { (latest, inDaylight) = (off, false) }
        }
        return inDaylight ? daylight : standardOffset
    }

    /// The first change of offset after an instant (within three years), if any.
    func nextTransition(after instant: Date) -> Date? {
        guard let daylight = daylightOffset, let start, let end else { return nil }
        let t = Int64(instant.timeIntervalSince1970.rounded(.down))
        let year = CivilDate(daysSinceEpoch: Int((Double(t) / 86400).rounded(.down))).year
        var best: Int64? = nil
        for y in [year - 1, year, year + 1, year + 2] {
            for change in [changeInstant(of: start, year: y, offsetBefore: standardOffset),
                changeInstant(of: end, year: y, offsetBefore: daylight)]
            where change > t && (best == nil || change < best!) {
                best = change
            }
        }
        return best.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    private func changeInstant(of transition: Transition, year: Int, offsetBefore: Int) -> Int64 {
        let day: CivilDate
        switch transition.day {
        case .julian(let n):
            // Day n of a 365-day year: February 29 is skipped.
            let jan1 = CivilDate(year: year, month: 1, day: 1)
            let leap = CivilDate.daysIn(year: year, month: 2) == 29
            day = jan1.adding(days: n - 1 + (leap && n >= 60 ? 1 : 0))
        case .zeroBased(let n):
            day = CivilDate(year: year, month: 1, day: 1).adding(days: n)
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilDate(year: year, month: month, day: 1)
            // CivilDate.weekday: 1 Sunday ... 7 Saturday.
            var d = 1 + (weekday - (first.weekday - 1) + 7) % 7 + (week - 1) * 7
            let length = CivilDate.daysIn(year: year, month: month)
            while d > length { d -= 7 }
            day = CivilDate(year: year, month: month, day: d)
        }
        return Int64(day.daysSinceEpoch) * 86400 + Int64(transition.time) - Int64(offsetBefore)
    }
}
