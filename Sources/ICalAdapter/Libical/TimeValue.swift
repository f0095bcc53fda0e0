import AgendaCore
internal import CLibical

/// A DATE or DATE-TIME value as libical holds it (`icaltimetype`): the
/// fields as written, whether it is a date, and libical's zone mark (UTC,
/// or the zone the iterator and conversions read it in). A plain value:
/// nothing to free.
struct TimeValue {
    var c: icaltimetype

    init(_ c: icaltimetype) { self.c = c }

    /// The null time libical returns for "none" (no UNTIL, the end of an iterator).
    static var null: TimeValue { TimeValue(icaltime_null_time()) }

    /// The reading `seconds` after 1970-01-01T00:00 (a wall clock, or UTC
    /// with `zone` UTC), as a date when `isDate` (its time of day dropped).
    init(wallSeconds seconds: Int, isDate: Bool = false, zone: Zone? = nil) {
        c = icaltimetype(wallSeconds: seconds, isDate: isDate, zone: zone?.pointer)
    }

    /// The value of the text `20250301T090000`, as libical reads it (null when it cannot).
    init(reading text: String) {
        c = icaltime_from_string(text)
        icalerror_clear_errno()
    }

    /// The wall clock an instant (seconds since the epoch) shows in `zone`,
    /// marked with that zone. The corresponding libical function is
    /// `icaltime_from_timet_with_zone`.
    init(instant seconds: Int, in zone: Zone) {
        c = icaltime_from_timet_with_zone(time_t(seconds), 0, zone.pointer)
    }

    var isNull: Bool { icaltime_is_null_time(c) != 0 }
    var isUTC: Bool { icaltime_is_utc(c) != 0 }

    var isDate: Bool {
        get { c.is_date != 0 }
        set { c.is_date = newValue ? 1 : 0 }
    }

    var year: Int {
        get { Int(c.year) }
        set { c.year = Int32(newValue) }
    }
    var month: Int {
        get { Int(c.month) }
        set { c.month = Int32(newValue) }
    }
    var day: Int {
        get { Int(c.day) }
        set { c.day = Int32(newValue) }
    }
    var hour: Int {
        get { Int(c.hour) }
        set { c.hour = Int32(newValue) }
    }
    var minute: Int {
        get { Int(c.minute) }
        set { c.minute = Int32(newValue) }
    }
    var second: Int {
        get { Int(c.second) }
        set { c.second = Int32(newValue) }
    }

    /// libical's zone mark: UTC, a zone, or none (floating, or a date).
    var zoneMark: Zone? {
        get { c.zone.map(Zone.init) }
        set { c.zone = newValue?.pointer }
    }

    /// The local calendar date of the value, as written.
    var civilDate: CivilDate { CivilDate(year: year, month: month, day: day) }

    /// The date fields set to `date`, the rest unchanged.
    mutating func setDate(_ date: CivilDate) {
        (c.year, c.month, c.day) = (Int32(date.year), Int32(date.month), Int32(date.day))
    }

    /// The wall-clock fields as seconds since 1970-01-01T00:00 (as if UTC).
    var wallSeconds: Int {
        civilDate.daysSinceEpoch * 86400 + hour * 3600 + minute * 60 + second
    }

    /// This value with its wall-clock fields set to `seconds` (as if UTC),
    /// its kind and zone mark kept.
    func at(wallSeconds seconds: Int) -> TimeValue {
        var t = self
        let reading = icaltimetype(wallSeconds: seconds)
        (t.c.year, t.c.month, t.c.day) = (reading.year, reading.month, reading.day)
        (t.c.hour, t.c.minute, t.c.second) = (reading.hour, reading.minute, reading.second)
        return t
    }

    /// The same instant in `zone`. The corresponding libical function is
    /// `icaltime_convert_to_zone`.
    func converted(to zone: Zone) -> TimeValue {
        TimeValue(icaltime_convert_to_zone(c, zone.pointer))
    }

    /// Whether the fields make a real time: libical keeps out-of-range
    /// fields as written ("2025-13-01" becomes month 13) and would roll
    /// them over into another date.
    var isReal: Bool {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= CivilDate.daysIn(year: year, month: month)
        else { return false }
        return isDate || ((0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second))
    }
}

extension icaltimetype {
    /// The reading `seconds` after 1970-01-01T00:00 (a wall clock, or UTC
    /// with `zone` UTC), as a date when `isDate` (its time of day dropped).
    init(wallSeconds seconds: Int, isDate: Bool = false, zone: OpaquePointer? = nil) {
        self.init()
        let date = CivilDate(daysSinceEpoch: Int((Double(seconds) / 86400).rounded(.down)))
        let secondOfDay = seconds - date.daysSinceEpoch * 86400
        (year, month, day) = (Int32(date.year), Int32(date.month), Int32(date.day))
        if isDate {
            is_date = 1
        } else {
            (hour, minute, second) = (Int32(secondOfDay / 3600), Int32(secondOfDay / 60 % 60), Int32(secondOfDay % 60))
        }
        self.zone = zone
    }
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
