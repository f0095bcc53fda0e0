import AgendaCore
import Foundation

/// Expands one master component into the instance starts that can touch the
/// window: DTSTART (always the first instance, RFC 5545 3.8.5.3), each RRULE
/// walked with libical's `icalrecur_iterator`, each RDATE, less EXDATEs, all
/// in the zone of their own TZID.
///
/// `icalcomponent_foreach_recurrence` is not used: it reads `RDATE;TZID=`
/// values as UTC and drops a DTSTART its rule does not produce.
struct RecurrenceExpander {
    struct Instance {
        let start: ZonedTime
        let startTime: AgendaTime
        /// An RDATE PERIOD's own end, which overrides the component's duration.
        var periodEnd: AgendaTime?
    }

    /// The most rows one component may put into a window (an instance
    /// counts once for every day it spans): beyond them the series is cut,
    /// with a warning. The rule steps and time it may take are
    /// `ExpansionBudget`'s; rules libical cannot walk in bounded time are
    /// found by `RuleCost` first.
    static let maxInstances = 100_000

    let window: AgendaWindow
    /// How far before the window an instance may start and still reach into it.
    let lookBehind: TimeInterval
    /// The rows this component may put into the window: `maxInstances`,
    /// or one a day of the window once the file's budget is spent (`CalendarLoader.rowsPerFile`).
    var maxRows = RecurrenceExpander.maxInstances

    init(window: AgendaWindow, lookBehind: TimeInterval, maxRows: Int = RecurrenceExpander.maxInstances) {
        self.window = window
        self.lookBehind = lookBehind
        self.maxRows = maxRows
    }

    /// Instances of `anchor`'s series that start before the window's end, in no particular order.
    ///
    /// With `keepLatestBefore` (reminders), the last instance before the
    /// window is kept too: it is the one that can be overdue today.
    /// `rows` tells how many rows the instances make (each counts once for
    /// every day it spans), `limited` whether the series was cut at `maxRows`.
    func instances(
        of record: ComponentRecord, anchor: ZonedTime, keepLatestBefore: Bool = false, cut: inout String?,
            rows: inout Int, limited: inout Bool
    ) -> [Instance] {
        let earliest = window.start - lookBehind
        // An instance that lasts a year is listed under every day of the
        // window: fewer of them make as many rows.
        let windowDays = max(Int((window.end.timeIntervalSince(window.start) / 86400).rounded(.up)), 1)
        let spanDays = min(max(Int(lookBehind / 86400) - 1, 1), windowDays)
        var found = InstanceCollector(
            record: record, anchor: anchor, window: window, earliest: earliest, limit: max(maxRows / spanDays, 1),
            reachesFrom: window.start - max(lookBehind - 2 * 86400, 0) - 7200, keepLatestBefore: keepLatestBefore)
        var budget = ExpansionBudget()
        // RDATEs before DTSTART: an RDATE PERIOD that starts at DTSTART gives that instance its end.
        for rdate in record.rdates {
            var end: AgendaTime? = nil
            if let e = rdate.end {
                end = e.agendaTime
            } else if let d = rdate.periodDuration {
                end = RecurrenceExpander.end(of: rdate.start, adding: d)
            }
            _ = found.consider(rdate.start, periodEnd: end)
        }
        _ = found.consider(anchor)
        for var rule in record.rrules.map(RecurrenceExpander.workingAroundLibical) {
            // Reminders keep their latest instance before the window: start
            // two of the rule's periods earlier, so that it is still met.
            // A sub-daily rule restarts an hour early, not a day: a day of
            // FREQ=SECONDLY is 86,400 steps.
            let skipTo = keepLatestBefore
                ? earliest - 2 * RecurrenceExpander.period(of: rule) : earliest - (rule.isSubDaily ? 3600 : 86400)
            guard !found.isFull else { break }
            var skipped = walk(rule, from: anchor, skipTo: skipTo, keepsLatestBefore: keepLatestBefore, budget: &budget,
                cut: &cut) {
                found.consider($0, $1, periodEnd: $2)
            }
            // Instances in a gap do not count (3.3.10): a COUNT rule that
            // met some has as many more, walked again (instances already
            // listed are not listed twice). A few rounds: a gap is an hour a year.
            var rounds = 0
            while skipped > 0 && rule.count > 0 && rounds < 4 && !found.isFull {
                rule.count += skipped
                skipped = walk(rule, from: anchor, skipTo: skipTo, keepsLatestBefore: keepLatestBefore, budget: &budget,
                    cut: &cut) {
                    found.consider($0, $1, periodEnd: $2)
                } - skipped
                rounds += 1
            }
        }
        let instances = found.finish()
        let limit = found.limit
        rows = found.listed * spanDays
        if found.isFull {
            limited = true
            cut = spanDays > 1
                ? "more than \(limit) occurrences of \(spanDays) days each in the window; only the first \(limit) " +
                    "are listed"
                : "more than \(limit) occurrences in the window; only the first \(limit) are listed"
        }
        return instances
    }

