import AgendaCore
import Foundation

/// Rule shapes libical 3.0 expands wrongly, without a word, and how they are
/// put right: libical walks a rule it expands right (the same rule without
/// the parts it gets wrong, and without COUNT and UNTIL, which then apply to
/// what is kept), and `InstanceSieve` keeps what RFC 5545 3.3.10 says the
/// whole rule gives. No engine of our own: every date is one libical made.
///
/// - BYSETPOS with FREQ=SECONDLY to WEEKLY, or with BYHOUR, BYMINUTE or
///   BYSECOND under MONTHLY and YEARLY: libical ignores it (every time of
///   the set is listed: `FREQ=DAILY;BYHOUR=9,17;BYSETPOS=-1` lists both).
///   The set of each interval is taken from libical, and the positions from it.
/// - BYWEEKNO with BYDAY (YEARLY): libical lists wrong weekdays, skips
///   years and makes weeks 53 a year does not have. libical lists every
///   BYDAY day; the week numbers are kept (weeks start on WKST; week 1 is
///   the first with at least four days of the year).
/// - YEARLY with BYMONTH and BYYEARDAY: libical cannot walk it at all.
///   libical walks the year days; BYMONTH keeps those in its months.
/// - INTERVAL above 1 with a part that limits the frequency
///   (`FREQ=HOURLY;INTERVAL=2;BYHOUR=1` from 00:00, `FREQ=DAILY;INTERVAL=7;BYDAY=SU`
///   from a Monday): libical lists times between the intervals, which the
///   rule cannot give, and misses some that it can. libical walks the rule
///   with INTERVAL=1, and only times in the rule's own intervals (a whole
///   number of INTERVALs of FREQ after DTSTART's) are kept.
/// - HOURLY with BYHOUR, MINUTELY with BYMINUTE, SECONDLY with BYSECOND,
///   from a DTSTART whose own hour (minute, second) is not listed: libical
///   skips the first time that is (`FREQ=HOURLY;BYHOUR=3,4,9` from 01:00
///   starts at 04:00). libical starts a day (an hour, a minute) early, and
///   what comes before DTSTART is dropped.
struct RuleCorrection {
    /// The rule libical walks.
    let walked: RecurrenceRule
    let frequency: RecurrenceRule.Frequency
    let interval: Int
    /// WKST, 1 (Sunday) ... 7; Monday when not given.
    let weekStart: Int
    let setPositions: [Int]
    let weekNumbers: [Int]
    /// BYMONTH, when it is kept here (beside BYYEARDAY).
    let months: Set<Int>
    /// Whether times between the rule's intervals are dropped.
    let keepsToIntervals: Bool
    let count: Int
    let until: TimeValue
    /// How far before DTSTART libical starts, in seconds (0: at DTSTART's interval).
    let startsEarly: Int

    /// The correction a rule from `dtstart` needs, or nil when libical expands it right.
    static func of(_ rule: RecurrenceRule, from dtstart: TimeValue) -> RuleCorrection? {
        let frequency = rule.frequency
        let subYearly: Set<RecurrenceRule.Frequency> = [.secondly, .minutely, .hourly, .daily, .weekly]
        let timeParts = rule.has(.hour) || rule.has(.minute) || rule.has(.second)
        let setPositions = rule.has(.setPosition) && (subYearly.contains(frequency) || timeParts)
            ? rule.list(.setPosition).map(Int.init) : []
        let weekdaysPlain = rule.list(.day).allSatisfy { (1...7).contains($0) }
        let weekNumbers = frequency == .yearly && rule.has(.weekNumber) && rule.has(.day) && weekdaysPlain
            ? rule.list(.weekNumber).map(Int.init) : []
        let months = frequency == .yearly && rule.has(.month) && rule.has(.yearDay)
            ? Set(rule.list(.month).map(Int.init)) : []
        let keepsToIntervals = RuleCorrection.leavesIntervals(rule, from: dtstart)
        let startsEarly = RuleCorrection.missesFirst(rule, from: dtstart)
        guard !setPositions.isEmpty || !weekNumbers.isEmpty || !months.isEmpty || keepsToIntervals
            || startsEarly > 0 else {
            return nil
        }
        var walked = rule
        walked.count = 0
        walked.until = .null
        if keepsToIntervals { walked.interval = 1 }
        if !setPositions.isEmpty { walked.setList(.setPosition, []) }
        if !weekNumbers.isEmpty { walked.setList(.weekNumber, []) }
        if !months.isEmpty { walked.setList(.month, []) }
        return RuleCorrection(
            walked: walked, frequency: frequency, interval: max(rule.interval, 1),
            weekStart: (1...7).contains(rule.weekStart) ? rule.weekStart : 2, setPositions: setPositions,
                weekNumbers: weekNumbers,
            months: months, keepsToIntervals: keepsToIntervals, count: rule.count, until: rule.until,
                startsEarly: startsEarly)
    }

