import Foundation
internal import CLibical

/// Resolves TZID parameters to libical zones for one calendar file: the
/// file's own VTIMEZONE definitions first (used as defined), then libical's
/// built-in IANA zones. It owns the zones it makes from VTIMEZONEs.
///
/// Components are read on several threads at once: every method takes the
/// table's lock (libical's own built-in zone cache has its own mutex).
final class ZoneTable: @unchecked Sendable {
    private var defined: [String: OpaquePointer] = [:]
    private var resolved: [String: OpaquePointer?] = [:]
    private let lock = NSLock()

    deinit {
        for zone in defined.values { icaltimezone_free(zone, 1) }
    }

    enum Definition: Equatable {
        case defined(tzid: String)
        /// No usable observance: the TZID is resolved by name instead.
        case unusable(tzid: String)
        case noTZID
    }

    /// TZIDs whose VTIMEZONE was unusable, for the warning when the name is not known either.
    private var unusable = Set<String>()

    func isUnusable(_ tzid: String) -> Bool { lock.withLock { unusable.contains(tzid) } }

    /// Takes ownership of a parsed VTIMEZONE component (freeing it when it
    /// is not used). A definition without observances, or with one that
    /// lacks DTSTART, TZOFFSETFROM or TZOFFSETTO (RFC 5545 3.6.5), would make
    /// libical read every time as UTC: its TZID is left to `builtin`.
    @discardableResult
    func define(vtimezone component: OpaquePointer) -> Definition {
        lock.lock()
        defer { lock.unlock() }
        let usable = ZoneTable.hasUsableObservances(component)
        let zone = icaltimezone_new()!
        guard icaltimezone_set_component(zone, component) != 0, let tzidPointer = icaltimezone_get_tzid(zone) else {
            icaltimezone_free(zone, 1)
            return .noTZID
        }
        let tzid = String(cString: tzidPointer)
        guard usable else {
            icaltimezone_free(zone, 1)
            unusable.insert(tzid)
            return .unusable(tzid: tzid)
        }
        if let old = defined[tzid] { icaltimezone_free(old, 1) }
        defined[tzid] = zone
        resolved[tzid] = zone
        return .defined(tzid: tzid)
    }

    /// At least one STANDARD or DAYLIGHT, each with DTSTART, TZOFFSETFROM and TZOFFSETTO.
    private static func hasUsableObservances(_ vtimezone: OpaquePointer) -> Bool {
        var count = 0
        for kind in [ICAL_XSTANDARD_COMPONENT, ICAL_XDAYLIGHT_COMPONENT] {
            var observance = icalcomponent_get_first_component(vtimezone, kind)
            while let o = observance {
                for property in [ICAL_DTSTART_PROPERTY, ICAL_TZOFFSETFROM_PROPERTY, ICAL_TZOFFSETTO_PROPERTY]
                where icalcomponent_get_first_property(o, property) == nil {
                    return false
                }
                count += 1
                observance = icalcomponent_get_next_component(vtimezone, kind)
            }
        }
        return count > 0
    }

    /// The zone a TZID names, or nil when neither the file nor libical knows it.
    func zone(for tzid: String) -> OpaquePointer? {
        lock.lock()
        defer { lock.unlock() }
        if let known = resolved[tzid] { return known }
        let zone = ZoneTable.builtin(tzid)
        resolved[tzid] = zone
        return zone
    }

    static var utc: OpaquePointer { icaltimezone_get_utc_timezone() }

    /// libical's built-in zone for an IANA name, also when it is wrapped in
    /// a vendor prefix (`/freeassociation.sourceforge.net/Europe/Berlin`,
    /// `/mozilla.org/20050126_1/America/New_York`), or for a Windows zone
    /// name (`W. Europe Standard Time`, as Outlook writes) through CLDR's table.
    static func builtin(_ tzid: String) -> OpaquePointer? {
        let name = tzid.trimmingWhitespace()
        if name.isEmpty { return nil }
        if name.uppercased() == "UTC" || name.uppercased() == "GMT" || name == "Etc/UTC" { return utc }
        if let zone = icaltimezone_get_builtin_timezone(name) { return zone }
        if let iana = WindowsZones.iana[name] { return icaltimezone_get_builtin_timezone(iana) }
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
