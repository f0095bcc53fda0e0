/// Bounds what a file's VTIMEZONEs can cost before libical expands them.
///
/// libical works out a zone's offset changes onset by onset, from each
/// observance's DTSTART up to the year a time asks for: a rule that gives
/// many onsets a year (`FREQ=DAILY`, `FREQ=YEARLY;BYDAY=MO,TU,...`, a list of
/// month days, an hourly one) from 1601, as Outlook dates its rules, is
/// hundreds of thousands of onsets, seconds and megabytes per zone; with
/// `BYHOUR` a minute. No zone changes its offset more than a few times a
/// year, so a rule is judged by the onsets it gives in a year, whatever its
/// FREQ: more than `onsetsPerYear` and it is left out. What is left is
/// counted against `onsetsPerZone` and the file's `onsetsPerFile`: a zone
/// past either keeps its observances but not their RRULEs and RDATEs (each
/// holds from its DTSTART on; a TZID that is an IANA name is read in that
/// zone after its last one, as any definition that ends).
struct ZoneCost {
    /// A real rule gives one onset a year (two observances make the two
    /// changes of a DST zone); three leaves room for odd but real ones.
    static let onsetsPerYear = 3
    /// Onsets of one zone: a full history from 1601 of two yearly rules is
    /// under 900; libical's own zones list a few hundred RDATEs at most.
    static let onsetsPerZone = 10_000
    /// Onsets of every zone of a file together (about half a second of libical).
    static let onsetsPerFile = 200_000
    /// libical expands zones up to about this year.
    static let lastYear = 2037

    var budget = ZoneCost.onsetsPerFile
    private var budgetWarned = false
    /// Each VCALENDAR is a file of its own (a vdir collection read joined):
    /// each has the budget of a file, and the input together ten of them.
    var isPerCalendar = false {
        didSet { budget = isPerCalendar ? ZoneCost.onsetsPerFile * 10 : ZoneCost.onsetsPerFile }
    }
    private var calendarBudgets: [Int: Int] = [:]
    private var calendarsWarned = Set<Int>()
    /// What each zone kept so far was charged, per VCALENDAR and TZID: a
    /// later definition of the same zone in the same calendar replaces it
    /// (files that repeat a VTIMEZONE before every event pay for one).
    private var charged: [String: Int] = [:]
    /// The onsets a year of each rule met, by rule and DTSTART: a file
    /// that repeats its zones asks libical (an ICU calendar per rule) once.
    private var verdicts: [String: Int?] = [:]

    /// A parsed VTIMEZONE without what would cost too much (the same
    /// component, or a new one when something was left out: the old one is
    /// freed), and into `warnings` a warning for each thing left out.
    mutating func limit(_ component: consuming OwnedComponent, calendar: Int = 0,
        warnings: inout [String]) -> OwnedComponent {
        let vtimezone = component.borrowed
        var onsets = 0
        var doomed = Set<PropertyHandle>()
        let observances = vtimezone.observances
        for o in observances {
            let dtstart = o.dtstart
            onsets += 1
            for (rrule, rule) in o.rules {
                let key = "\(rule.text)@\(dtstart.year)-\(dtstart.month)-\(dtstart.day)"
                    + "T\(dtstart.hour):\(dtstart.minute):\(dtstart.second)"
                let verdict: Int?
                if let known = verdicts[key] {
                    verdict = known
                } else {
                    verdict = ZoneCost.onsetsInAYear(rule, from: dtstart)
                    verdicts[key] = verdict
                }
                switch verdict {
                case nil:
                    warnings.append("VTIMEZONE: RRULE \(rule.text) changes the offset every hour or more often, as " +
                        "no time zone does; the rule is ignored")
                    doomed.insert(rrule)
                case let n? where n > ZoneCost.onsetsPerYear:
                    warnings.append("VTIMEZONE: RRULE \(rule.text) changes the offset " +
                        "\(n >= ZoneCost.probe ? "at least \(ZoneCost.probe)" : "\(n)") times a year, as no time " +
                        "zone does; the rule is ignored")
                    doomed.insert(rrule)
                case let n?:
                    let first = dtstart.year
                    var last = ZoneCost.lastYear
                    if !rule.until.isNull { last = min(last, rule.until.year) }
                    var count = max(n, 1) * max(last - first + 1, 1)
                    if rule.count > 0 { count = min(count, rule.count) }
                    onsets += count
                }
            }
            onsets += o.rdateCount
        }
        let tzid = vtimezone.tzid
        let chargeKey = "\(calendar)\u{0}\(tzid)"
        if let earlier = charged[chargeKey] {  // replaced: its onsets are not expanded
            budget += earlier
            if isPerCalendar { calendarBudgets[calendar, default: ZoneCost.onsetsPerFile] += earlier }
        }
        let available = isPerCalendar ? min(budget, calendarBudgets[calendar] ?? ZoneCost.onsetsPerFile) : budget
        var dropsEveryRule = false
        if onsets > ZoneCost.onsetsPerZone {
            dropsEveryRule = true
            warnings.append("VTIMEZONE \"\(tzid)\": its rules would make about \(onsets) offset changes, more than " +
                "the \(ZoneCost.onsetsPerZone) a zone may; its RRULEs and RDATEs are ignored, each STANDARD or " +
                "DAYLIGHT holds from its DTSTART")
            onsets = observances.count
        } else if onsets > available {
            dropsEveryRule = true
            if isPerCalendar ? calendarsWarned.insert(calendar).inserted : !budgetWarned {
                budgetWarned = true
                warnings.append("VTIMEZONE \"\(tzid)\": the file's time zones would make more than " +
                    "\(ZoneCost.onsetsPerFile) offset changes together; in this zone and every later one that does " +
                    "not fit, RRULEs and RDATEs are ignored, each STANDARD or DAYLIGHT holds from its DTSTART")
            }
            onsets = observances.count
        }
        budget = max(0, budget - onsets)
        if isPerCalendar {
            calendarBudgets[calendar] = max(0, (calendarBudgets[calendar] ?? ZoneCost.onsetsPerFile) - onsets)
        }
        charged[chargeKey] = onsets
        guard dropsEveryRule || !doomed.isEmpty else { return component }
        let kept = vtimezone.copy { p, role in
            dropsEveryRule ? role == .other : !doomed.contains(p)
        }
        _ = consume component  // freed once copied
        return kept
    }

    /// How many instances a rule is asked for: enough to tell a zone rule from another.
    static let probe = 8

    /// The onsets a zone rule gives in the year from its DTSTART (at most
    /// `probe`; a rule that ends within that year counts as a real one), or nil for a rule that steps through hours,
    /// minutes or
    /// seconds or that libical could not walk in bounded time.
    static func onsetsInAYear(_ rule: RecurrenceRule, from dtstart: TimeValue) -> Int? {
        if rule.isSubDaily { return nil }
        guard case .walk(let perStep) = RuleCost.assess(rule, from: dtstart),
            perStep * Double(probe) < RuleCost.candidateBudget,
            let iterator = RecurrenceIterator(rule, from: dtstart)
        else { return nil }
        let end = dtstart.wallSeconds + 366 * 86400
        var n = 0
        while n < probe {
            let next = iterator.next()
            // A rule that ends within its first year costs what it gave: no more than `probe`.
            if next.isNull { return min(n, onsetsPerYear) }
            if next.wallSeconds >= end { break }
            n += 1
        }
        return n
    }
}
