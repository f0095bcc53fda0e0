import Foundation

/// ISO 8601 text for JSON: dates as `YYYY-MM-DD`, timed values with their
/// offset in the display zone (`2025-03-01T09:00:00+01:00`).
public struct ISOTime: Sendable {
    public let clock: ZoneClock

    public init(clock: ZoneClock) {
        self.clock = clock
    }

    public func string(_ time: AgendaTime) -> String {
        if time.isDate {
            return CivilDate(daysSinceEpoch: Int((time.wall.timeIntervalSince1970 / 86400).rounded(.down))).iso
        }
        return string(instant: time.instant(in: clock))
    }

    public func string(instant: Date) -> String {
        let offset = clock.offset(at: instant)
        let wall = Int((instant.timeIntervalSince1970).rounded(.down)) + offset
        var days = wall / 86400
        var secs = wall % 86400
        if secs < 0 {
            secs += 86400
            days -= 1
        }
        let date = CivilDate(daysSinceEpoch: days)
        let sign = offset < 0 ? "-" : "+"
        let off = abs(offset)
        return "\(date.iso)T\(pad(secs / 3600, 2)):\(pad(secs / 60 % 60, 2)):\(pad(secs % 60, 2))"
            + "\(sign)\(pad(off / 3600, 2)):\(pad(off / 60 % 60, 2))"
    }
}
