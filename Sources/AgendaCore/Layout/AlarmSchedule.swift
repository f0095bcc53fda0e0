import Foundation
import Synchronization

/// `ics-agenda alarms`: the alarms (VALARM) that go off in a span of time,
/// picked from an agenda built over the window that holds every occurrence
/// whose alarms can (`window`).
///
/// An alarm goes off at its TRIGGER: relative to the occurrence's start, or
/// with `RELATED=END` to its end (a reminder's DTSTART and DUE), days on the
/// wall clock of that time's own zone (`Alarm.dayZone`: the display zone's
/// for a floating or all-day time) and seconds after; or at an absolute time,
/// once, whatever the occurrences. `REPEAT` and `DURATION` add further times.
/// Cancelled and declined occurrences and completed reminders do not ring
/// (the agenda's selection leaves them out), nor does a time at or before
/// the alarm's `ACKNOWLEDGED` (RFC 9074).
package struct AlarmSchedule: Sendable {
    /// One time an alarm goes off.
    package struct Entry: Sendable {
        /// The occurrence's row, under the day it starts (a reminder: is due):
        /// JSON writes it as the agenda does.
        package let row: AgendaRow
        package let occurrence: Occurrence
        package let alarm: Alarm
        /// When it goes off, and when the occurrence starts and ends.
        package let time: Date
        package let start: Date
        package let end: Date
        /// 0 for the trigger itself, then each `REPEAT`.
        package let repetition: Int
        /// Which of its component's alarms (in the order written), for telling firings apart.
        let alarmIndex: Int
        /// It went off a while before the run (`AlarmSchedule.lateAfter`): the machine was off or asleep.
        package var late = false
    }

    private struct AbsoluteKey: Hashable {
        enum Series: Hashable {
            /// A series' instances and overrides.
            case uid(String)
            /// A one-off component, or one without UID.
            case item(ObjectIdentifier)
        }
        let series: Series
        let calendar: ObjectIdentifier
        let alarm: Alarm
        let repetition: Int
    }

    /// How far past the span the occurrences are read at least, after and
    /// before it. Each input is read further as far as its own alarms
    /// reach, and a day more for zones and wall-clock days
    /// (`CalendarLoader.ringing`, `AlarmReach`): a calendar of ten-minute
    /// alarms costs about two days' agenda, one without alarms only the
    /// span's, so that a run every minute is cheap.
    static let lookAhead: TimeInterval = 3600
    package static let lookBehind: TimeInterval = 3600
    /// An alarm that went off more than this before the run is `late`.
    static let lateAfter: TimeInterval = 90

    package let entries: [Entry]
    package let overlaps: Overlaps
    package let occurrences: AgendaOccurrences

    /// The occurrences whose alarms, or the `--default` one (`defaultLead`
    /// seconds before), can go off after `from`, up to `to`, as far as
    /// `lookAhead` and `lookBehind` reach.
    package static func window(after from: Date, through to: Date, clock: ZoneClock,
        defaultLead: Int? = nil) -> AgendaWindow {
        AgendaWindow(from: from - lookBehind, to: to + max(lookAhead, TimeInterval(defaultLead ?? 0) + 86400),
            clock: clock)
    }

    /// - Parameters:
    ///   - sections: the agenda of `window(after:through:)`, one section (no grouping).
    ///   - defaultLead: `--default`: seconds before its start that a timed
    ///     event without VALARM of its own rings; nil: none.
    package init(sections: [AgendaSection], after from: Date, through to: Date, clock: ZoneClock,
        defaultLead: Int? = nil) {
        var found: [(entry: Entry, order: Int)] = []
        // An absolute alarm is one alarm, however many instances of its
        // series were listed (and overrides, that ring their series'
        // alarms, and the instances `--format ics` writes one by one): the
        // one kept is the instance it is for, the first that starts at or
        // after its trigger, else the last before it (the same for each of
        // its repeats).
        var absolute: [AbsoluteKey: Int] = [:]
        for section in sections {
            for row in section.rows where row.isFirstListed {
                let o = section.occurrences[row]
                let alarms = AlarmSchedule.alarms(of: o, defaultLead: defaultLead)
                guard !alarms.isEmpty else { continue }
                // A reminder with no date rings only its absolute alarms.
                let bounds = AlarmSchedule.bounds(of: o, clock: clock)
                let listed = row.listed(under: AlarmSchedule.day(of: o, clock: clock) ?? row.day)
                for (index, alarm) in alarms.enumerated() where alarm.action != "NONE" {
                    for (repetition, time) in AlarmSchedule.times(of: alarm, bounds: bounds, clock: clock, after: from,
                        through: to)
                    where !(alarm.acknowledged.map { $0 >= time } ?? false) {
                        var entry = Entry(row: listed, occurrence: o, alarm: alarm, time: time,
                            start: bounds?.start ?? time,
                            end: bounds?.end ?? time, repetition: repetition, alarmIndex: index)
                        entry.late = to.timeIntervalSince(time) > AlarmSchedule.lateAfter
                        guard case .absolute = alarm.trigger else {
                            found.append((entry, found.count))
                            continue
                        }
                        // A series' instances and overrides are one; one-off components that share a UID (a
                        // conference's talks) are not.
                        let series: AbsoluteKey.Series = o.recurrenceID == nil || o.uid.isEmpty
                            ? .item(o.itemIdentity) : .uid(o.uid)
                        let key = AbsoluteKey(series: series, calendar: ObjectIdentifier(o.calendar), alarm: alarm,
                            repetition: repetition)
                        guard let kept = absolute[key] else {
                            absolute[key] = found.count
                            found.append((entry, found.count))
                            continue
                        }
                        if AlarmSchedule.isFor(entry, ratherThan: found[kept].entry) { found[kept].entry = entry }
                    }
                }
            }
        }
        found.sort { ($0.entry.time, $0.order) < ($1.entry.time, $1.order) }
        entries = found.map(\.entry)
        overlaps = sections.first?.overlaps ?? .none
        occurrences = sections.first?.occurrences ?? .none
    }

    /// Whether an absolute alarm is for `a`'s instance rather than `b`'s.
    static func isFor(_ a: Entry, ratherThan b: Entry) -> Bool {
        guard case .absolute(let trigger) = a.alarm.trigger else { return false }
        return isFor(instantStarting: a.start, ratherThan: b.start, trigger: trigger)
    }

    /// Whether an alarm at `trigger` is for the instance starting at `a`
    /// rather than the one at `b`: the first that starts at or after it,
    /// else the last before it (`--format ics` writes it with that one).
    package static func isFor(instantStarting a: Date, ratherThan b: Date, trigger: Date) -> Bool {
        switch (a >= trigger, b >= trigger) {
        case (true, true): a < b
        case (false, false): a > b
        case (let aAfter, _): aAfter
        }
    }

    /// The occurrence's own alarms, else the default one of a timed event.
    static func alarms(of o: Occurrence, defaultLead: Int?) -> [Alarm] {
        switch o.item {
        case .event(let e):
            if !e.alarms.isEmpty { return e.alarms }
            guard let lead = defaultLead, let start = o.start, !start.isDate else { return [] }
            return [Alarm(trigger: .relative(days: 0, seconds: -lead, toEnd: false), action: "DISPLAY")]
        case .reminder(let r):
            return r.alarms
        }
    }

    /// The day an occurrence starts on the display zone's wall clock (a
    /// reminder: the day it is due, else starts), not the first day of the
    /// window the alarms were looked for in.
    static func day(of o: Occurrence, clock: ZoneClock) -> CivilDate? {
        guard let anchor = o.kind == .event ? o.start : o.anchor else { return nil }
        return anchor.isDate ? anchor.wallDate : clock.civilDate(of: anchor.instant(in: clock))
    }

    /// What an alarm is relative to: an event's start and end; a reminder's
    /// DTSTART and DUE (either standing for the other when missing).
    static func bounds(of o: Occurrence, clock: ZoneClock) -> (start: Date, end: Date)? {
        switch o.item {
        case .event: return o.span(in: clock)
        case .reminder:
            guard let first = o.start ?? o.due else { return nil }
            return (first.start(in: clock), (o.due ?? first).start(in: clock))
        }
    }

    /// When an alarm first goes off for one occurrence; nil for a relative
    /// alarm of an occurrence without dates.
    static func trigger(of alarm: Alarm, bounds: (start: Date, end: Date)?, clock: ZoneClock) -> Date? {
        switch alarm.trigger {
        case .absolute(let time): return time
        case .relative(let days, let seconds, let toEnd):
            guard let bounds else { return nil }
            let base = toEnd ? bounds.end : bounds.start
            let counting = days == 0 ? clock : AlarmSchedule.dayClock(alarm.dayZone) ?? clock
            let moved = days == 0 ? base : counting.instant(forWallClock: counting.wallClock(of: base)
                + TimeInterval(days) * 86400)
            return moved + TimeInterval(seconds)
        }
    }

    /// A relative alarm's offset for one occurrence, in seconds from the
    /// time it counts from: `--format ics` writes it so when the days count
    /// on a zone its UTC times do not keep (`-P1D` across a change of clocks is 23 or 25 hours).
    package static func exactOffset(of alarm: Alarm, for o: Occurrence, clock: ZoneClock) -> Int? {
        guard case .relative(_, _, let toEnd) = alarm.trigger, let bounds = bounds(of: o, clock: clock),
            let time = trigger(of: alarm, bounds: bounds, clock: clock)
        else { return nil }
        return Int(time.timeIntervalSince(toEnd ? bounds.end : bounds.start).rounded())
    }

    /// The clocks of the zones alarms count days in, made once each (a
    /// table of a zone's offsets costs more than the few alarms of a run).
    private static let dayClocks = Mutex<[String: ZoneClock]>([:])

    /// The clock of an alarm's `dayZone`; nil when it has none (or none Foundation knows).
    static func dayClock(_ name: String?) -> ZoneClock? {
        guard let name else { return nil }
        return dayClocks.withLock { clocks in
            if let known = clocks[name] { return known }
            guard let zone = TimeZone(identifier: name) else { return nil }
            let made = ZoneClock(zone)
            clocks[name] = made
            return made
        }
    }

    /// The times an alarm goes off for one occurrence after `from`, up to
    /// `to`, with their repetitions (0, the trigger; then each repeat):
    /// picked by arithmetic, not listed, since a series may have thousands
    /// of instances and an alarm a hundred repeats. An alarm relative to an
    /// occurrence without dates (`bounds` nil) goes off never.
    static func times(of alarm: Alarm, bounds: (start: Date, end: Date)?, clock: ZoneClock, after from: Date,
        through to: Date)
        -> [(repetition: Int, time: Date)]
    {
        guard let first = trigger(of: alarm, bounds: bounds, clock: clock) else { return [] }
        let repeats = alarm.repeatInterval > 0 ? min(max(alarm.repeatCount, 0), Alarm.maxRepeats) : 0
        guard repeats > 0 else { return first > from && first <= to ? [(0, first)] : [] }
        let step = TimeInterval(alarm.repeatInterval)
        guard first + TimeInterval(repeats) * step > from, first <= to else { return [] }
        // The first repetition after `from`, and the last up to `to`.
        let low = first > from ? 0 : Int((from.timeIntervalSince(first) / step).rounded(.down)) + 1
        let high = min(repeats, Int((to.timeIntervalSince(first) / step).rounded(.down)))
        guard low <= high else { return [] }
        return (low...high).map { ($0, first + TimeInterval($0) * step) }.filter { $0.time > from && $0.time <= to }
    }
}
