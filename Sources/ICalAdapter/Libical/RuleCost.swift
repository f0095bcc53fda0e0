import Foundation
import Synchronization

/// Bounds on the work one component's recurrence may cost, so that no rule
/// can stop the run: what a rule would cost libical is judged before it is
/// asked, and the walk itself is cut after a number of steps or a time.
///
/// libical 3.0's `icalrecur_iterator_next` steps through candidate times
/// (every second of `FREQ=SECONDLY`, every minute of `MINUTELY`, ...) and
/// tests each against the BYxxx parts that limit the set; it gives up only
/// in the year 2582. A rule that limits a fine frequency to rare or
/// impossible days (`FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30`) therefore
/// spins for hours inside one call, where no cap of ours can stop it.
/// `RuleCost.assess` finds such rules first.
enum RuleCost {
    enum Verdict: Equatable {
        /// Walk it; each instance libical returns costs about `perStep`
        /// candidates (what `ExpansionBudget` counts).
        case walk(perStep: Double)
        /// No date passes the rule's BYxxx parts: it adds no instance.
        case neverMatches
        /// libical could step through more than `candidateBudget`
        /// candidates between two instances.
        case tooCostly(candidates: Double)
        /// A sub-daily rule on a date: libical steps hours or minutes of a
        /// value that has none, and returns that date for ever, or never
        /// returns at all (`FREQ=MINUTELY;BYHOUR=3`).
        case subDailyOnDate
    }

    /// About 0.3 s of libical's inner loop (about 1 µs a candidate).
    static let candidateBudget: Double = 300_000

    /// The judgement for a rule walked from `start`.
    static func assess(_ rule: RecurrenceRule, from start: TimeValue) -> Verdict {
        if rule.isSubDaily && start.isDate { return .subDailyOnDate }
        let interval = Double(max(rule.interval, 1))
        let seconds = Double(rule.list(.second).count), minutes = Double(rule.list(.minute).count)
        let hours = Double(rule.list(.hour).count), weekdays = Double(rule.list(.day).count)
        let stepSeconds: Double
        let perDay: Double  // candidates libical visits in a day
        // BYMINUTE/BYHOUR above the frequency, which the step may miss
        var timeFilters: [(unit: Double, present: Bool)] = []
        switch rule.frequency {
        case .secondly:
            stepSeconds = seconds > 0 ? 1 : interval
            perDay = seconds > 0 ? seconds * 1440 : 86400 / interval
            timeFilters = [(60, minutes > 0), (3600, hours > 0)]
        case .minutely:
            stepSeconds = minutes > 0 ? 60 : 60 * interval
            perDay = (minutes > 0 ? minutes * 24 : 1440 / interval) * max(seconds, 1)
            timeFilters = [(3600, hours > 0)]
        case .hourly:
            stepSeconds = hours > 0 ? 3600 : 3600 * interval
            perDay = (hours > 0 ? hours : 24 / interval) * max(minutes, 1) * max(seconds, 1)
        case .daily:
            stepSeconds = 86400 * interval
            perDay = max(hours, 1) * max(minutes, 1) * max(seconds, 1) / interval
        case .weekly:
            stepSeconds = 7 * 86400 * interval
            perDay = max(weekdays, 1) * max(hours, 1) * max(minutes, 1) * max(seconds, 1) / (7 * interval)
        default:
            // MONTHLY and YEARLY expand whole months and years into days:
            // libical's search for a first match stops in the year 20000.
            return .walk(perStep: 1)
        }
        let daysLeft = Double(max(2583 - start.year, 1)) * 366
        guard let reach = DayFilter(rule).reach() else { return .neverMatches }
        let missesTimes = timeFilters.contains { $0.present && stepSeconds > $0.unit }
        let visitsEveryDay = stepSeconds <= 86400
        let days = reach.longestGap.map { Double($0) + 1 } ?? daysLeft
        // Candidates libical may test between two instances.
        let spin = (missesTimes || !visitsEveryDay && reach.longestGap != 0) ? daysLeft * perDay : days * max(perDay, 1)
        if spin > candidateBudget { return .tooCostly(candidates: spin) }
        // On average: the share of candidates that pass is the share of days
        // that pass times the share of hours and minutes the filters above
        // the frequency let through.
        var share = reach.share
        if rule.frequency == .secondly {
            share *= (minutes > 0 ? minutes / 60 : 1) * (hours > 0 ? hours / 24 : 1)
        } else if rule.frequency == .minutely {
            share *= hours > 0 ? hours / 24 : 1
        }
        let perStep = missesTimes || reach.longestGap == nil ? spin : min(max(1 / max(share, 1e-9), 1), spin)
        return .walk(perStep: perStep)
    }
}

/// The day-level BYxxx parts of a rule read as libical reads them for
/// frequencies from SECONDLY to WEEKLY: filters a day passes or fails
/// (BYMONTH, BYMONTHDAY, BYYEARDAY, and BYDAY below WEEKLY). Not an
/// expander: it only measures how far apart the passing days can be.
struct DayFilter {
    var months: [Bool]? = nil  // index 1...12
    var monthDays: (positive: [Bool], negative: [Bool])? = nil  // index 1...31
    var yearDays: (positive: [Bool], negative: [Bool])? = nil  // index 1...366
    var weekdays: [Bool]? = nil  // index 1 (Sunday) ... 7, as libical numbers them
    var hasWeekNumbers = false

