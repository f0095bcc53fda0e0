import AgendaCore
import Foundation

/// One run of `ics-agenda alarms`: the state locked and read, the span
/// worked out (`AlarmSpan`), the calendars read over the window that holds
/// every occurrence whose alarms can ring in it, the alarms picked
/// (`AlarmSchedule`), and the run's time written before anything rings, so
/// that a run killed while it writes rings the same alarms the next time.
package struct AlarmRun {
    package let store: AlarmState
    package let clock: ZoneClock
    package let catchUp: TimeInterval
    /// `--default`: seconds before its start that a timed event without VALARM rings.
    package var defaultLead: Int?
    package var selection = Selection()

    /// A state time at most this far after now is a clock set back a little
    /// (NTP): nothing rings again. One further ahead is stale, not believed:
    /// it would swallow every alarm until then.
    static let aheadAllowed: TimeInterval = 60

    /// How much further than what was read the agenda of a run reaches, for
    /// reminders due long after they start.
    static let dueReach: TimeInterval = 366 * 86400

    package init(store: AlarmState, clock: ZoneClock, catchUp: TimeInterval) {
        self.store = store
        self.clock = clock
        self.catchUp = catchUp
    }

    package struct Outcome {
        package let schedule: AlarmSchedule
        package let span: AlarmSpan
        /// The state file held something else than a time: what to tell.
        package let stateWarning: String?
    }

    /// - Parameters:
    ///   - now: the run's time (whole seconds: the state keeps no fractions).
    ///   - since: `--since`, instead of the previous run's time.
    ///   - load: the occurrences of every input over a window, when alarms
    ///     ring in a span: each input is read as far as its alarms reach,
    ///     and the window of them all comes back.
    package func run(
        now: Date, since: Date?, load: (AgendaWindow, ClosedRange<Date>) throws -> (parts: [[Occurrence]],
            window: AgendaWindow)
    ) throws -> Outcome {
        // A state that is not a file is neither read nor written: the run is a first run, and keeps nothing.
        let refused = store.refusal()
        let lock = refused == nil ? try store.lock() : nil
        defer { lock?.release() }
        var previous: Date? = nil
        var stateWarning: String? = refused.map { "\($0); read as the first run, and this run's time is not kept" }
        switch refused == nil ? try store.read() : .none {
        case .none: break
        case .time(let time) where time > now + AlarmRun.aheadAllowed:
            // The clock was once set ahead (or the file copied from a machine that was):
            // read as the first run, or nothing would ring until that time.
            stateWarning = "\(store.path): the last run's time, \(AlarmState.text(time)), is after now; read as " +
                "the first run"
        case .time(let time): previous = time
        case .unreadable(let line, let reason): stateWarning = "\(store.path):\(line): \(reason); read as the first run"
        case .notAFile(let reason): stateWarning = "\(store.path): \(reason); read as the first run"
        }
        var span = AlarmSpan(previous: previous, since: since, now: now, catchUp: catchUp)
        let window = AlarmSchedule.window(after: span.countedFrom, through: now, clock: clock, defaultLead: defaultLead)
        var selection = self.selection
        // Cancelled and declined occurrences and completed reminders do not ring, whatever is listed.
        selection.showCompleted = false
        selection.showCancelled = false
        selection.showDeclined = false
        let loaded = try load(window, min(span.countedFrom, now)...now)
        // A reminder is listed under its due day, which may be long after
        // the start its alarms ring from: the agenda reaches a year further
        // (only what was read is listed, so it lists no more events).
        let listed = AgendaWindow(from: loaded.window.start, to: loaded.window.end + AlarmRun.dueReach, clock: clock)
        let sections = AgendaBuilder(window: listed, today: clock.civilDate(of: now), selection: selection)
            .build(parts: loaded.parts)
        if let missed = span.missedSpan {
            span.missed = AlarmSchedule(sections: sections, after: missed.from, through: missed.to, clock: clock,
                defaultLead: defaultLead).entries.count
        }
        let schedule = AlarmSchedule(sections: sections, after: span.from, through: now, clock: clock,
            defaultLead: defaultLead)
        // A clock set back does not move the time back: what rang stays rung.
        if refused == nil && (now > (previous ?? .distantPast) || stateWarning != nil) { try store.write(now) }
        return Outcome(schedule: schedule, span: span, stateWarning: stateWarning)
    }
}
