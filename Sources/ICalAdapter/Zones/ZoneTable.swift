import AgendaCore
import Foundation

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
final class ZoneTable: ZoneLookup, @unchecked Sendable {
    private var defined: [String: OwnedZone] = [:]
    private var resolved: [String: Zone?] = [:]
    /// Per VCALENDAR of the file (`FramedComponent.calendar`), the
    /// zones it defines, when a TZID is defined in more than one: each
    /// calendar's components are read in its own (RFC 5545 3.6.5).
    private var definedIn: [Int: [String: OwnedZone]] = [:]
    private var definingCalendar: [String: Int] = [:]
    private var redefined = Set<String>()
    /// The VCALENDARs that share the TZID's current definition (`share`).
    private var sharers: [String: [Int]] = [:]

    /// Each VCALENDAR is a file of its own (a vdir collection read joined):
    /// a TZID is read in the definition of its own VCALENDAR, else in the
    /// built-in zone of that name, never in another file's definition, as
    /// if each file were read alone.
    var isScopedToCalendars = false
    /// With `isScopedToCalendars`: each VCALENDAR's definitions, and the built-in zones looked up.
    private var own: [Int: [String: OwnedZone]] = [:]
    private var builtins: [String: Zone?] = [:]
    private let lock = NSLock()

    enum Definition: Equatable {
        case defined(tzid: String)
        /// No usable observance: the TZID is resolved by name instead.
        case unusable(tzid: String)
        case noTZID
        /// A new TZID past `maxZones`: ignored, its name resolved as if undefined.
        case tooMany(tzid: String)
    }

    /// The distinct TZIDs one file may define: real files define a few,
    /// and each costs libical kilobytes (a file of a million tiny zones
    /// would need gigabytes).
    static let maxZones = 10_000

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
    var soleDefinition: Zone? { lock.withLock { defined.count == 1 ? defined.first?.value.zone : nil } }

    /// Takes ownership of a parsed VTIMEZONE component (freeing it when it
    /// is not used). A definition without observances, or with one that
    /// lacks DTSTART, TZOFFSETFROM or TZOFFSETTO (RFC 5545 3.6.5), would make
    /// libical read every time as UTC: its TZID is left to `builtin`.
    @discardableResult
    func define(vtimezone component: consuming OwnedComponent, calendar: Int = 0) -> Definition {
        lock.lock()
        defer { lock.unlock() }
        let usable = ZoneTable.hasUsableObservances(component.borrowed)
        // A component without TZID makes no zone (it is freed as this returns).
        guard var zone = OwnedZone(component), let tzid = zone.tzid else { return .noTZID }
        guard defined[tzid] != nil || defined.count < ZoneTable.maxZones else { return .tooMany(tzid: tzid) }
        guard usable else {
            unusable.insert(tzid)
            return .unusable(tzid: tzid)
        }
        if let iana = Zone.builtin(named: tzid), let own = zone.definition,
            let merged = ZoneTable.withIANA(own, iana, budget: &onsetBudget), let mergedZone = OwnedZone(merged)
        {
            zone = mergedZone
        }
        if let old = defined[tzid] {
            // Another definition of the TZID: one in another VCALENDAR keeps
            // the earlier one for that calendar's components (and for those
            // that share it); in the same VCALENDAR the later one holds, and
            // the earlier is freed.
            let oldCalendar = definingCalendar[tzid] ?? calendar
            if oldCalendar != calendar {
                redefined.insert(tzid)
                if definedIn[oldCalendar]?[tzid] == nil { definedIn[oldCalendar, default: [:]][tzid] = old }
                for sharer in sharers.removeValue(forKey: tzid) ?? [] where sharer != calendar
                    && definedIn[sharer]?[tzid] == nil {
                    definedIn[sharer, default: [:]][tzid] = old
                }
            } else if definedIn[calendar]?[tzid] === old {
                definedIn[calendar]?[tzid] = nil  // the earlier is freed as the last reference to it goes
            }
        }
        if isScopedToCalendars {
            own[calendar, default: [:]][tzid] = zone
            defined[tzid] = zone
            return .defined(tzid: tzid)
        }
        definingCalendar[tzid] = calendar
        if redefined.contains(tzid) { definedIn[calendar, default: [:]][tzid] = zone }
        defined[tzid] = zone
        resolved[tzid] = zone.zone
        return .defined(tzid: tzid)
    }

    /// `calendar` defines the TZID as the definition it has now, word for
    /// word: it shares that zone instead of making another. False when the
    /// TZID has no definition.
    func share(tzid: String, calendar: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let zone = defined[tzid] else { return false }
        if isScopedToCalendars {
            own[calendar, default: [:]][tzid] = zone
            return true
        }
        if (definingCalendar[tzid] ?? calendar) != calendar {
            if redefined.contains(tzid) {
                definedIn[calendar, default: [:]][tzid] = zone
            } else {
                sharers[tzid, default: []].append(calendar)
            }
        }
        return true
    }

    /// With `isScopedToCalendars`: `calendar` defines the TZID word for word
    /// as `from` did, and reads it in the same zone (no second parse).
    func adopt(tzid: String, from: Int, into calendar: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard isScopedToCalendars, let zone = own[from]?[tzid] else { return false }
        own[calendar, default: [:]][tzid] = zone
        return true
    }