    init(_ rule: RecurrenceRule) {
        let byMonth = rule.list(.month)
        if !byMonth.isEmpty {
            var m = [Bool](repeating: false, count: 13)
            // A leap month (RFC 7529 "5L") never comes in the Gregorian calendar.
            for v in byMonth where (1...12).contains(v) { m[Int(v)] = true }
            months = m
        }
        func signed(_ values: [Int16], _ limit: Int) -> (positive: [Bool], negative: [Bool])? {
            guard !values.isEmpty else { return nil }
            var p = [Bool](repeating: false, count: limit + 1), n = p
            for v in values {
                if v > 0 && Int(v) <= limit { p[Int(v)] = true }
                if v < 0 && -Int(v) <= limit { n[-Int(v)] = true }
            }
            return (p, n)
        }
        monthDays = signed(rule.list(.monthDay), 31)
        yearDays = signed(rule.list(.yearDay), 366)
        hasWeekNumbers = rule.has(.weekNumber)
        let byDay = rule.list(.day)
        if !byDay.isEmpty && rule.frequency != .weekly {
            // libical compares the encoded value with the day of the week,
            // so a BYDAY with a position ("1MO") never matches here.
            var w = [Bool](repeating: false, count: 8)
            for v in byDay where (1...7).contains(v) { w[Int(v)] = true }
            weekdays = w
        }
    }

    var isEmpty: Bool { months == nil && monthDays == nil && yearDays == nil && weekdays == nil && !hasWeekNumbers }

    /// How the passing days are spread over the 400 years after which the
    /// Gregorian calendar repeats: the longest run of days that fail
    /// (0 when every day passes; nil when unknown, with BYWEEKNO) and the
    /// share of days that pass. nil when no day ever passes.
    struct Reach {
        let longestGap: Int?
        let share: Double
    }

    func reach() -> Reach? {
        if isEmpty { return Reach(longestGap: 0, share: 1) }
        if hasWeekNumbers { return Reach(longestGap: nil, share: 1) }
        if monthDays == nil && yearDays == nil {
            // Weekdays and months alone (FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR, the
            // common case) need no scan: every month holds every weekday.
            let w = weekdays.map { flags in (1...7).filter { flags[$0] } } ?? Array(1...7)
            let m = months.map { mm in (1...12).filter { mm[$0] } } ?? Array(1...12)
            if w.isEmpty || m.isEmpty { return nil }
            func circularGap(_ set: [Int], _ period: Int) -> Int {
                zip(set, set.dropFirst() + [set[0] + period]).map { $1 - $0 - 1 }.max() ?? 0
            }
            let monthGapDays = circularGap(m, 12) * 31
            let gap = monthGapDays > 0 ? monthGapDays + 6 : circularGap(w, 7)
            return Reach(longestGap: gap, share: Double(w.count) / 7 * Double(m.count) / 12)
        }
        let key = Key(filter: self)
        if let known = DayFilter.known.withLock({ $0[key] }) { return known.reach }
        let reach = scan()
        DayFilter.known.withLock { known in
            if known.count > 1000 { known.removeAll() }
            known[key] = Known(reach: reach)
        }
        return reach
    }

    /// Scans found before, by filter: a calendar repeats its rules.
    private struct Key: Hashable {
        let months: [Bool]?, monthDays: [Bool]?, yearDays: [Bool]?, weekdays: [Bool]?
        init(filter f: DayFilter) {
            months = f.months
            monthDays = f.monthDays.map { $0.positive + $0.negative }
            yearDays = f.yearDays.map { $0.positive + $0.negative }
            weekdays = f.weekdays
        }
    }
    private struct Known { let reach: Reach? }
    private static let known = Mutex<[Key: Known]>([:])

    /// The 146,097 days of the cycle, one by one.
    private func scan() -> Reach? {
        var first: Int? = nil, last = 0, longest = 0, passing = 0
        var index = 0
        var weekday = 7  // 2000-01-01 was a Saturday (libical: 1 = Sunday ... 7 = Saturday)
        for year in 2000..<2400 {
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let daysInYear = leap ? 366 : 365
            var yearDay = 0
            for month in 1...12 {
                let daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
                let monthPasses = months?[month] ?? true
                for day in 1...daysInMonth {
                    yearDay += 1
                    defer {
                        index += 1
                        weekday = weekday % 7 + 1
                    }
                    guard monthPasses else { continue }
                    if let (p, n) = monthDays, !(p[day] || n[daysInMonth + 1 - day]) { continue }
                    if let (p, n) = yearDays, !(p[yearDay] || n[daysInYear + 1 - yearDay]) { continue }
                    if let w = weekdays, !w[weekday] { continue }
                    passing += 1
                    if first != nil {
                        longest = max(longest, index - last - 1)
                    } else {
                        first = index
                    }
                    last = index
                }
            }
        }
        guard let first else { return nil }
        // Around the end of the cycle into its start again.
        longest = max(longest, first + (index - last - 1))
        return Reach(longestGap: longest, share: Double(passing) / Double(index))
    }
}
