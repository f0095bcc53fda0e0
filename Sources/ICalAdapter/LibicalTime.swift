import AgendaCore
import Foundation
internal import CLibical

/// A date or date-time value as libical read it, with the zone its TZID
/// resolved to (nil for UTC, floating and date values).
struct ZonedTime {
    var local: icaltimetype
    var zone: OpaquePointer?

    var isDate: Bool { local.is_date != 0 }
    var isUTC: Bool { icaltime_is_utc(local) != 0 }
    var isFloating: Bool { !isDate && !isUTC && zone == nil }

    /// The plain Swift value: an instant, a floating time or a date.
    var agendaTime: AgendaTime {
        if isDate { return .date(year: Int(local.year), month: Int(local.month), day: Int(local.day)) }
        if isUTC { return .instant(Date(timeIntervalSince1970: TimeInterval(utcSeconds(local)))) }
        if let zone {
            // The corresponding libical function is `icaltime_as_timet_with_zone`.
            return .instant(Date(timeIntervalSince1970: TimeInterval(icaltime_as_timet_with_zone(local, zone))))
        }
        return .floating(year: Int(local.year), month: Int(local.month), day: Int(local.day),
            hour: Int(local.hour), minute: Int(local.minute), second: Int(local.second))
    }

    /// The same wall-clock reading moved by whole days (nominal days: 09:00
    /// stays 09:00 across a DST change).
    func addingDays(_ days: Int) -> ZonedTime {
        var moved = local
        let date = CivilDate(year: Int(local.year), month: Int(local.month), day: Int(local.day)).adding(days: days)
        moved.year = Int32(date.year)
        moved.month = Int32(date.month)
        moved.day = Int32(date.day)
        return ZonedTime(local: moved, zone: zone)
    }

    /// The local calendar date of the value, as written.
    var civilDate: CivilDate { CivilDate(year: Int(local.year), month: Int(local.month), day: Int(local.day)) }
}

/// Seconds since the epoch of a UTC wall-clock reading.
func utcSeconds(_ t: icaltimetype) -> Int {
    let days = CivilDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)).daysSinceEpoch
    return days * 86400 + Int(t.hour) * 3600 + Int(t.minute) * 60 + Int(t.second)
}

/// An iCalendar DURATION split the way RFC 5545 3.3.6 counts it: days and
/// weeks are nominal (calendar days), hours, minutes and seconds exact.
struct NominalDuration {
    var days: Int
    var seconds: Int

    init(_ d: icaldurationtype) {
        let sign = d.is_neg != 0 ? -1 : 1
        days = sign * (Int(d.weeks) * 7 + Int(d.days))
        seconds = sign * (Int(d.hours) * 3600 + Int(d.minutes) * 60 + Int(d.seconds))
    }
}