    /// Where libical must start a weekly rule with INTERVAL > 1 and BYDAY,
    /// and how many of the instances it then gives come before DTSTART (to
    /// be left out, and added to COUNT); nil for any other rule.
    ///
    /// RFC 5545 3.3.10 leaves a DTSTART that the rule does not produce
    /// undefined; the natural reading (the week that holds DTSTART, weeks
    /// starting on WKST, is the first of the rule's weeks), which other
    /// engines and the reference take, lists `FREQ=WEEKLY;INTERVAL=2;BYDAY=SU`
    /// from Friday 2025-01-03 on 01-05, 01-19, ... libical 3.0 starts its
    /// cycle a week late there (01-12, 01-26), and with a WKST other than MO
    /// or SU it miscounts the weeks even from a DTSTART on a BYDAY day
    /// (`INTERVAL=3;BYDAY=TU,SU;WKST=TH` from a Tuesday: the next Sunday
    /// listed is 12 days on, not 19). Started on the first BYDAY day of
    /// DTSTART's week, libical walks the right weeks; the days of that week
    /// before DTSTART are then dropped, and COUNT, which counts the rule's
    /// instances from DTSTART, is raised by as many.
    static func firstWeekStart(_ rule: RecurrenceRule, _ dtstart: TimeValue) -> (start: TimeValue, before: Int)? {
        guard rule.frequency == .weekly, rule.interval > 1, !rule.has(.setPosition) else { return nil }
        let days = rule.list(.day)
        guard !days.isEmpty, days.allSatisfy({ (1...7).contains($0) }) else { return nil }
        let date = dtstart.civilDate
        let weekday = date.weekday  // 1 = Sunday, as libical numbers BYDAY and WKST
        let wkst = (1...7).contains(rule.weekStart) ? rule.weekStart : 2
        // Days since the week's start, for DTSTART and for each BYDAY day.
        let position = (weekday - wkst + 7) % 7
        let offsets = Set(days.map { (Int($0) - wkst + 7) % 7 })
        guard let first = offsets.min(), first != position else { return nil }
        var moved = dtstart
        moved.setDate(date.adding(days: first - position))
        return (moved, offsets.filter { $0 < position }.count)
    }

    /// The zone the iterator is given DTSTART in: UTC, whose wall clock has no gaps.
    ///
    /// RFC 5545 3.3.10 generates a rule's instances on the wall clock of
    /// DTSTART's zone, sub-daily ones too ("1:30 AM on a day where the local
    /// time is moved forward by an hour at 1:00 AM"), and says that an
    /// instance whose local time does not exist "MUST be ignored and MUST
    /// NOT be counted". So every rule is walked on the wall clock in UTC, and
    /// `ZonedTime` reads each value in the real zone (a time in an overlap
    /// as its first occurrence, 3.3.5); a value in a gap is left out, for
    /// every frequency alike (`FREQ=DAILY` at 02:30 in Berlin has no instance
    /// on the day the clocks go forward, as `FREQ=HOURLY` has no 02:00
    /// then), and a COUNT rule gets one more instance for each. DTSTART and
    /// RDATEs are values written, not generated: one in a gap is read as
    /// 3.3.5 says, an hour later. Walking in UTC is also the quick way:
    /// libical opens an ICU calendar in DTSTART's zone for every iterator and
    /// works its offset out again on every field it reads.
    static var iterationZone: Zone? { Zone.utc }

