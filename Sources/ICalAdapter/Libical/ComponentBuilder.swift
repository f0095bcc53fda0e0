internal import CLibical

/// A VEVENT or VTODO built property by property and written as libical
/// writes it (escaped and folded). It owns its component, which libical's
/// `icalcomponent_add_property` makes the owner of each property added.
struct ComponentBuilder: ~Copyable {
    private let component: OwnedComponent

    enum Kind { case event, todo }

    init?(_ kind: Kind) {
        guard let c = kind == .event ? icalcomponent_new_vevent() : icalcomponent_new_vtodo() else { return nil }
        component = OwnedComponent(c)
    }

    enum TextProperty { case uid, summary, location, description, categories }

    func add(_ name: TextProperty, _ value: String) {
        let property: OpaquePointer? = switch name {
        case .uid: icalproperty_new_uid(value)
        case .summary: icalproperty_new_summary(value)
        case .location: icalproperty_new_location(value)
        case .description: icalproperty_new_description(value)
        case .categories: icalproperty_new_categories(value)
        }
        add(property)
    }

    enum TimeProperty { case dtstart, dtend, due, recurrenceID, completed }

    /// A date or date-time property of `value` as it is: a date, a
    /// floating time, or UTC (when marked UTC).
    func add(_ name: TimeProperty, _ value: TimeValue) {
        let property: OpaquePointer? = switch name {
        case .dtstart: icalproperty_new_dtstart(value.c)
        case .dtend: icalproperty_new_dtend(value.c)
        case .due: icalproperty_new_due(value.c)
        case .recurrenceID: icalproperty_new_recurrenceid(value.c)
        case .completed: icalproperty_new_completed(value.c)
        }
        add(property)
    }

    enum IntegerProperty { case priority, percentComplete }

    func add(_ name: IntegerProperty, _ value: Int) {
        let v = Int32(clamping: value)
        add(name == .priority ? icalproperty_new_priority(v) : icalproperty_new_percentcomplete(v))
    }

    /// TRANSP: OPAQUE or TRANSPARENT.
    func addTransparency(opaque: Bool) {
        add(icalproperty_new_transp(opaque ? ICAL_TRANSP_OPAQUE : ICAL_TRANSP_TRANSPARENT))
    }

    /// A property given as a whole line's text (`STATUS:CONFIRMED`), read by libical; left out when it cannot read it.
    func add(line: String) {
        add(icalproperty_new_from_string(line))
    }

    /// An `X-` property.
    func addX(_ name: String, _ value: String) {
        guard let property = icalproperty_new_x(value) else { return }
        icalproperty_set_x_name(property, name)
        add(property)
    }

    /// A VALARM inside the component: its properties given as whole lines
    /// (TRIGGER, ACTION, REPEAT, …), its texts as they are (libical escapes them).
    func addAlarm(lines: [String], description: String?, summary: String?, attendees: [String] = []) {
        guard let alarm = icalcomponent_new_valarm() else { return }
        var properties = lines.map { icalproperty_new_from_string($0) }
        if let description { properties.append(icalproperty_new_description(description)) }
        if let summary { properties.append(icalproperty_new_summary(summary)) }
        properties += attendees.map { icalproperty_new_attendee($0) }
        for case let property? in properties { icalcomponent_add_property(alarm, property) }  // the alarm takes each
        icalcomponent_add_component(component.pointer, alarm)  // the component takes the alarm
    }

    private func add(_ property: OpaquePointer?) {
        guard let property else { return }
        icalcomponent_add_property(component.pointer, property)  // the component takes it
    }

    /// The component as iCalendar text (CRLF line ends, folded).
    var text: String {
        takeLibicalText(icalcomponent_as_ical_string_r(component.pointer)) ?? ""
    }

    /// One `X-` property as iCalendar text, outside any component.
    static func xPropertyText(_ name: String, _ value: String) -> String {
        guard let property = icalproperty_new_x(value) else { return "" }
        defer { icalproperty_free(property) }
        icalproperty_set_x_name(property, name)
        return takeLibicalText(icalproperty_as_ical_string_r(property)) ?? ""
    }
}
