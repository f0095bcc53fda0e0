internal import CLibical

/// A property of a component, borrowed from it; compared by identity.
struct PropertyHandle: Hashable {
    let pointer: OpaquePointer
}

/// A STANDARD or DAYLIGHT observance of a VTIMEZONE, borrowed from it: the
/// parts the zone checks read (`ZoneTable`, `ZoneCost`).
struct Observance {
    let component: BorrowedComponent

    /// DTSTART (a TZID parameter on it, against RFC 5545, makes libical look a built-in zone up).
    var dtstart: TimeValue { Zone.withBuiltinLock { TimeValue(icalcomponent_get_dtstart(component.pointer)) } }

    /// TZOFFSETFROM, in seconds.
    var offsetFrom: Int? {
        icalcomponent_get_first_property(component.pointer, ICAL_TZOFFSETFROM_PROPERTY)
            .map { Int(icalproperty_get_tzoffsetfrom($0)) }
    }

    /// TZOFFSETTO, in seconds.
    var offsetTo: Int? {
        icalcomponent_get_first_property(component.pointer, ICAL_TZOFFSETTO_PROPERTY)
            .map { Int(icalproperty_get_tzoffsetto($0)) }
    }

    /// DTSTART, TZOFFSETFROM and TZOFFSETTO are all there (RFC 5545 3.6.5).
    /// DTSTART, TZOFFSETFROM and TZOFFSETTO are there, and the offsets are
    /// offsets: RFC 5545 3.3.14's hours go to 23 (`+2400`, `+9959` would
    /// move every time of the zone by a day or more).
    var isComplete: Bool {
        let present = [ICAL_DTSTART_PROPERTY, ICAL_TZOFFSETFROM_PROPERTY, ICAL_TZOFFSETTO_PROPERTY].allSatisfy {
            icalcomponent_get_first_property(component.pointer, $0) != nil
        }
        guard present else { return false }
        return [offsetFrom, offsetTo].allSatisfy { $0.map { abs($0) < 24 * 3600 } ?? false }
    }

    /// Each RRULE, with the property it is in.
    var rules: [(property: PropertyHandle, rule: RecurrenceRule)] {
        properties(ICAL_RRULE_PROPERTY)
            .map { ($0, RecurrenceRule(ParsedRule.detached(icalproperty_get_rrule($0.pointer)))) }
    }

    /// Each RDATE's value (a PERIOD's start).
    var rdates: [TimeValue] {
        properties(ICAL_RDATE_PROPERTY).map { p in
            let value = icalproperty_get_rdate(p.pointer)
            return icaltime_is_null_time(value.period.start) == 0
                ? TimeValue(value.period.start) : TimeValue(value.time)
        }
    }

    var rdateCount: Int { Int(icalcomponent_count_properties(component.pointer, ICAL_RDATE_PROPERTY)) }

    private func properties(_ kind: icalproperty_kind) -> [PropertyHandle] {
        var out: [PropertyHandle] = []
        var p = icalcomponent_get_first_property(component.pointer, kind)
        while let property = p {
            out.append(PropertyHandle(pointer: property))
            p = icalcomponent_get_next_property(component.pointer, kind)
        }
        return out
    }
}

extension BorrowedComponent {
    /// A VTIMEZONE's STANDARD observances, then its DAYLIGHT ones.
    var observances: [Observance] {
        var out: [Observance] = []
        for kind in [ICAL_XSTANDARD_COMPONENT, ICAL_XDAYLIGHT_COMPONENT] {
            var o = icalcomponent_get_first_component(pointer, kind)
            while let observance = o {
                out.append(Observance(component: BorrowedComponent(observance)))
                o = icalcomponent_get_next_component(pointer, kind)
            }
        }
        return out
    }

    /// The TZID property's value ("" when there is none).
    var tzid: String {
        icalcomponent_get_first_property(pointer, ICAL_TZID_PROPERTY).flatMap { icalproperty_get_tzid($0) }
            .map { String(cString: $0) } ?? ""
    }

    /// What a property is, to the zone checks.
    enum PropertyRole { case rrule, rdate, other }

    /// A copy of the component with the properties (its own and its
    /// subcomponents') that `keeps` accepts: built anew, since libical
    /// removes a property in time that grows with the ones before it.
    func copy(keeping keeps: (PropertyHandle, PropertyRole) -> Bool) -> OwnedComponent {
        let new = icalcomponent_new(icalcomponent_isa(pointer))!
        var p = icalcomponent_get_first_property(pointer, ICAL_ANY_PROPERTY)
        while let property = p {
            let role: PropertyRole = switch icalproperty_isa(property) {
            case ICAL_RRULE_PROPERTY: .rrule
            case ICAL_RDATE_PROPERTY: .rdate
            default: .other
            }
            if keeps(PropertyHandle(pointer: property), role), let clone = icalproperty_new_clone(property) {
                icalcomponent_add_property(new, clone)
            }
            p = icalcomponent_get_next_property(pointer, ICAL_ANY_PROPERTY)
        }
        var c = icalcomponent_get_first_component(pointer, ICAL_ANY_COMPONENT)
        while let sub = c {
            // the parent takes it
            icalcomponent_add_component(new, BorrowedComponent(sub).copy(keeping: keeps).handOver())
            c = icalcomponent_get_next_component(pointer, ICAL_ANY_COMPONENT)
        }
        return OwnedComponent(new)
    }

    /// A copy of this VTIMEZONE with the observances of `iana`'s whose
    /// onsets come before `first` and, when `last` is given, at or after
    /// `last` (seconds since the epoch, UTC), taken from copies of the IANA
    /// definition cut there with libical's `icaltimezone_truncate_vtimezone`.
    func merging(observancesOf iana: Zone, before first: Int, from last: Int?) -> OwnedComponent? {
        guard let ianaComponent = iana.definition, let merged = icalcomponent_new_clone(pointer) else { return nil }
        func utc(_ seconds: Int) -> icaltimetype { icaltime_from_timet_with_zone(time_t(seconds), 0, Zone.utc.pointer) }
        func take(from start: Int?, to end: Int?) {
            guard let clone = icalcomponent_new_clone(ianaComponent.pointer) else { return }
            let part = OwnedComponent(clone)  // freed as this returns: what is left of it
            let (from, to) = (start.map(utc) ?? icaltime_null_time(), end.map(utc) ?? icaltime_null_time())
            // (It reads DTSTART's value as written, looking no zone up: no lock.)
            icaltimezone_truncate_vtimezone(part.pointer, from, to, 0)
            for observance in part.borrowed.observances {
                // Only onsets inside the part: the file's rules own the rest.
                guard let from = observance.offsetFrom else { continue }
                let onset = observance.dtstart.wallSeconds - from
                if let start, onset < start { continue }
                if let end, onset >= end { continue }
                icalcomponent_remove_component(part.pointer, observance.component.pointer)
                icalcomponent_add_component(merged, observance.component.pointer)  // merged takes it
            }
        }
        take(from: nil, to: first)
        if let last { take(from: last, to: nil) }
        return OwnedComponent(merged)
    }
}
