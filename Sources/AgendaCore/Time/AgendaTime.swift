import Foundation

/// A time as iCalendar states it: an absolute instant, a floating wall-clock
/// time, or a whole date.
///
/// Floating times and dates have no zone of their own; they are kept as their
/// wall-clock reading encoded as if it were UTC (`wall`), and take the display
/// zone only when they are placed (`instant(in:)`).
package struct AgendaTime: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// A UTC or zoned date-time: `wall` is the absolute instant.
        case instant
        /// A date-time without a zone: it happens at its wall-clock time wherever the user is.
        case floating
        /// A whole day (`VALUE=DATE`): `wall` is that day's midnight read as UTC.
        case date
    }

    /// Whole seconds (iCalendar has no finer unit) times four, plus the kind:
    /// one word, since an agenda holds hundreds of thousands of these.
    let raw: Int64

    package var kind: Kind {
        switch raw & 3 {
        case 0: .instant
        case 1: .floating
        default: .date
        }
    }

    /// The instant for `.instant`; the wall-clock reading, as if UTC, otherwise.
    package var wall: Date { Date(timeIntervalSince1970: TimeInterval(raw >> 2)) }

    package init(kind: Kind, wall: Date) {
        let code: Int64 =
            switch kind {
            case .instant: 0
            case .floating: 1
            case .date: 2
            }
        raw = Int64(wall.timeIntervalSince1970.rounded(.down)) << 2 | code
    }

    init(raw: Int64) {
        self.raw = raw
    }

    package static func instant(_ date: Date) -> AgendaTime { AgendaTime(kind: .instant, wall: date) }

    package static func date(year: Int, month: Int, day: Int) -> AgendaTime {
        AgendaTime(kind: .date, wall: CivilDate(year: year, month: month, day: day).midnightUTC)
    }

    package static func floating(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> AgendaTime {
        let base = CivilDate(year: year, month: month, day: day).midnightUTC
        return AgendaTime(kind: .floating, wall: base + TimeInterval(hour * 3600 + minute * 60 + second))
    }

    package var isDate: Bool { kind == .date }

    /// The day of the wall clock it shows (a date's own day).
    package var wallDate: CivilDate {
        CivilDate(daysSinceEpoch: Int((wall.timeIntervalSince1970 / 86400).rounded(.down)))
    }

    /// The absolute moment this time stands for when shown in `zone`.
    package func instant(in zone: ZoneClock) -> Date {
        kind == .instant ? wall : zone.instant(forWallClock: wall)
    }

    /// When it begins in `zone`: a date at the start of its day there
    /// (`ZoneClock.startOfDay`, also where midnight is skipped), else its instant.
    package func start(in zone: ZoneClock) -> Date {
        kind == .date ? zone.startOfDay(wallDate) : instant(in: zone)
    }

    /// This time moved by a whole number of seconds (exact duration).
    package func adding(seconds: Int) -> AgendaTime {
        AgendaTime(kind: kind, wall: wall + TimeInterval(seconds))
    }

    /// A key that identifies the same original start however it was written
    /// (used to match RECURRENCE-ID and EXDATE against generated instances).
    package var matchKey: Int64 { raw >> 2 }
}

extension Optional where Wrapped == AgendaTime {
    /// One word for an optional time: `Int64.min` stands for none.
    var packed: Int64 { self?.raw ?? Int64.min }

    init(packed: Int64) {
        self = packed == Int64.min ? nil : AgendaTime(raw: packed)
    }
}
