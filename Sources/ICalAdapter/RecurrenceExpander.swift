import AgendaCore
import Foundation
internal import CLibical

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

    /// The most instances one component may put into a window, and the most
    /// rule steps taken to get there: beyond them the series is cut, with a warning.
    static let maxInstances = 100_000
    static let maxSteps = 2_000_000

    let window: AgendaWindow
    /// How far before the window an instance may start and still reach into it.
    let lookBehind: TimeInterval

    /// Instances of `anchor`'s series that start before the window's end, in no particular order.
    ///
    /// With `keepLatestBefore` (reminders), the last instance before the
    /// window is kept too: it is the one that can be overdue today.
    func instances(of record: ComponentRecord, anchor: ZonedTime, keepLatestBefore: Bool = false, cut: inout String?) -> [Instance] {
        var result: [Instance] = []
        var latestBefore: (instance: Instance, at: Date)? = nil
        var seen = Set<Int64>()
        let excluded = Set(record.exdates.filter { !$0.isDate || anchor.isDate }.map { $0.matching(series: anchor).agendaTime.matchKey })
        let excludedDays = Set(record.exdates.filter { $0.isDate && !anchor.isDate }.map { $0.civilDate.dayKey })
        let clock = window.clock
        let earliest = window.start - lookBehind

        func consider(_ start: ZonedTime, periodEnd: AgendaTime? = nil) -> Bool {
            let time = start.agendaTime
            let key = time.matchKey
            guard !excluded.contains(key), !(excludedDays.contains(start.civilDate.dayKey)), seen.insert(key).inserted
            else { return true }
            let instant = time.instant(in: clock)
            if instant >= earliest && instant < window.end {
                result.append(Instance(start: start, startTime: time, periodEnd: periodEnd))
            } else if keepLatestBefore && instant < earliest && instant > (latestBefore?.at ?? .distantPast) {
                latestBefore = (Instance(start: start, startTime: time, periodEnd: periodEnd), instant)
            }
            return result.count < RecurrenceExpander.maxInstances
        }

        // RDATEs before DTSTART: an RDATE PERIOD that starts at DTSTART gives that instance its end.
        for rdate in record.rdates {
            var end: AgendaTime? = nil
            if let e = rdate.end {
                end = e.agendaTime
            } else if let d = rdate.periodDuration {
                end = RecurrenceExpander.end(of: rdate.start, adding: d)
            }
            _ = consider(rdate.start, periodEnd: end)
        }
        _ = consider(anchor)
        for rule in record.rrules.map(RecurrenceExpander.workingAroundLibical) {
            walk(rule, from: anchor, cut: &cut, consider)
        }
        if let latestBefore { result.append(latestBefore.instance) }
        if result.count >= RecurrenceExpander.maxInstances {
            cut = "more than \(RecurrenceExpander.maxInstances) occurrences in the window; only the first are listed"
        }
        return result
    }

    private func walk(_ rule: icalrecurrencetype, from anchor: ZonedTime, cut: inout String?, _ consider: (ZonedTime, AgendaTime?) -> Bool) {
        // The iterator compares UNTIL in the start's zone: give it the zone
        // (a UTC start already carries libical's UTC zone).
        var dtstart = anchor.local
        if let zone = anchor.zone { dtstart.zone = zone }
        guard let iterator = icalrecur_iterator_new(rule, dtstart) else { return }
        defer { icalrecur_iterator_free(iterator) }
        let clock = window.clock
        var steps = 0
        while true {
            let next = icalrecur_iterator_next(iterator)
            if icaltime_is_null_time(next) != 0 { return }
            steps += 1
            if steps > RecurrenceExpander.maxSteps {
                cut = "the rule was cut after \(RecurrenceExpander.maxSteps) steps"
                return
            }
            var local = next
            local.zone = anchor.local.zone  // keep UTC values UTC
            let start = ZonedTime(local: local, zone: anchor.zone)
            if start.agendaTime.instant(in: clock) >= window.end { return }
            if !consider(start, nil) { return }
        }
    }

    /// A rule libical would expand wrongly, rewritten to one with the same
    /// meaning that it expands right.
    ///
    /// `FREQ=YEARLY` with BYMONTHDAY and BYDAY but no BYMONTH: RFC 5545
    /// 3.3.10's table has BYMONTHDAY expand to every month and BYDAY limit
    /// (`BYDAY=MO,TU;BYMONTHDAY=8,...,14`: each Monday or Tuesday on the 8th
    /// to 14th of any month); libical 3.0 expands DTSTART's month only.
    /// `BYMONTH=1,...,12` says "every month" in words libical follows.
    static func workingAroundLibical(_ rule: icalrecurrencetype) -> icalrecurrencetype {
        let unset = Int16(ICAL_RECURRENCE_ARRAY_MAX.rawValue)
        func isSet<T>(_ list: T) -> Bool { withUnsafeBytes(of: list) { $0.load(as: Int16.self) != unset } }
        guard rule.freq == ICAL_YEARLY_RECURRENCE, isSet(rule.by_month_day), isSet(rule.by_day),
            !isSet(rule.by_month), !isSet(rule.by_year_day), !isSet(rule.by_week_no)
        else { return rule }
        var rewritten = rule
        withUnsafeMutableBytes(of: &rewritten.by_month) { bytes in
            let months = bytes.bindMemory(to: Int16.self)
            for i in 0..<12 { months[i] = Int16(i + 1) }
            months[12] = unset
        }
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