    /// At least one STANDARD or DAYLIGHT, each with DTSTART, TZOFFSETFROM and TZOFFSETTO.
    private static func hasUsableObservances(_ vtimezone: BorrowedComponent) -> Bool {
        let observances = vtimezone.observances
        return !observances.isEmpty && observances.allSatisfy(\.isComplete)
    }

    /// The first and last onset of a VTIMEZONE's observances, in seconds
    /// since the epoch (UTC); `last` is nil when a rule repeats without end.
    /// An RRULE with UNTIL counts as ending at UNTIL, one with COUNT at its
    /// last onset, found with libical's iterator while `budget` (steps) lasts.
    static func onsetSpan(_ vtimezone: BorrowedComponent, budget: inout Int) -> (first: Int, last: Int?)? {
        var first = Int.max, last: Int? = Int.min
        func onset(_ t: TimeValue, from offset: Int) {
            guard !t.isNull else { return }
            let seconds = t.wallSeconds - (t.isUTC ? 0 : offset)
            first = min(first, seconds)
            if let l = last { last = max(l, seconds) }
        }
        for o in vtimezone.observances {
            guard let from = o.offsetFrom else { continue }
            let dtstart = o.dtstart
            onset(dtstart, from: from)
            for rdate in o.rdates { onset(rdate, from: from) }
            for (_, rule) in o.rules {
                if !rule.until.isNull {
                    onset(rule.until, from: from)
                } else if rule.count > 0, case .walk(let cost) = RuleCost.assess(rule, from: dtstart),
                    Double(rule.count) * max(cost, 1) <= Double(budget),
                        let iterator = RecurrenceIterator(rule, from: dtstart)
                {
                    budget -= Int(Double(rule.count) * max(cost, 1))
                    var next = iterator.next(), latest = dtstart
                    while !next.isNull {
                        latest = next
                        next = iterator.next()
                    }
                    onset(latest, from: from)
                } else {
                    last = nil  // repeats without end
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
    static func withIANA(_ own: BorrowedComponent, _ iana: Zone, budget: inout Int) -> OwnedComponent? {
        guard let span = onsetSpan(own, budget: &budget) else { return nil }
        return own.merging(observancesOf: iana, before: span.first, from: span.last)
    }

    /// The zone a TZID names, or nil when neither the file nor libical knows
    /// it: the definition of the component's own VCALENDAR (`calendar`)
    /// when the file defines the TZID in several, else the file's.
    func zone(for tzid: String, calendar: Int = 0) -> Zone? {
        lock.lock()
        defer { lock.unlock() }
        if isScopedToCalendars {
            if let mine = own[calendar]?[tzid] { return mine.zone }
            if let known = builtins[tzid] { return known }
            let zone = ZoneTable.builtin(tzid)
            builtins[tzid] = zone
            return zone
        }
        if !redefined.isEmpty, redefined.contains(tzid), let own = definedIn[calendar]?[tzid] { return own.zone }
        if let known = resolved[tzid] { return known }
        let zone = ZoneTable.builtin(tzid)
        resolved[tzid] = zone
        return zone
    }

    /// The zone a display name or an old region name stands for
    /// (`DisplayNameZones`), with its IANA name, for a TZID that names no
    /// zone otherwise; nil when it tells none.
    func ianaName(of zone: Zone) -> String? {
        var candidates: [String] = []
        if let location = zone.location { candidates.append(location) }
        if let tzid = zone.tzid?.trimmingWhitespace() {
            candidates.append(tzid)
            if let windows = WindowsZones.iana[tzid] { candidates.append(windows) }
            if let shown = DisplayNameZones.ianaName(for: tzid) { candidates.append(shown) }
            if let builtin = ZoneTable.builtin(tzid)?.location { candidates.append(builtin) }
        }
        return candidates.first { TimeZone(identifier: $0) != nil }
    }

    func guessed(_ tzid: String) -> (zone: Zone, iana: String)? {
        guard let iana = DisplayNameZones.ianaName(for: tzid) else { return nil }
        guard let zone = Zone.builtin(named: iana) else { return nil }
        return (zone, iana)
    }

    /// libical's built-in zone for an IANA name, also when it is wrapped in
    /// a vendor prefix (`/freeassociation.sourceforge.net/Europe/Berlin`,
    /// `/mozilla.org/20050126_1/America/New_York`), or for a Windows zone
    /// name (`W. Europe Standard Time`, as Outlook writes) through CLDR's table.
    static func builtin(_ tzid: String) -> Zone? {
        let name = tzid.trimmingWhitespace()
        if name.isEmpty { return nil }
        if name.uppercased() == "UTC" || name.uppercased() == "GMT" || name == "Etc/UTC" { return .utc }
        if let zone = Zone.builtin(named: name) { return zone }
        if let iana = WindowsZones.iana[name] { return Zone.builtin(named: iana) }
        if name.hasPrefix("/") {
            if let zone = Zone.builtin(tzid: name) { return zone }
            let parts = name.split(separator: "/")
            for start in parts.indices.reversed().dropFirst() where parts.count - start >= 2 {
                let candidate = parts[start...].joined(separator: "/")
                if let zone = Zone.builtin(named: candidate) { return zone }
            }
        }
        return nil
    }
}

