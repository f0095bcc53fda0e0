import Foundation

/// The display zone's arithmetic: instant ⇄ wall clock, day boundaries.
///
/// Wall-clock times are `Date`s that read the local time as if it were UTC,
/// the same encoding `AgendaTime` uses for floating times and dates.
public struct ZoneClock: Sendable {
    public let zone: TimeZone

    public init(_ zone: TimeZone) {
        self.zone = zone
    }

    public func offset(at instant: Date) -> Int { zone.secondsFromGMT(for: instant) }

    /// The local wall-clock reading of an instant, encoded as if UTC.
    public func wallClock(of instant: Date) -> Date { instant + TimeInterval(offset(at: instant)) }

    /// The instant at which the wall clock in this zone reads `wall`.
    /// A reading skipped by a DST gap moves forward by the gap (09:30 in a
    /// 09:00→10:00 gap is 10:30), as RFC 5545 3.3.5 asks; a repeated reading
    /// takes its first occurrence.
    public func instant(forWallClock wall: Date) -> Date {
        // A whole day either side: `wall` read as UTC is up to 14 hours off
        // the real instant, so half a day could land past the change itself
        // (Pacific/Auckland, +12/+13).
        let before = offset(at: wall - 86400)
        let after = offset(at: wall + 86400)
        let guess1 = wall - TimeInterval(before)
        if offset(at: guess1) == before { return guess1 }
        let guess2 = wall - TimeInterval(after)
        if offset(at: guess2) == after { return guess2 }
        // In a gap: the reading does not exist; move it by the gap.
        return wall - TimeInterval(before)
    }

    /// The local date of an instant.
    public func civilDate(of instant: Date) -> CivilDate {
        CivilDate(daysSinceEpoch: Int((wallClock(of: instant).timeIntervalSince1970 / 86400).rounded(.down)))
    }

    /// The instant the local day begins (00:00, or the first moment after a
    /// gap at midnight).
    public func startOfDay(_ date: CivilDate) -> Date { instant(forWallClock: date.midnightUTC) }

    /// Seconds since local midnight of an instant.
    public func secondsIntoDay(of instant: Date) -> Int {
        let w = Int(wallClock(of: instant).timeIntervalSince1970.rounded(.down))
        let r = w % 86400
        return r < 0 ? r + 86400 : r
    }
}
