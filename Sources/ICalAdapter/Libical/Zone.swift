internal import CLibical
import Synchronization

/// A libical time zone, borrowed: one of libical's built-in zones (kept by
/// libical for the process) or one a file defines (kept by its
/// `ZoneTable`, through `OwnedZone`, for as long as the table lives).
/// Compared by identity, as libical's zones are.
struct Zone: Hashable, @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    /// libical's UTC zone. Asking it first fills libical's table of
    /// built-in zones, under the lock of `builtins`.
    static let utc = builtins.withLock { _ in Zone(icaltimezone_get_utc_timezone()) }

    /// A built-in zone's IANA name (`America/New_York`); nil for most a file defines.
    /// The corresponding libical function is `icaltimezone_get_location`.
    var location: String? { icaltimezone_get_location(pointer).map { String(cString: $0) } }

    /// The TZID the zone was made with (`/freeassociation.sourceforge.net/…` for a built-in).
    var tzid: String? { icaltimezone_get_tzid(pointer).map { String(cString: $0) } }

    /// libical's built-in zone of an IANA name.
    static func builtin(named name: String) -> Zone? {
        builtins.withLock { known in
            if let zone = known.named[name] { return zone }
            let zone = icaltimezone_get_builtin_timezone(name).map(Zone.loaded)
            known.named[name] = zone
            return zone
        }
    }

    /// libical's built-in zone for a TZID with a vendor prefix
    /// (`/freeassociation.sourceforge.net/Europe/Berlin`).
    static func builtin(tzid: String) -> Zone? {
        builtins.withLock { known in
            if let zone = known.tzid[tzid] { return zone }
            let zone = icaltimezone_get_builtin_timezone_from_tzid(tzid).map(Zone.loaded)
            known.tzid[tzid] = zone
            return zone
        }
    }

    /// Runs `body`, which may make libical look up a built-in zone (a TZID
    /// parameter read), under the lock of `builtins`. The lock is not
    /// recursive: `body` calls libical only, never `Zone.utc`, `builtin` or
    /// `ZoneTable` (work out what it needs of those before).
    static func withBuiltinLock<T>(_ body: () -> T) -> T { builtins.withLock { _ in body() } }

    /// libical 3.0 keeps one table of built-in zones for the process and
    /// reads it without a lock: it is made visible before it is filled, a
    /// name zone.tab does not list (`US/Eastern`) is appended to it by the
    /// first thread that asks, and a zone's definition, loaded when first
    /// needed, is loaded again and the first copy freed when two threads
    /// ask at once (in releases before 3.0.16, which checks again under a
    /// lock of its own). Files are read on several threads, so every lookup
    /// here takes this lock, and a zone's definition is loaded before the
    /// zone is handed out: from then on libical only reads it (its changes
    /// have a lock of libical's own). The answers are kept, by name and by
    /// TZID (libical keeps its built-in zones for the process, and finds one
    /// by comparing the name with each of its 450): a folder of 20,000 files
    /// asks the same few names 20,000 times.
    private static let builtins = Mutex<(named: [String: Zone?], tzid: [String: Zone?])>(([:], [:]))

    /// The zone, its definition loaded (`icaltimezone_get_component` loads a built-in's).
    private static func loaded(_ pointer: OpaquePointer) -> Zone {
        _ = icaltimezone_get_component(pointer)
        return Zone(pointer)
    }

    /// The zone's UTC offset, in seconds, at an instant (seconds since the
    /// epoch). The corresponding libical function is
    /// `icaltimezone_get_utc_offset_of_utc_time`, which expands the zone's
    /// rules year by year up to the instant.
    ///
    /// libical keeps the zone's changes up to a year a little past the one
    /// last asked, and asked a later year expands them all again from the
    /// zone's first DTSTART: a walk of instants year by year towards 2400
    /// took time that grows with the square of the years (1.5 s for one
    /// event of a 38-year span, found by the fuzzer). Past 2045 the changes
    /// are first expanded well ahead of the year asked (twice as far from
    /// 1980), so that a walk of any length expands them a few times at most.
    func utcOffset(atUTC instant: Int) -> Int {
        if instant > Zone.widelyCovered { extendCoverage(to: instant) }
        var t = icaltimetype(wallSeconds: instant, zone: Zone.utc.pointer)
        return Int(icaltimezone_get_utc_offset_of_utc_time(pointer, &t, nil))
    }

    private func extendCoverage(to instant: Int) {
        let year = 1970 + instant / Zone.secondsPerYear
        let target: Int? = Zone.coveredUntil.withLock { covered in
            guard year > covered[pointer, default: 2045] else { return nil }
            let target = min(2399, year + (year - 1980))
            covered[pointer] = target
            return target
        }
        guard let target else { return }
        var far = icaltimetype(wallSeconds: min(Zone.farthestAsked, (target - 1970) * Zone.secondsPerYear),
            zone: Zone.utc.pointer)
        _ = icaltimezone_get_utc_offset_of_utc_time(pointer, &far, nil)
    }

    /// The year up to which each zone was made to expand its changes. A zone
    /// freed and another made at its address only misses one extension.
    private static let coveredUntil = Mutex<[OpaquePointer: Int]>([:])
    private static let secondsPerYear = 31_556_952  // the Gregorian mean

    /// 2045-01-01T00:00:00Z: libical covers the years up to about twenty
    /// past the current one when first asked.
    static let widelyCovered = 2_366_841_600
    /// 2399-12-31T00:00:00Z: the last instant asked of libical (`ZonedTime`
    /// asks an instant from 2400 on as the same moment 400 years earlier).
    static let farthestAsked = 13_569_379_200
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