    /// How early libical must start a sub-daily rule that lists its own
    /// unit (BYHOUR of HOURLY, ...) when DTSTART's is not listed: one cycle
    /// of that unit (it skips the first listed value after such a start).
    static func missesFirst(_ rule: RecurrenceRule, from dtstart: TimeValue) -> Int {
        guard !dtstart.isDate else { return 0 }
        switch rule.frequency {
        case .hourly where rule.has(.hour) && !rule.list(.hour).contains(Int16(dtstart.hour)): return 86400
        case .minutely where rule.has(.minute) && !rule.list(.minute).contains(Int16(dtstart.minute)): return 3600
        case .secondly where rule.has(.second) && !rule.list(.second).contains(Int16(dtstart.second)): return 60
        default: return 0
        }
    }

    /// Whether libical's walk of a sub-daily rule with INTERVAL above 1
    /// can leave its intervals. libical moves a time that a part rejects on
    /// to the next one the part allows: by whole hours (days) for BYHOUR
    /// (BYDAY, BYMONTHDAY, ...) above the frequency, and straight to a
    /// listed value for the frequency's own unit (BYHOUR of HOURLY). That
    /// stays in the rule's intervals only when INTERVAL divides the hour
    /// (the day) and every listed value of its own unit is a whole number
    /// of INTERVALs from DTSTART's; else it lists times the rule cannot give,
    /// and, stepping on from them, misses some it can. (DAILY and longer
    /// frequencies step by whole intervals: libical keeps to them.)
    static func leavesIntervals(_ rule: RecurrenceRule, from dtstart: TimeValue) -> Bool {
        let interval = rule.interval
        guard interval > 1 else { return false }
        let dayLevel = rule.has(.month) || rule.has(.monthDay) || rule.has(.yearDay) || rule.has(.day)
            || rule.has(.weekNumber)
        func ownUnitOffGrid(_ part: RecurrenceRule.Part, _ start: Int, cycle: Int) -> Bool {
            rule.has(part) && (cycle % interval != 0 || rule.list(part).contains { (Int($0) - start) % interval != 0 })
        }
        switch rule.frequency {
        case .hourly:
            return (dayLevel && 24 % interval != 0) || ownUnitOffGrid(.hour, dtstart.hour, cycle: 24)
        case .minutely:
            return ((dayLevel || rule.has(.hour)) && (60 % interval != 0 || dayLevel && 1440 % interval != 0))
                || ownUnitOffGrid(.minute, dtstart.minute, cycle: 60)
        case .secondly:
            return ((dayLevel || rule.has(.hour) || rule.has(.minute)) && 60 % interval != 0)
                || ownUnitOffGrid(.second, dtstart.second, cycle: 60)
        default:
            return false
        }
    }

    /// The interval a wall time falls in, numbered so that the next one is
    /// one more (BYWEEKNO rules count years of weeks).
    func period(of t: TimeValue) -> Int {
        let wall = t.wallSeconds
        switch frequency {
        case .secondly: return wall
        case .minutely: return RuleCorrection.floorDiv(wall, 60)
        case .hourly: return RuleCorrection.floorDiv(wall, 3600)
        case .daily: return RuleCorrection.floorDiv(wall, 86400)
        case .weekly: return RuleCorrection.floorDiv(weekStartDay(RuleCorrection.floorDiv(wall, 86400)), 7)
        case .monthly: return t.year * 12 + t.month - 1
        case .yearly, .none: return weekNumbers.isEmpty ? t.year : week(of: RuleCorrection.floorDiv(wall, 86400)).year
        }
    }