    /// `rule` with UNTIL as the iterator must read it beside a DTSTART in
    /// `zone`. Beside a zoned DTSTART, libical reads a UTC UNTIL as an
    /// instant, and a floating or DATE one on DTSTART's wall clock (a date
    /// ends the series before that day). Walked on the wall clock in UTC
    /// (`iterationZone`), the last two read the same; a UTC UNTIL is given
    /// as the wall clock that instant has in DTSTART's zone, so that the
    /// same instances come out.
    static func until(of rule: RecurrenceRule, for anchor: ZonedTime, inZone zone: Zone?) -> RecurrenceRule {
        let until = rule.until
        guard let real = anchor.zone, zone == .utc, real != .utc, !anchor.isDate, !until.isNull, !until.isDate,
            until.isUTC
        else { return rule }
        var rewritten = rule
        var local = TimeValue(instant: until.wallSeconds, in: real)
        local.zoneMark = .utc
        rewritten.until = local
        return rewritten
    }

    /// A count for a warning: 1.2 million, 30 billion.
    static func round(_ n: Double) -> String {
        if n >= 1e9 { return String(format: "%.0f billion", n / 1e9) }
        if n >= 1e6 { return String(format: "%.0f million", n / 1e6) }
        return String(format: "%.0f", n)
    }

    /// How far apart a plain rule's instances are on the wall clock (0 for MONTHLY and YEARLY).
    static func stepSeconds(_ rule: RecurrenceRule) -> Int {
        (fixedStep(rule.frequency) ?? 0) * max(rule.interval, 1)
    }

    /// Where the iterator may restart at or before `target` without losing
    /// the rule's phase: a whole number of INTERVALs after DTSTART, counted
    /// on the wall clock as libical counts them. Nil when the rule ends
    /// (UNTIL) before the target: it is then walked from its start.
    static func alignedStart(_ rule: RecurrenceRule, anchor: ZonedTime, near target: TimeValue) -> TimeValue? {
        if !rule.until.isNull {
            let until = ZonedTime(local: rule.until, zone: rule.until.isDate ? nil : anchor.zone).agendaTime
            let to = ZonedTime(local: target, zone: anchor.zone).agendaTime
            guard until.wall > to.wall + 86400 * 2 else { return nil }
        }
        let interval = max(rule.interval, 1)
        let from = anchor.local
        var aligned = from
        guard let unit = fixedStep(rule.frequency) else {
            guard rule.frequency == .monthly || rule.frequency == .yearly else { return nil }
            let months = rule.frequency == .monthly ? interval : 12 * interval
            let apart = (target.year * 12 + target.month) - (from.year * 12 + from.month)
            guard apart > months else { return nil }
            let moved = apart / months * months + from.year * 12 + from.month - 1
            aligned.year = moved / 12
            aligned.month = moved % 12 + 1
            aligned.day = 1
            aligned.hour = 0
            aligned.minute = 0
            aligned.second = 0
            return aligned
        }
        let step = unit * interval
        let apart = target.wallSeconds - from.wallSeconds
        guard apart > step else { return nil }
        return aligned.at(wallSeconds: from.wallSeconds + apart / step * step)
    }

    /// The wall clock (seconds, as if UTC) after which the rule has no
    /// instance, when that is known without walking it: the day of its
    /// UNTIL, or for a weekly rule by plain weekdays (or none) a COUNT + 1
    /// INTERVALs of weeks after DTSTART, since each such week holds an
    /// instance. nil when the rule has no end, or one not known this way.
    static func latestWallSeconds(_ rule: RecurrenceRule, from dtstart: TimeValue) -> Int? {
        if !rule.until.isNull { return rule.until.wallSeconds + 86400 }
        guard rule.count > 0, rule.frequency == .weekly, hasNoByParts(rule, besidesBYDAY: true),
            rule.list(.day).allSatisfy({ (1...7).contains($0) })
        else { return nil }
        return dtstart.wallSeconds + (rule.count + 1) * max(rule.interval, 1) * 7 * 86400
    }

