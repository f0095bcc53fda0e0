import Foundation
internal import CLibical

/// Resolves TZID parameters to libical zones for one calendar file: the
/// file's own VTIMEZONE definitions first (used as defined), then libical's
/// built-in IANA zones. It owns the zones it makes from VTIMEZONEs.
///
/// A definition whose TZID is an exact IANA name libical knows is used only
/// between its first and last onset (policy P1, docs/CONFORMANCE.md): before
/// the first, and after the last of a definition that ends, it says nothing
/// real about the offset, and the IANA zone of that name is read instead
/// (`withIANA`: one libical zone, so every conversion stays libical's).
///
/// Components are read on several threads at once: every method takes the
/// table's lock (libical's own built-in zone cache has its own mutex).
final class ZoneTable: @unchecked Sendable {
    private var defined: [String: OpaquePointer] = [:]
    private var resolved: [String: OpaquePointer?] = [:]
    /// Per VCALENDAR of the file (`ComponentSplitter.Chunk.calendar`), the
    /// zones it defines, when a TZID is defined in more than one: each
    /// calendar's components are read in its own (RFC 5545 3.6.5).
    private var definedIn: [Int: [String: OpaquePointer]] = [:]
    private var definingCalendar: [String: Int] = [:]
    private var redefined = Set<String>()
    private let lock = NSLock()

    deinit {
        var owned = Set(defined.values)
        for zones in definedIn.values { owned.formUnion(zones.values) }
        for zone in owned { icaltimezone_free(zone, 1) }
    }

    enum Definition: Equatable {
        case defined(tzid: String)
        /// No usable observance: the TZID is resolved by name instead.
        case unusable(tzid: String)
        case noTZID
    }

    /// TZIDs whose VTIMEZONE was unusable, for the warning when the name is not known either.
    private var unusable = Set<String>()

    /// libical steps the file may spend finding where its VTIMEZONEs' COUNT
    /// rules end (`onsetSpan`); once spent, such a rule counts as repeating
    /// without end, and the file's definition holds after it (as it did
    /// before P1). Real definitions need a few dozen; 300 copies of one
    /// with `COUNT=10000` would otherwise cost seconds.
    static let onsetStepsPerFile = 20_000
    private var onsetBudget = ZoneTable.onsetStepsPerFile

    func isUnusable(_ tzid: String) -> Bool { lock.withLock { unusable.contains(tzid) } }

    /// The zone the file defines, when it defines exactly one: the calendar's own.
    var soleDefinition: OpaquePointer? { lock.withLock { defined.count == 1 ? defined.first?.value : nil } }

