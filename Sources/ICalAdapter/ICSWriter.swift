import AgendaCore
import Foundation
internal import CLibical

/// `--format ics`: the listed occurrences as one iCalendar stream, each
/// instance a VEVENT or VTODO with its UID and RECURRENCE-ID, timed values
/// in the display zone with that zone's VTIMEZONE. Reading it back gives the
/// same agenda. Components are built and serialised by libical, which
/// escapes and folds the text.
public struct ICSWriter {
    let clock: ZoneClock
    /// libical's zone for the display zone, and the TZID its VTIMEZONE carries;
    /// nil for UTC or a zone libical does not know (times are then written in UTC).
    let zone: (pointer: OpaquePointer, tzid: String)?

    public init(clock: ZoneClock) {
        self.clock = clock
        let name = clock.zone.identifier
        if name != "UTC" && name != "GMT", let z = icaltimezone_get_builtin_timezone(name), let tzid = icaltimezone_get_tzid(z) {
            zone = (z, String(cString: tzid))
        } else {
            zone = nil
        }
    }

    public func write(_ sections: [AgendaSection], to out: inout some TextOutputStream) {
        let rows = sections.flatMap { $0.rows.filter(\.isFirstListed) }
        guard !rows.isEmpty else { return }
        out.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ics-agenda//ics-agenda//EN\r\nCALSCALE:GREGORIAN\r\n")
        let names = Set(rows.map(\.occurrence.calendar.name))
        if names.count == 1, let name = names.first {
            let property = icalproperty_new_x(name)
            icalproperty_set_x_name(property, "X-WR-CALNAME")
            out.write(serialize(property, free: icalproperty_free, icalproperty_as_ical_string_r))
        }
        if let zone, let vtimezone = icaltimezone_get_component(zone.pointer) {
            out.write(serialize(vtimezone, free: nil, icalcomponent_as_ical_string_r))
        }
        for row in rows {
            out.write(serialize(component(for: row.occurrence), free: icalcomponent_free, icalcomponent_as_ical_string_r))
        }
        out.write("END:VCALENDAR\r\n")
    }

    private func serialize(
        _ thing: OpaquePointer?, free: ((OpaquePointer?) -> Void)?, _ toString: (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    ) -> String {
        guard let thing else { return "" }
        defer { free?(thing) }
        guard let text = toString(thing) else { return "" }
        defer { icalmemory_free_buffer(text) }
        return String(cString: text)
    }

    private func component(for o: Occurrence) -> OpaquePointer? {
        let reminder: Reminder? = { if case .reminder(let r) = o.item { return r } else { return nil } }()
        guard let c = reminder == nil ? icalcomponent_new_vevent() : icalcomponent_new_vtodo() else { return nil }
        // A component without UID is written without one, so that reading it back gives null again.
        if !o.uid.isEmpty { icalcomponent_add_property(c, icalproperty_new_uid(o.uid)) }
        if let rid = o.recurrenceID { add(c, icalproperty_new_recurrenceid, rid) }
        if !o.title.isEmpty { icalcomponent_add_property(c, icalproperty_new_summary(o.title)) }
        if let start = o.start { add(c, icalproperty_new_dtstart, start) }
        if reminder == nil, let end = o.end, end != o.start { add(c, icalproperty_new_dtend, end) }
        if let due = o.due { add(c, icalproperty_new_due, due) }
        if let location = o.location { icalcomponent_add_property(c, icalproperty_new_location(location)) }
        if let description = o.description { icalcomponent_add_property(c, icalproperty_new_description(description)) }
        if let status = o.status, let p = icalproperty_new_from_string("STATUS:\(status)") { icalcomponent_add_property(c, p) }
        if case .event(let e) = o.item, e.transparency != .unspecified {
            icalcomponent_add_property(c, icalproperty_new_transp(e.transparency == .opaque ? ICAL_TRANSP_OPAQUE : ICAL_TRANSP_TRANSPARENT))
        }
        if let r = reminder {
            if let priority = r.priority { icalcomponent_add_property(c, icalproperty_new_priority(Int32(priority))) }
            if let percent = r.percentComplete { icalcomponent_add_property(c, icalproperty_new_percentcomplete(Int32(percent))) }
            if r.isCompleted && o.status != "COMPLETED" {
                icalcomponent_add_property(c, icalproperty_new_completed(icaltime_from_timet_with_zone(0, 0, icaltimezone_get_utc_timezone())))
            }
            if !r.categories.isEmpty { icalcomponent_add_property(c, icalproperty_new_categories(r.categories.joined(separator: ","))) }
        }
        return c
    }

    /// A date, floating or zoned time as a property: dates and floating
    /// times as they were, instants in the display zone with its TZID.
    private func add(_ c: OpaquePointer, _ make: (icaltimetype) -> OpaquePointer?, _ time: AgendaTime) {
        var t = icaltimetype()
        let wall: Date
        switch time.kind {
        case .date, .floating: wall = time.wall
        case .instant: wall = zone == nil ? time.wall : clock.wallClock(of: time.wall)
        }
        let seconds = Int(wall.timeIntervalSince1970.rounded(.down))
        let date = CivilDate(daysSinceEpoch: Int((Double(seconds) / 86400).rounded(.down)))
        let secondOfDay = seconds - date.daysSinceEpoch * 86400
        t.year = Int32(date.year)
        t.month = Int32(date.month)
        t.day = Int32(date.day)
        if time.kind == .date {
            t.is_date = 1
        } else {
            t.hour = Int32(secondOfDay / 3600)
            t.minute = Int32(secondOfDay / 60 % 60)
            t.second = Int32(secondOfDay % 60)
        }
        if time.kind == .instant && zone == nil { t.zone = icaltimezone_get_utc_timezone() }
        guard let p = make(t) else { return }
        if time.kind == .instant, let zone { icalproperty_add_parameter(p, icalparameter_new_tzid(zone.tzid)) }
        icalcomponent_add_property(c, p)
    }
}