    /// Whether a rule has no BYxxx part (`besidesBYDAY`: none but BYDAY,
    /// if any): with none, every step of it is an instance.
    static func hasNoByParts(_ rule: RecurrenceRule, besidesBYDAY: Bool = false) -> Bool {
        RecurrenceRule.Part.allCases.allSatisfy { part in (besidesBYDAY && part == .day) || !rule.has(part) }
    }

    /// An instant as a value of the same kind and zone as `anchor`, for `icalrecur_iterator_set_start`.
    static func local(_ instant: Date, like anchor: ZonedTime, clock: ZoneClock) -> TimeValue {
        var t: TimeValue
        if anchor.isUTC {
            t = TimeValue(instant: Int(instant.timeIntervalSince1970), in: .utc)
        } else if let zone = anchor.zone {
            t = TimeValue(instant: Int(instant.timeIntervalSince1970), in: zone)
        } else {
            let wall = Int(clock.wallClock(of: instant).timeIntervalSince1970.rounded(.down))
            t = anchor.local.at(wallSeconds: wall)
        }
        if anchor.isDate {
            t.isDate = true
            t.hour = 0
            t.minute = 0
            t.second = 0
        }
        t.zoneMark = anchor.local.zoneMark
        if let zone = anchor.zone { t.zoneMark = zone }
        return t
    }

    /// Seconds in one step of a frequency whose steps are all alike (on the
    /// wall clock); nil for MONTHLY and YEARLY.
    static func fixedStep(_ frequency: RecurrenceRule.Frequency) -> Int? {
        switch frequency {
        case .secondly: 1
        case .minutely: 60
        case .hourly: 3600
        case .daily: 86400
        case .weekly: 7 * 86400
        case .monthly, .yearly, .none: nil
        }
    }

    /// About how long one step of a rule spans, at most, for starting early enough.
    static func period(of rule: RecurrenceRule) -> TimeInterval {
        let unit = fixedStep(rule.frequency) ?? (rule.frequency == .monthly ? 31 : 366) * 86400
        return TimeInterval(unit) * TimeInterval(max(rule.interval, 1)) + 86400
    }

    /// A rule libical would expand wrongly, rewritten to one with the same
    /// meaning that it expands right.
    ///
    /// `FREQ=YEARLY` with BYMONTHDAY and BYDAY but no BYMONTH: RFC 5545
    /// 3.3.10's table has BYMONTHDAY expand to every month and BYDAY limit
    /// (`BYDAY=MO,TU;BYMONTHDAY=8,...,14`: each Monday or Tuesday on the 8th
    /// to 14th of any month); libical 3.0 expands DTSTART's month only.
    /// `BYMONTH=1,...,12` says "every month" in words libical follows.
    static func workingAroundLibical(_ rule: RecurrenceRule) -> RecurrenceRule {
        guard rule.frequency == .yearly, rule.has(.monthDay), rule.has(.day),
            !rule.has(.month), !rule.has(.yearDay), !rule.has(.weekNumber)
        else { return rule }
        var rewritten = rule
        rewritten.setList(.month, (1...12).map(Int16.init))
        return rewritten
    }

    /// Whether an EXDATE removes DTSTART itself (RFC 5545 3.8.5.1), for a
    /// component without RRULE or RDATE: the test `instances` applies to
    /// every instance of a series.
    static func excludes(_ exdates: [ZonedTime], _ anchor: ZonedTime) -> Bool {
        exdates.contains { exdate in
            if exdate.isDate && !anchor.isDate { return exdate.civilDate.dayKey == anchor.civilDate.dayKey }
            return exdate.matching(series: anchor).agendaTime.matchKey == anchor.agendaTime.matchKey
        }
    }

    /// A value moved by a DURATION: nominal days on the wall clock of its
    /// zone, then exact seconds.
    static func end(of start: ZonedTime, adding duration: NominalDuration) -> AgendaTime {
        if start.isDate {
            return start.addingDays(max(duration.days, 1)).agendaTime
        }
        let moved = duration.days == 0 ? start : start.addingDays(duration.days)
        return moved.agendaTime.adding(seconds: duration.seconds)
    }
}
