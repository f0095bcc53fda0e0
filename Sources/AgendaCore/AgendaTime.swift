import Foundation

/// A time as iCalendar states it: an absolute instant, a floating wall-clock
/// time, or a whole date.
///
/// Floating times and dates have no zone of their own; they are kept as their
/// wall-clock reading encoded as if it were UTC (`wall`), and take the display
/// zone only when they are placed (`instant(in:)`).
public struct AgendaTime: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A UTC or zoned date-time: `wall` is the absolute instant.
        case instant
        /// A date-time without a zone: it happens at its wall-clock time wherever the user is.
        case floating
        /// A whole day (`VALUE=DATE`): `wall` is that day's midnight read as UTC.
        case date
    }

    public let kind: Kind
    /// The instant for `.instant`; the wall-clock reading, as if UTC, otherwise.
    public let wall: Date

    public init(kind: Kind, wall: Date) {
        self.kind = kind
        self.wall = wall
    }

    public static func instant(_ date: Date) -> AgendaTime { AgendaTime(kind: .instant, wall: date) }

    public static func date(year: Int, month: Int, day: Int) -> AgendaTime {
        AgendaTime(kind: .date, wall: CivilDate(year: year, month: month, day: day).midnightUTC)
    }

    public static func floating(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> AgendaTime {
        let base = CivilDate(year: year, month: month, day: day).midnightUTC
        return AgendaTime(kind: .floating, wall: base + TimeInterval(hour * 3600 + minute * 60 + second))
    }

    public var isDate: Bool { kind == .date }

    /// The absolute moment this time stands for when shown in `zone`.
    public func instant(in zone: ZoneClock) -> Date {
        kind == .instant ? wall : zone.instant(forWallClock: wall)
    }

    /// This time moved by a whole number of seconds (exact duration).
    public func adding(seconds: Int) -> AgendaTime {
        AgendaTime(kind: kind, wall: wall + TimeInterval(seconds))
    }

    /// A key that identifies the same original start however it was written
    /// (used to match RECURRENCE-ID and EXDATE against generated instances).
    public var matchKey: Int64 { Int64(wall.timeIntervalSince1970.rounded(.down)) }
}
