internal import CLibical

/// Resolves TZID parameters to libical zones for one calendar file: the
/// file's own VTIMEZONE definitions first (used as defined), then libical's
/// built-in IANA zones. It owns the zones it makes from VTIMEZONEs.
final class ZoneTable {
    private var defined: [String: OpaquePointer] = [:]
    private var resolved: [String: OpaquePointer?] = [:]

    deinit {
        for zone in defined.values { icaltimezone_free(zone, 1) }
    }

    /// Takes ownership of a parsed VTIMEZONE component. Returns its TZID, or
    /// nil (and frees the component) when it has none.
    @discardableResult
    func define(vtimezone component: OpaquePointer) -> String? {
        let zone = icaltimezone_new()!
        guard icaltimezone_set_component(zone, component) != 0, let tzidPointer = icaltimezone_get_tzid(zone) else {
            icaltimezone_free(zone, 1)
            return nil
        }
        let tzid = String(cString: tzidPointer)
        if let old = defined[tzid] { icaltimezone_free(old, 1) }
        defined[tzid] = zone
        resolved[tzid] = zone
        return tzid
    }

    /// The zone a TZID names, or nil when neither the file nor libical knows it.
    func zone(for tzid: String) -> OpaquePointer? {
        if let known = resolved[tzid] { return known }
        let zone = ZoneTable.builtin(tzid)
        resolved[tzid] = zone
        return zone
    }

    static var utc: OpaquePointer { icaltimezone_get_utc_timezone() }

    /// libical's built-in zone for an IANA name, also when it is wrapped in
    /// a vendor prefix (`/freeassociation.sourceforge.net/Europe/Berlin`,
    /// `/mozilla.org/20050126_1/America/New_York`).
    static func builtin(_ tzid: String) -> OpaquePointer? {
        let name = tzid.trimmingWhitespace()
        if name.isEmpty { return nil }
        if name.uppercased() == "UTC" || name.uppercased() == "GMT" || name == "Etc/UTC" { return utc }
        if let zone = icaltimezone_get_builtin_timezone(name) { return zone }
        if name.hasPrefix("/") {
            if let zone = icaltimezone_get_builtin_timezone_from_tzid(name) { return zone }
            let parts = name.split(separator: "/")
            for start in parts.indices.reversed().dropFirst() where parts.count - start >= 2 {
                let candidate = parts[start...].joined(separator: "/")
                if let zone = icaltimezone_get_builtin_timezone(candidate) { return zone }
            }
        }
        return nil
    }
}