    /// Where libical starts so that the first interval's whole set comes
    /// out, for BYSETPOS (its positions count from the interval's start):
    /// `dtstart` with what the rule's own parts give moved to the
    /// interval's start. Parts the rule does not give stay DTSTART's.
    func walkStart(_ dtstart: TimeValue) -> TimeValue {
        guard !dtstart.isDate else { return dtstart }
        var t = dtstart
        if keepsToIntervals {
            // Walked at INTERVAL=1 from the day's start: libical moves a
            // rejected time on keeping its finer fields, so from DTSTART's
            // own minute it would miss the minutes before it in later hours.
            switch frequency {
            case .hourly: t.hour = 0
            case .minutely: (t.hour, t.minute) = (0, 0)
            case .secondly: (t.hour, t.minute, t.second) = (0, 0, 0)
            default: break
            }
        }
        guard !setPositions.isEmpty else { return early(t) }
        let rule = walked
        if frequency != .secondly && rule.has(.second) { t.second = 0 }
        if frequency != .secondly && frequency != .minutely && rule.has(.minute) { t.minute = 0 }
        if frequency != .secondly && frequency != .minutely && frequency != .hourly && rule.has(.hour) { t.hour = 0 }
        switch frequency {
        case .weekly where rule.has(.day):
            let day = RuleCorrection.floorDiv(t.wallSeconds, 86400)
            t = t.at(wallSeconds: t.wallSeconds - (day - weekStartDay(day)) * 86400)
        case .monthly where rule.has(.day) || rule.has(.monthDay):
            t.day = 1
        case .yearly where rule.has(.month) || rule.has(.yearDay):
            t.month = 1
            if rule.has(.day) || rule.has(.monthDay) || rule.has(.yearDay) { t.day = 1 }
        default:
            break
        }
        return early(t)
    }

    private func early(_ t: TimeValue) -> TimeValue {
        startsEarly > 0 ? t.at(wallSeconds: t.wallSeconds - startsEarly) : t
    }

    /// Whether a day (days since 1970-01-01) is in a week BYWEEKNO names.
    func inNamedWeek(_ day: Int) -> Bool {
        let (year, number) = week(of: day)
        let weeks = week(of: CivilDate(year: year, month: 12, day: 28).daysSinceEpoch).number
        return weekNumbers.contains { $0 > 0 ? $0 == number : weeks + 1 + $0 == number }
    }

    /// The first day of the week (from WKST) that holds `day`.
    func weekStartDay(_ day: Int) -> Int {
        let weekday = ((day + 4) % 7 + 7) % 7 + 1  // 1970-01-01 was a Thursday; 1 = Sunday
        return day - (weekday - weekStart + 7) % 7
    }

    /// The year and number of the week that holds `day`: week 1 is the
    /// first with at least four days in the year (RFC 5545 3.3.10, ISO 8601).
    func week(of day: Int) -> (year: Int, number: Int) {
        let fourth = weekStartDay(day) + 3  // the week is the year's that holds its fourth day
        let year = CivilDate(daysSinceEpoch: fourth).year
        return (year, (fourth - CivilDate(year: year, month: 1, day: 1).daysSinceEpoch) / 7 + 1)
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
}

/// What is kept of libical's walk of `RuleCorrection.walked`: times in the
/// rule's intervals, weeks and months, the set positions of each interval,
/// then UNTIL and COUNT, in order. Fed libical's times one by one; hands
/// back those that are final.
struct InstanceSieve {
    let correction: RuleCorrection
    /// DTSTART's wall clock and interval: times before it are not the rule's.
    let anchorWall: Int
    let anchorPeriod: Int
    /// UNTIL on the wall clock the walk uses; nil when the rule has none.
    let untilWall: Int?
    private var remaining: Int?
    private var set: [TimeValue] = []
    private var setPeriod: Int? = nil
    private(set) var isDone = false

    init(_ correction: RuleCorrection, anchor: TimeValue, until: TimeValue) {
        self.correction = correction
        anchorWall = anchor.wallSeconds
        anchorPeriod = correction.period(of: anchor)
        untilWall = until.isNull ? nil : until.wallSeconds
        remaining = correction.count > 0 ? correction.count : nil
    }

