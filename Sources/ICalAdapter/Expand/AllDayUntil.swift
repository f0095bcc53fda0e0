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
    static func dated(_ rule: RecurrenceRule, calendarZone: Zone?) -> RecurrenceRule {
        let until = rule.until
        guard !until.isNull, !until.isDate else { return rule }
        var local = until
        if until.isUTC, let calendarZone {
            local = until.converted(to: calendarZone)
        }
        var date = TimeValue.null
        (date.year, date.month, date.day, date.isDate) = (local.year, local.month, local.day, true)
        var rewritten = rule
        rewritten.until = date
        return rewritten
    }
}
