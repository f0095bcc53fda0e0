import AgendaCore
internal import CLibical

/// `--series`: a VEVENT or VTODO as libical serialises it, whole (its
/// RRULE, RDATE, EXDATE, VALARMs and X-properties; libical folds and
/// escapes), less what libical marked (`X-LIC-ERROR`: read back it would be
/// told again) and this program's own `X-ICS-AGENDA-*` properties, which
/// the writer puts back as its output needs them.
enum WholeText {
    /// The component's text and the TZIDs it names. The serialised one is a
    /// clone (`icalcomponent_new_clone`), owned here and freed once written
    /// (`icalcomponent_as_ical_string_r`): the parsed component is only read.
    /// - Parameter floatingTZID: the calendar's `X-WR-TIMEZONE`, when its
    ///   floating date-times are read in it (`ComponentReader.floatingZone`):
    ///   they are written with that TZID, to be read the same in any calendar.
    static func of(_ component: BorrowedComponent, matchUID: String, calendar: Int, floatingTZID: String? = nil,
        calendarTimeZone: String? = nil
    ) -> WholeComponent? {
        guard let pointer = icalcomponent_new_clone(component.pointer) else { return nil }
        let clone = OwnedComponent(pointer)
        var zoneIDs: [String] = []
        if let floatingTZID { zone(floatingTZID, clone.pointer, zoneIDs: &zoneIDs) }
        strip(clone.pointer, zoneIDs: &zoneIDs)
        guard let text = takeLibicalText(icalcomponent_as_ical_string_r(clone.pointer)) else { return nil }
        return WholeComponent(text: text, matchUID: matchUID, zoneIDs: zoneIDs, calendarIndex: calendar,
            calendarTimeZone: calendarTimeZone)
    }

    private static let timeProperties: Set<UInt32> = [
        ICAL_DTSTART_PROPERTY.rawValue, ICAL_DTEND_PROPERTY.rawValue, ICAL_DUE_PROPERTY.rawValue,
            ICAL_RDATE_PROPERTY.rawValue,
        ICAL_EXDATE_PROPERTY.rawValue, ICAL_RECURRENCEID_PROPERTY.rawValue,
    ]

    /// Gives the component's floating date-times (no `Z`, no TZID) the TZID
    /// they are read in; dates, UTC and zoned times stay as they are.
    private static func zone(_ tzid: String, _ component: OpaquePointer, zoneIDs: inout [String]) {
        var property = icalcomponent_get_first_property(component, ICAL_ANY_PROPERTY)
        while let p = property {
            property = icalcomponent_get_next_property(component, ICAL_ANY_PROPERTY)
            guard timeProperties.contains(icalproperty_isa(p).rawValue),
                icalproperty_get_first_parameter(p, ICAL_TZID_PARAMETER) == nil,
                let written = icalproperty_get_value_as_string(p)
            else { continue }
            let value = String(cString: written).split(separator: ",").first.map(String.init) ?? ""
            let start = value.split(separator: "/").first.map(String.init) ?? ""
            guard start.contains("T"), !start.hasSuffix("Z") else { continue }
            icalproperty_add_parameter(p, icalparameter_new_tzid(tzid))
            if !zoneIDs.contains(tzid) { zoneIDs.append(tzid) }
        }
    }

    private static let ownProperties: Set<String> = [
        ComponentRecord.scopeProperty, ComponentRecord.calendarProperty, ComponentRecord.calendarColorProperty,
    ]

    /// Removes the marks and own properties of `component` and of the
    /// components in it (each removed property is freed: it is no longer the
    /// component's), and collects the TZIDs named.
    private static func strip(_ component: OpaquePointer, zoneIDs: inout [String]) {
        var removed: [OpaquePointer] = []
        var property = icalcomponent_get_first_property(component, ICAL_ANY_PROPERTY)
        while let p = property {
            property = icalcomponent_get_next_property(component, ICAL_ANY_PROPERTY)
            let isa = icalproperty_isa(p)
            if isa == ICAL_XLICERROR_PROPERTY
                || (isa == ICAL_X_PROPERTY && icalproperty_get_x_name(p)
                    .map { ownProperties.contains(String(cString: $0).uppercased()) } ?? false)
            {
                removed.append(p)
            } else if let parameter = icalproperty_get_first_parameter(p, ICAL_TZID_PARAMETER),
                let tzid = icalparameter_get_tzid(parameter) {
                let name = String(cString: tzid)
                if !zoneIDs.contains(name) { zoneIDs.append(name) }
            }
        }
        for p in removed {
            icalcomponent_remove_property(component, p)
            icalproperty_free(p)
        }
        // Children first gathered: each keeps a cursor of its own, the parent's is not walked twice.
        var children: [OpaquePointer] = []
        var child = icalcomponent_get_first_component(component, ICAL_ANY_COMPONENT)
        while let c = child {
            children.append(c)
            child = icalcomponent_get_next_component(component, ICAL_ANY_COMPONENT)
        }
        for c in children { strip(c, zoneIDs: &zoneIDs) }
    }
}
