internal import CLibical

/// The UNTIL of an all-day series written as a date-time, read as the date
/// its writer meant.
///
/// RFC 5545 3.3.10 asks for a DATE UNTIL beside a DATE DTSTART. Exchange and
/// Outlook write the UTC time of local midnight at the start of the last day
/// instead (`UNTIL=20240728T230000Z` for "until 29 July" in London), so
/// taking UTC's date loses the last instance anywhere east of UTC. The time
/// is read in the calendar's own zone (its one VTIMEZONE, else its
/// X-WR-TIMEZONE), and every day that starts by then is in the series;
/// with no zone of its own, UTC's date is taken, as before.
enum AllDayUntil {
    static func dated(_ rule: icalrecurrencetype, calendarZone: OpaquePointer?) -> icalrecurrencetype {
        guard icaltime_is_null_time(rule.until) == 0, rule.until.is_date == 0 else { return rule }
        var local = rule.until
        if icaltime_is_utc(rule.until) != 0, let calendarZone {
            local = icaltime_convert_to_zone(rule.until, calendarZone)
        }
        var date = icaltime_null_time()
        (date.year, date.month, date.day, date.is_date) = (local.year, local.month, local.day, 1)
        var rewritten = rule
        rewritten.until = date
        return rewritten
    }
}
