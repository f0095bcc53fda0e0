import AgendaCore
import Foundation
internal import CLibical

/// `--format ics`: the listed occurrences as one iCalendar stream, each
/// instance a VEVENT or VTODO with its UID and RECURRENCE-ID. Reading it
/// back gives the same agenda: zoned times are written in UTC, so that
/// every instant survives (a wall-clock time with a TZID loses its offset
/// in the hour a clock turns back); floating times stay floating and dates
/// dates. Components are built and serialised by libical, which escapes
/// and folds the text.
///
/// Two things the reader would otherwise merge are kept apart with
/// properties of this program's own (RFC 5545 3.8.8.2), which it reads back:
/// `X-ICS-AGENDA-SCOPE` on the items of another calendar (or another
/// one-off component) that share a UID with one written before, since one
/// UID names one component (3.8.4.7); and `X-ICS-AGENDA-CALENDAR`, the
/// calendar each item came from, when they come from more than one.
public struct ICSWriter {
    public init(clock: ZoneClock) {}

    /// The properties that keep items apart and name their calendars.
    static let scopeProperty = "X-ICS-AGENDA-SCOPE"
    static let calendarProperty = "X-ICS-AGENDA-CALENDAR"

    public func write(_ sections: [AgendaSection], to out: inout some TextOutputStream) {
        let listed = sections.flatMap { section in section.rows.filter(\.isFirstListed).map { section.occurrences[$0] } }
        // An empty agenda prints nothing at all, in every format (cron mails nothing).
        guard !listed.isEmpty else { return }
        out.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ics-agenda//ics-agenda//EN\r\nCALSCALE:GREGORIAN\r\n")
        let names = Set(listed.map(\.calendar.name))
        if names.count == 1, let name = names.first {
            let property = icalproperty_new_x(name)
            icalproperty_set_x_name(property, "X-WR-CALNAME")
            out.write(serialize(property, free: icalproperty_free, icalproperty_as_ical_string_r))
        }
        let scopes = ICSWriter.scopes(of: listed)
        for (o, scope) in zip(listed, scopes) {
            guard let c = component(for: o) else { continue }
            if let scope { addX(c.pointer, ICSWriter.scopeProperty, String(scope)) }
            if names.count > 1 { addX(c.pointer, ICSWriter.calendarProperty, o.calendar.name) }
            out.write(serialize(c.pointer, free: nil, icalcomponent_as_ical_string_r))
        }
        out.write("END:VCALENDAR\r\n")
    }

    /// For each occurrence, nil or a number that keeps its item apart from
    /// others of its UID. The instances of one calendar's series (and its
    /// overrides) are one owner, each one-off component another; the first
    /// owner of a UID is written plain, each further one with a scope.
    static func scopes(of occurrences: [Occurrence]) -> [Int?] {
        struct Owner: Hashable {
            let uid: String
            let calendar: ObjectIdentifier?
            let item: ObjectIdentifier?
        }
        var numbers: [Owner: Int] = [:]
        var owners: [String: Int] = [:]
        return occurrences.map { o in
            guard !o.uid.isEmpty else { return nil }  // no UID: nothing ties it to another
            let owner = o.recurrenceID == nil
                ? Owner(uid: o.uid, calendar: nil, item: o.itemIdentity)
                : Owner(uid: o.uid, calendar: ObjectIdentifier(o.calendar), item: nil)
            if let number = numbers[owner] { return number == 0 ? nil : number }
            let number = owners[o.uid, default: 0]
            owners[o.uid] = number + 1
            numbers[owner] = number
            return number == 0 ? nil : number
        }
    }

    private func addX(_ c: OpaquePointer, _ name: String, _ value: String) {
        guard let property = icalproperty_new_x(value) else { return }
        icalproperty_set_x_name(property, name)
        icalcomponent_add_property(c, property)
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

    private func component(for o: Occurrence) -> OwnedComponent? {
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
        return OwnedComponent(c)
    }

    /// A date, floating or zoned time as a property: dates and floating
    /// times as they were, instants in UTC.
    private func add(_ c: OpaquePointer, _ make: (icaltimetype) -> OpaquePointer?, _ time: AgendaTime) {
        let t = icaltimetype(
            wallSeconds: Int(time.wall.timeIntervalSince1970.rounded(.down)), isDate: time.kind == .date,
            zone: time.kind == .instant ? icaltimezone_get_utc_timezone() : nil)
        guard let p = make(t) else { return }
        icalcomponent_add_property(c, p)
    }
}
