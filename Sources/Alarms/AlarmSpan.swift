import AgendaCore
import Foundation

/// The span of time one `alarms` run rings: from the previous run's time
/// (or `--since`, or a minute ago on the first run) to now. What went off
/// while no run was made, more than `--catch-up` before now, is not rung
/// but counted, and told in one line; `--since` asks for every alarm after
/// it, and gets them all (those older than a minute and a half marked late).
package struct AlarmSpan: Sendable {
    /// Alarms after this, up to `now`, ring.
    package let from: Date
    package let now: Date
    /// Where the span began: the previous run's time, `--since`, or a minute ago.
    package let start: Date
    /// Alarms after `from` and up to `to` went off too long ago to ring.
    let missedSpan: (from: Date, to: Date)?
    /// How many did (set by the caller, who has the calendars).
    package var missed = 0
    /// Where the alarms looked at begin.
    var countedFrom: Date { missedSpan?.from ?? from }
    package let catchUp: TimeInterval

    /// Missed alarms are counted at most this far back: a machine off for a
    /// year is not made to read a year of calendars to say how many.
    static let maxMissedSpan: TimeInterval = 31 * 86400
    /// The span of a first run without `--since`.
    static let firstSpan: TimeInterval = 60

    package init(previous: Date?, since: Date?, now: Date, catchUp: TimeInterval) {
        self.now = now
        self.catchUp = catchUp
        // A clock set back rings nothing again: the span is empty until it passes the previous time.
        start = min(since ?? previous ?? now - AlarmSpan.firstSpan, now)
        let oldest = since == nil ? now - catchUp : start
        from = max(start, oldest)
        missedSpan = start < oldest ? (max(start, oldest - AlarmSpan.maxMissedSpan), oldest) : nil
    }

    /// `3 alarms missed since 2025-03-01T08:00:00+01:00 (more than 1h before this run): not rung`.
    package func missedLine(clock: ZoneClock) -> String {
        let iso = ISOTime(clock: clock)
        let seconds = Int(catchUp)
        let limit = seconds % 3600 == 0 ? "\(seconds / 3600)h" : seconds % 60 == 0 ? "\(seconds / 60)m" : "\(seconds)s"
        return "\(missed) alarm\(missed == 1 ? "" : "s") missed since \(iso.string(instant: start)) (more than " +
            "\(limit) before this run, --catch-up): not rung"
    }
}
