import AgendaCore
import Foundation

/// The instances of one series as its RDATEs, DTSTART and rules give them
/// (`RecurrenceExpander.instances`): less EXDATEs, each listed once, those
/// that start before the window's end, up to `limit`.
struct InstanceCollector {
    let window: AgendaWindow
    /// Where instances begin to count: the window's start less the look behind.
    let earliest: Date
    /// How many instances may be listed.
    let limit: Int
    /// Before this, an instance is too early to reach into the window (the
    /// look behind leaves two days for zones): such instances have a limit
    /// of their own, so that a sub-daily series does not spend the window's
    /// rows before it starts.
    let reachesFrom: Date
    /// Reminders keep the latest instance before the window too: it is the one that can be overdue today.
    let keepLatestBefore: Bool
    private let excluded: Set<Int64>
    private let excludedDays: Set<Int>
    private var result: [RecurrenceExpander.Instance] = []
    private var latestBefore: (instance: RecurrenceExpander.Instance, at: Date)? = nil
    /// The instants listed, and the local date each was written on in its
    /// zone: two dates of one zone at the same instant are two instances (a
    /// whole local day a zone skipped, Pacific/Apia's 2011-12-30: its 09:00
    /// moves forward by the gap, RFC 5545 3.3.5, onto the next day's 09:00,
    /// and both are listed, as the reference does).
    private var seen: [Int64: (date: Int, zone: Zone?)] = [:]
    /// Instances listed before `reachesFrom`.
    private var before = 0

    init(record: ComponentRecord, anchor: ZonedTime, window: AgendaWindow, earliest: Date, limit: Int,
        reachesFrom: Date, keepLatestBefore: Bool) {
        self.window = window
        self.earliest = earliest
        self.limit = limit
        self.reachesFrom = reachesFrom
        self.keepLatestBefore = keepLatestBefore
        excluded = Set(record.exdates.filter { !$0.isDate || anchor.isDate }
            .map { $0.matching(series: anchor).agendaTime.matchKey })
        excludedDays = Set(record.exdates.filter { $0.isDate && !anchor.isDate }.map { $0.civilDate.dayKey })
    }

    /// The instances listed that count against `limit`.
    var listed: Int { result.count - before }
    var isFull: Bool { listed >= limit }

    /// Takes one instance; false once no more are wanted.
    /// - Parameter time: `start.agendaTime` when the caller has it (it costs several zone lookups).
    mutating func consider(_ start: ZonedTime, _ time: AgendaTime? = nil, periodEnd: AgendaTime? = nil) -> Bool {
        let time = time ?? start.agendaTime
        let key = time.matchKey
        guard !excluded.contains(key), !(excludedDays.contains(start.civilDate.dayKey)) else { return true }
        let t = start.local
        // The local date's fields packed (not days: this runs for every instance).
        let date = (t.year &* 13 &+ t.month) &* 32 &+ t.day
        if let earlier = seen.updateValue((date, start.zone), forKey: key) {
            // An hour a zone skips (an hourly rule's 02:00 on the day
            // clocks go forward) is the instance of 03:00: one.
            guard start.zone != nil, earlier.zone == start.zone, earlier.date != date else { return true }
        }
        let instant = time.instant(in: window.clock)
        if instant >= earliest && instant < window.end {
            if instant < reachesFrom {
                guard before < limit else { return true }
                before += 1
            }
            result.append(RecurrenceExpander.Instance(start: start, startTime: time, periodEnd: periodEnd))
        } else if keepLatestBefore && instant < earliest && instant > (latestBefore?.at ?? .distantPast) {
            latestBefore = (RecurrenceExpander.Instance(start: start, startTime: time, periodEnd: periodEnd), instant)
        }
        return result.count - before < limit
    }

    /// What was listed, with the latest instance before the window last
    /// (which from then on counts as listed too).
    mutating func finish() -> [RecurrenceExpander.Instance] {
        if let latestBefore { result.append(latestBefore.instance) }
        latestBefore = nil
        return result
    }
}
