import AgendaCore
import Foundation

/// A date or date-time value as libical read it, with the zone its TZID
/// resolved to (nil for UTC, floating and date values).
struct ZonedTime {
    var local: TimeValue
    var zone: Zone?

    var isDate: Bool { local.isDate }
    var isUTC: Bool { local.isUTC }
    var isFloating: Bool { !isDate && !isUTC && zone == nil }

    /// The plain Swift value: an instant, a floating time or a date.
    var agendaTime: AgendaTime {
        if isDate { return .date(year: local.year, month: local.month, day: local.day) }
        if isUTC { return .instant(Date(timeIntervalSince1970: TimeInterval(local.wallSeconds))) }
        if let zone {
            return .instant(Date(timeIntervalSince1970: TimeInterval(ZonedTime.instantSeconds(of: local, in: zone))))
        }
        return .floating(year: local.year, month: local.month, day: local.day,
            hour: local.hour, minute: local.minute, second: local.second)
    }

    /// The instant of a wall-clock reading in `zone`, as RFC 5545 3.3.5 reads
    /// the two hours a change of offset leaves unclear: a time that occurs
    /// twice is its first occurrence, and a time that does not occur (in a
    /// gap) is read with the offset before the gap, which moves it forward.
    /// libical's `icaltime_as_timet_with_zone` picks the other way in both.
    static func instantSeconds(of local: TimeValue, in zone: Zone) -> Int {
        resolve(local, in: zone).seconds
    }

    /// `instantSeconds`, and whether the wall clock falls in the zone's gap
    /// (the hour the clocks skip when they go forward, which no instant shows).
    static func resolve(_ local: TimeValue, in zone: Zone) -> (seconds: Int, inGap: Bool) {
        let wall = local.wallSeconds
        let before = offset(of: zone, atUTC: wall - 86400), after = offset(of: zone, atUTC: wall + 86400)
        if before == after { return (wall - before, false) }  // no change of offset near this day
        // Of the offsets around the change, those under which this wall clock exists.
        let instants = [before, after].filter { offset(of: zone, atUTC: wall - $0) == $0 }.map { wall - $0 }
        return (instants.min() ?? wall - before, instants.isEmpty)
    }

    /// The wall clock (seconds, as if UTC) an instant shows in `zone`.
    static func wallSeconds(ofInstant instant: Int, in zone: Zone) -> Int {
        instant + offset(of: zone, atUTC: instant)
    }

    /// The zone's UTC offset, in seconds, at an instant.
    ///
    /// An instant from 2400 on is asked as the same moment 400 years (or a
    /// multiple) earlier: the Gregorian calendar repeats every 400 years, and
    /// so do yearly zone rules, whereas libical would expand the zone's rules
    /// year by year up to it (about a second for the year 4050, found by the
    /// fuzzer in a file with mistyped years).
    private static func offset(of zone: Zone, atUTC instant: Int) -> Int {
        var seconds = instant
        if seconds >= ZonedTime.farFuture {
            seconds -= ((seconds - ZonedTime.farFuture) / ZonedTime.gregorianCycle + 1) * ZonedTime.gregorianCycle
        }
        return zone.utcOffset(atUTC: seconds)
    }

    /// 2400-01-01T00:00:00Z, and 400 Gregorian years (146,097 days), in seconds.
    static let farFuture = 13_569_465_600
    static let gregorianCycle = 146_097 * 86400

    /// The same wall-clock reading moved by whole days (nominal days: 09:00
    /// stays 09:00 across a DST change).
    func addingDays(_ days: Int) -> ZonedTime {
        var moved = local
        moved.setDate(local.civilDate.adding(days: days))
        return ZonedTime(local: moved, zone: zone)
    }

    /// This value read in `other`'s zone when this one is floating and the
    /// other zoned or UTC; otherwise unchanged. RFC 5545 does not forbid a
    /// floating DTEND beside a zoned DTSTART (or the reverse): reading the
    /// floating one in the other's zone is the only reading that keeps the
    /// two in order.
    func read(inZoneOf other: ZonedTime) -> ZonedTime {
        guard isFloating, !other.isDate, !other.isFloating else { return self }
        var moved = self
        if other.isUTC { moved.local.zoneMark = other.local.zoneMark } else { moved.zone = other.zone }
        return moved
    }

    /// This value (an EXDATE or RECURRENCE-ID) in the kind of the series it
    /// names, whose first instance is `anchor`, so that its `agendaTime`
    /// matches the instance's: a floating value is read in a zoned series'
    /// zone, and a zoned or UTC value beside a floating series is taken by
    /// its wall clock as written (the series read in its zone). A date-time
    /// beside an all-day series (Outlook writes its RECURRENCE-IDs and
    /// EXDATEs at local midnight) names the day of its local date.
    func matching(series anchor: ZonedTime) -> ZonedTime {
        if anchor.isDate && !isDate {
            var day = local
            (day.isDate, day.hour, day.minute, day.second, day.zoneMark) = (true, 0, 0, 0, nil)
            return ZonedTime(local: day, zone: nil)
        }
        if isDate || anchor.isDate { return self }
        if isFloating { return read(inZoneOf: anchor) }
        guard anchor.isFloating else { return self }
        var wall = local
        wall.zoneMark = nil
        return ZonedTime(local: wall, zone: nil)
    }

    /// What `matching(series:)` needs of a series' first instance (date or
    /// not, UTC or not, its zone), kept small: the loader holds one a series.
    struct Shape {
        let zone: Zone?
        let marker: Zone?
        let isDate: Bool

        /// A value of this shape (its date is of no account).
        var asAnchor: ZonedTime {
            var t = TimeValue(wallSeconds: 946_684_800, isDate: isDate)  // 2000-01-01
            t.zoneMark = marker
            return ZonedTime(local: t, zone: zone)
        }
    }

    var shape: Shape { Shape(zone: zone, marker: local.zoneMark, isDate: isDate) }

    /// The local calendar date of the value, as written.
    var civilDate: CivilDate { local.civilDate }
}
