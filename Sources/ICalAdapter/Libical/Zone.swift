internal import CLibical

/// A libical time zone, borrowed: one of libical's built-in zones (kept by
/// libical for the process) or one a file defines (kept by its
/// `ZoneTable`, through `OwnedZone`, for as long as the table lives).
/// Compared by identity, as libical's zones are.
struct Zone: Hashable, @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    /// libical's UTC zone.
    static var utc: Zone { Zone(icaltimezone_get_utc_timezone()) }

    /// libical's built-in zone of an IANA name.
    static func builtin(named name: String) -> Zone? {
        icaltimezone_get_builtin_timezone(name).map(Zone.init)
    }

    /// libical's built-in zone for a TZID with a vendor prefix
    /// (`/freeassociation.sourceforge.net/Europe/Berlin`).
    static func builtin(tzid: String) -> Zone? {
        icaltimezone_get_builtin_timezone_from_tzid(tzid).map(Zone.init)
    }

    /// The zone's UTC offset, in seconds, at an instant (seconds since the
    /// epoch). The corresponding libical function is
    /// `icaltimezone_get_utc_offset_of_utc_time`, which expands the zone's
    /// rules year by year up to the instant.
    func utcOffset(atUTC instant: Int) -> Int {
        var t = icaltimetype(wallSeconds: instant, zone: Zone.utc.pointer)
        return Int(icaltimezone_get_utc_offset_of_utc_time(pointer, &t, nil))
    }
}

/// A zone made from a file's VTIMEZONE, freed with its definition when the
/// last reference to it goes (its `ZoneTable` holds them).
///
/// libical's rule: `icaltimezone_new` gives a zone the caller frees with
/// `icaltimezone_free(zone, 1)`, which frees the component given to it too;
/// `icaltimezone_set_component` takes the component only when it has a
/// TZID (true is returned), and otherwise leaves it the caller's.
final class OwnedZone: @unchecked Sendable {
    let zone: Zone

    /// The zone of a VTIMEZONE, which it takes over; nil (the component
    /// freed as it goes) when libical cannot make one of it (no TZID).
    init?(_ component: consuming OwnedComponent) {
        let pointer = icaltimezone_new()!
        guard icaltimezone_set_component(pointer, component.pointer) != 0 else {
            icaltimezone_free(pointer, 1)
            return nil
        }
        _ = component.handOver()
        zone = Zone(pointer)
    }

    deinit { icaltimezone_free(zone.pointer, 1) }

    /// The TZID libical read from the definition.
    var tzid: String? { icaltimezone_get_tzid(zone.pointer).map { String(cString: $0) } }

    /// The VTIMEZONE the zone is made of, borrowed while the zone lives.
    var definition: BorrowedComponent? { zone.definition }
}

extension Zone {
    /// The VTIMEZONE a built-in zone is made of, borrowed.
    var definition: BorrowedComponent? { icaltimezone_get_component(pointer).map(BorrowedComponent.init) }
}
