import AgendaCore
import Foundation

/// How one component's instances get their end (events) or due time
/// (reminders) from their start, per RFC 5545: DTEND or DUE keep the exact
/// distance from DTSTART, DURATION counts days on the wall clock, and with
/// neither a date lasts one day and a date-time none.
struct InstanceTiming {
    enum Offset {
        case none
        /// Exact seconds after the start.
        case exact(Int)
        /// Whole days after a date start.
        case days(Int)
        /// A DURATION: nominal days, then exact seconds.
        case nominal(NominalDuration)
    }

    let kind: ComponentRecord.Kind
    /// The value the series is expanded from: DTSTART, or DUE for a reminder without one.
    let anchor: ZonedTime?
    /// Whether the anchor is DTSTART (false: a reminder anchored on DUE).
    let anchoredOnStart: Bool
    /// Events: start → end. Reminders anchored on DTSTART: start → due.
    let offset: Offset

    init(record: ComponentRecord) {
        kind = record.kind
        if var start = record.dtstart {
            let target = record.kind == .event ? record.dtend : record.due
            // A floating DTSTART beside a zoned DTEND/DUE is read in that zone (RFC 5545 does not forbid the mix).
            if let target { start = start.read(inZoneOf: target) }
            anchor = start
            anchoredOnStart = true
            let minimumDays = record.kind == .event ? 1 : 0
            if let target {
                if start.isDate {
                    offset = .days(max(target.civilDate.daysSinceEpoch - start.civilDate.daysSinceEpoch, minimumDays))
                } else {
                    offset = .exact(max(InstanceTiming.seconds(from: start, to: target), 0))
                }
            } else if let duration = record.duration {
                offset = start.isDate ? .days(max(duration.days, minimumDays)) : .nominal(duration)
            } else if record.kind == .event {
                offset = start.isDate ? .days(1) : .exact(0)
            } else {
                offset = .none
            }
        } else {
            anchor = record.kind == .reminder ? record.due : nil
            anchoredOnStart = false
            offset = .none
        }
    }

    /// How long before the window an instance can start and still reach into it.
    var lookBehind: TimeInterval {
        let day: TimeInterval = 86400
        switch offset {
        case .none: return 2 * day
        case .exact(let s): return TimeInterval(s) + 2 * day
        case .days(let d): return TimeInterval(d + 2) * day
        case .nominal(let d): return TimeInterval(d.days + 2) * day + TimeInterval(max(d.seconds, 0))
        }
    }

    /// - Parameter startTime: `start.agendaTime`, when the caller has it (it costs several zone lookups).
    func occurrence(_ item: Occurrence.Item, at start: ZonedTime, startTime: AgendaTime? = nil,
        recurrenceID: AgendaTime?) -> Occurrence {
        let startTime = startTime ?? start.agendaTime
        let moved = apply(offset, to: start, startTime)
        switch kind {
        case .event:
            return Occurrence(item: item, start: startTime, end: moved ?? startTime, recurrenceID: recurrenceID)
        case .reminder:
            if anchoredOnStart {
                return Occurrence(item: item, start: startTime, end: nil, due: moved, recurrenceID: recurrenceID)
            }
            return Occurrence(item: item, start: nil, end: nil, due: startTime, recurrenceID: recurrenceID)
        }
    }

    private func apply(_ offset: Offset, to start: ZonedTime, _ startTime: AgendaTime) -> AgendaTime? {
        switch offset {
        case .none: return nil
        case .exact(let s): return startTime.adding(seconds: s)
        case .days(let d): return start.addingDays(d).agendaTime
        case .nominal(let d): return RecurrenceExpander.end(of: start, adding: d)
        }
    }

    /// Exact seconds between two values; floating and date values are
    /// compared by their wall clocks, and a floating value beside a zoned or
    /// UTC one is read in that one's zone.
    static func seconds(from a: ZonedTime, to b: ZonedTime) -> Int {
        let ta = a.read(inZoneOf: b).agendaTime, tb = b.read(inZoneOf: a).agendaTime
        return Int(tb.wall.timeIntervalSince(ta.wall))
    }
}