    /// Takes ownership of a parsed VTIMEZONE component (freeing it when it
    /// is not used). A definition without observances, or with one that
    /// lacks DTSTART, TZOFFSETFROM or TZOFFSETTO (RFC 5545 3.6.5), would make
    /// libical read every time as UTC: its TZID is left to `builtin`.
    @discardableResult
    func define(vtimezone component: consuming OwnedComponent, calendar: Int = 0) -> Definition {
        lock.lock()
        defer { lock.unlock() }
        let usable = ZoneTable.hasUsableObservances(component.pointer)
        var zone = icaltimezone_new()!
        // libical takes the component only when it has a TZID; otherwise it stays ours, freed as this returns.
        guard icaltimezone_set_component(zone, component.pointer) != 0 else {
            icaltimezone_free(zone, 1)
            return .noTZID
        }
        _ = component.handOver()
        guard let tzidPointer = icaltimezone_get_tzid(zone) else {
            icaltimezone_free(zone, 1)
            return .noTZID
        }
        let tzid = String(cString: tzidPointer)
        guard usable else {
            icaltimezone_free(zone, 1)
            unusable.insert(tzid)
            return .unusable(tzid: tzid)
        }
        if let iana = icaltimezone_get_builtin_timezone(tzid), let own = icaltimezone_get_component(zone),
            let merged = ZoneTable.withIANA(own, iana, budget: &onsetBudget), let mergedZone = icaltimezone_new()
        {
            if icaltimezone_set_component(mergedZone, merged.pointer) != 0 {
                _ = merged.handOver()
                icaltimezone_free(zone, 1)
                zone = mergedZone
            } else {
                icaltimezone_free(mergedZone, 1)  // merged is freed as it goes out of scope
            }
        }
        if let old = defined[tzid] {
            // Another definition of the TZID: one in another VCALENDAR keeps
            // the earlier one for that calendar's components; in the same
            // VCALENDAR the later one holds, and the earlier is freed.
            let oldCalendar = definingCalendar[tzid] ?? calendar
            if oldCalendar != calendar {
                redefined.insert(tzid)
                if definedIn[oldCalendar]?[tzid] == nil { definedIn[oldCalendar, default: [:]][tzid] = old }
            } else {
                if definedIn[calendar]?[tzid] == old { definedIn[calendar]?[tzid] = nil }
                icaltimezone_free(old, 1)
            }
        }
        definingCalendar[tzid] = calendar
        if redefined.contains(tzid) { definedIn[calendar, default: [:]][tzid] = zone }
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

    /// The first and last onset of a VTIMEZONE's observances, in seconds
    /// since the epoch (UTC); `last` is nil when a rule repeats without end.
    /// An RRULE with UNTIL counts as ending at UNTIL, one with COUNT at its
    /// last onset, found with libical's iterator while `budget` (steps) lasts.
    static func onsetSpan(_ vtimezone: OpaquePointer, budget: inout Int) -> (first: Int, last: Int?)? {
        var first = Int.max, last: Int? = Int.min
        func onset(_ t: icaltimetype, from offset: Int) {
            guard icaltime_is_null_time(t) == 0 else { return }
            let seconds = utcSeconds(t) - (icaltime_is_utc(t) != 0 ? 0 : offset)
            first = min(first, seconds)
            if let l = last { last = max(l, seconds) }
        }
        for kind in [ICAL_XSTANDARD_COMPONENT, ICAL_XDAYLIGHT_COMPONENT] {
            var observance = icalcomponent_get_first_component(vtimezone, kind)
            while let o = observance {
                defer { observance = icalcomponent_get_next_component(vtimezone, kind) }
                guard let fromProperty = icalcomponent_get_first_property(o, ICAL_TZOFFSETFROM_PROPERTY) else { continue }
                let from = Int(icalproperty_get_tzoffsetfrom(fromProperty))
                let dtstart = icalcomponent_get_dtstart(o)
                onset(dtstart, from: from)
                var p = icalcomponent_get_first_property(o, ICAL_RDATE_PROPERTY)
                while let rdate = p {
                    let value = icalproperty_get_rdate(rdate)
                    onset(icaltime_is_null_time(value.period.start) == 0 ? value.period.start : value.time, from: from)
                    p = icalcomponent_get_next_property(o, ICAL_RDATE_PROPERTY)
                }
                p = icalcomponent_get_first_property(o, ICAL_RRULE_PROPERTY)
                while let rrule = p {
                    let rule = icalproperty_get_rrule(rrule)
                    if icaltime_is_null_time(rule.until) == 0 {
                        onset(rule.until, from: from)
                    } else if rule.count > 0, case .walk(let cost) = RuleCost.assess(rule, from: dtstart),
                        Double(rule.count) * max(cost, 1) <= Double(budget), let iterator = RecurrenceIterator(rule, from: dtstart)
                    {
                        budget -= Int(Double(rule.count) * max(cost, 1))
                        var next = iterator.next(), latest = dtstart
                        while icaltime_is_null_time(next) == 0 {
                            latest = next
                            next = iterator.next()
                        }
                        onset(latest, from: from)
                    } else {
                        last = nil  // repeats without end
                    }
                    p = icalcomponent_get_next_property(o, ICAL_RRULE_PROPERTY)
                }
            }
        }
        return first == Int.max ? nil : (first, last)
    }

    /// Policy P1: a copy of a file's VTIMEZONE whose TZID is an IANA name,
    /// with the IANA zone's observances before the file's first onset and,
    /// when the file's rules end, after its last (libical's
    /// `icaltimezone_truncate_vtimezone` cuts them there). Between the two
    /// the file's own rules are the only ones, as RFC 5545 3.6.5 has it.
    static func withIANA(_ own: OpaquePointer, _ iana: OpaquePointer, budget: inout Int) -> OwnedComponent? {
        guard let span = onsetSpan(own, budget: &budget), let ianaComponent = icaltimezone_get_component(iana),
            let merged = icalcomponent_new_clone(own)
        else { return nil }
        func utc(_ seconds: Int) -> icaltimetype { icaltime_from_timet_with_zone(time_t(seconds), 0, ZoneTable.utc) }
        func take(from start: Int?, to end: Int?) {
            guard let clone = icalcomponent_new_clone(ianaComponent) else { return }
            let part = OwnedComponent(clone)  // freed as this returns: what is left of it
            icaltimezone_truncate_vtimezone(part.pointer, start.map(utc) ?? icaltime_null_time(), end.map(utc) ?? icaltime_null_time(), 0)
            for kind in [ICAL_XSTANDARD_COMPONENT, ICAL_XDAYLIGHT_COMPONENT] {
                var observances: [OpaquePointer] = []
                var o = icalcomponent_get_first_component(part.pointer, kind)
                while let observance = o {
                    observances.append(observance)
                    o = icalcomponent_get_next_component(part.pointer, kind)
                }
                for observance in observances {
                    // Only onsets inside the part: the file's rules own the rest.
                    guard let from = icalcomponent_get_first_property(observance, ICAL_TZOFFSETFROM_PROPERTY) else { continue }
                    let onset = utcSeconds(icalcomponent_get_dtstart(observance)) - Int(icalproperty_get_tzoffsetfrom(from))
                    if let start, onset < start { continue }
                    if let end, onset >= end { continue }
                    icalcomponent_remove_component(part.pointer, observance)
                    icalcomponent_add_component(merged, observance)  // merged takes it
                }
            }
        }
        take(from: nil, to: span.first)
        if let last = span.last { take(from: last, to: nil) }
        return OwnedComponent(merged)
    }

    /// The zone a TZID names, or nil when neither the file nor libical knows
    /// it: the definition of the component's own VCALENDAR (`calendar`)
    /// when the file defines the TZID in several, else the file's.
    func zone(for tzid: String, calendar: Int = 0) -> OpaquePointer? {
        lock.lock()
        defer { lock.unlock() }
        if !redefined.isEmpty, redefined.contains(tzid), let own = definedIn[calendar]?[tzid] { return own }
        if let known = resolved[tzid] { return known }
        let zone = ZoneTable.builtin(tzid)
        resolved[tzid] = zone
        return zone
    }

    /// The zone a display name or an old region name stands for
    /// (`DisplayNameZones`), with its IANA name, for a TZID that names no
    /// zone otherwise; nil when it tells none.
    func guessed(_ tzid: String) -> (zone: OpaquePointer, iana: String)? {
        guard let iana = DisplayNameZones.ianaName(for: tzid) else { return nil }
        guard let zone = icaltimezone_get_builtin_timezone(iana) else { return nil }
        return (zone, iana)
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