    mutating func feed(_ t: TimeValue, into out: inout [TimeValue]) {
        guard !isDone else { return }
        let period = correction.period(of: t)
        if correction.keepsToIntervals {
            let apart = period - anchorPeriod
            guard apart >= 0, apart % correction.interval == 0 else { return }
        }
        if !correction.weekNumbers.isEmpty && !correction.inNamedWeek(RuleCorrection.floorDiv(t.wallSeconds, 86400)) {
            return
        }
        if !correction.months.isEmpty && !correction.months.contains(t.month) { return }
        guard !correction.setPositions.isEmpty else {
            keep(t, into: &out)
            return
        }
        if let setPeriod, setPeriod != period { flush(into: &out) }
        setPeriod = period
        set.append(t)
    }

    /// The last interval's positions, once libical has no more times.
    mutating func finish(into out: inout [TimeValue]) {
        flush(into: &out)
    }

    /// No more times will come.
    mutating func stop() { isDone = true }

    /// `t` lies past the end of the walk: whether the sieve is done now.
    /// The interval being gathered is finished first (its positions need
    /// all of it): until `t` is in another one, the walk goes on.
    mutating func ends(at t: TimeValue, into out: inout [TimeValue]) -> Bool {
        if let setPeriod, setPeriod == correction.period(of: t) { return false }
        flush(into: &out)
        isDone = true
        return true
    }

    private mutating func flush(into out: inout [TimeValue]) {
        guard !set.isEmpty else { return }
        let times = set.sorted { $0.wallSeconds < $1.wallSeconds }.reduce(into: [TimeValue]()) { unique, t in
            if unique.last?.wallSeconds != t.wallSeconds { unique.append(t) }
        }
        set.removeAll(keepingCapacity: true)
        var chosen = Set<Int>()
        for position in correction.setPositions where position != 0 {
            let index = position > 0 ? position - 1 : times.count + position
            if times.indices.contains(index) { chosen.insert(index) }
        }
        for index in chosen.sorted() { keep(times[index], into: &out) }
    }

    private mutating func keep(_ t: TimeValue, into out: inout [TimeValue]) {
        guard !isDone else { return }
        let wall = t.wallSeconds
        if wall < anchorWall { return }
        if let untilWall, wall > untilWall {
            isDone = true
            return
        }
        if let left = remaining {
            if left == 0 {
                isDone = true
                return
            }
            remaining = left - 1
        }
        out.append(t)
        if remaining == 0 { isDone = true }
    }
}

/// libical's iterator, through a corrected rule's sieve when it has one:
/// the times the whole rule gives, in order; a null time at the end.
struct SievedIterator: ~Copyable {
    private let iterator: RecurrenceIterator
    private var sieve: InstanceSieve?
    private var ready: [TimeValue] = []
    private var next = 0
    /// The last time libical gave (for a warning that the walk stopped there).
    private(set) var lastStep = TimeValue.null
    /// Past this wall clock the sieve's walk ends: a rule whose every time
    /// the sieve drops is not walked on to the end of the budget.
    private let stopWall: Int

    init(_ iterator: consuming RecurrenceIterator, _ sieve: InstanceSieve?, stopWall: Int = .max) {
        self.iterator = iterator
        self.sieve = sieve
        self.stopWall = stopWall
    }

    /// The next time kept; `mayStep` is asked after each of libical's steps
    /// (false: the walk stops there, and a null time is returned).
    mutating func next(mayStep: () -> Bool) -> TimeValue {
        guard sieve != nil else {
            lastStep = iterator.next()
            return lastStep.isNull || mayStep() ? lastStep : .null
        }
        while next == ready.count {
            ready.removeAll(keepingCapacity: true)
            next = 0
            if sieve!.isDone { return .null }
            lastStep = iterator.next()
            if lastStep.isNull {
                sieve!.finish(into: &ready)
                sieve!.stop()
                if ready.isEmpty { return .null }
                break
            }
            guard mayStep() else { return .null }
            if lastStep.wallSeconds > stopWall && sieve!.ends(at: lastStep, into: &ready) {
                if ready.isEmpty { return .null }
                break
            }
            sieve!.feed(lastStep, into: &ready)
        }
        defer { next += 1 }
        return ready[next]
    }
}
