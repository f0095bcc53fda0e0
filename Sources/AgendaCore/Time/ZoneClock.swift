import Foundation

/// The display zone's arithmetic: instant ⇄ wall clock, day boundaries.
///
/// Wall-clock times are `Date`s that read the local time as if it were UTC,
/// the same encoding `AgendaTime` uses for floating times and dates.
package struct ZoneClock: Sendable {
    package let zone: TimeZone
    private let offsets: OffsetTable

    package init(_ zone: TimeZone) {
        self.zone = zone
        offsets = OffsetTable(.zone(zone))
    }

    /// A display zone given as a POSIX TZ string (`CET-1CEST,M3.5.0,M10.5.0/3`):
    /// its own rules, which Foundation's TimeZone cannot hold. `zone` is then
    /// the fixed standard offset, for what only needs a name.
    package init(posix rules: POSIXTimeZone) {
        zone = TimeZone(secondsFromGMT: rules.standardOffset) ?? TimeZone(identifier: "UTC")!
        offsets = OffsetTable(.posix(rules))
    }

    /// Seconds east of UTC at an instant (the same as
    /// `zone.secondsFromGMT(for:)`, from a table: an agenda asks this for every
    /// time it places or prints).
    package func offset(at instant: Date) -> Int { offsets.offset(at: instant) }

    /// The local wall-clock reading of an instant, encoded as if UTC.
    package func wallClock(of instant: Date) -> Date { instant + TimeInterval(offset(at: instant)) }

    /// The instant at which the wall clock in this zone reads `wall`.
    /// A reading skipped by a DST gap moves forward by the gap (09:30 in a
    /// 09:00→10:00 gap is 10:30), as RFC 5545 3.3.5 asks; a repeated reading
    /// takes its first occurrence.
    package func instant(forWallClock wall: Date) -> Date {
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
    package func civilDate(of instant: Date) -> CivilDate {
        CivilDate(daysSinceEpoch: Int((wallClock(of: instant).timeIntervalSince1970 / 86400).rounded(.down)))
    }

    /// The instant the local day begins (00:00, or the first moment after a
    /// gap at midnight).
    func startOfDay(_ date: CivilDate) -> Date { instant(forWallClock: date.midnightUTC) }

    /// Seconds since local midnight of an instant.
    package func secondsIntoDay(of instant: Date) -> Int {
        let w = Int(wallClock(of: instant).timeIntervalSince1970.rounded(.down))
        let r = w % 86400
        return r < 0 ? r + 86400 : r
    }

    /// Seconds elapsed since local midnight at an instant: the wall clock's
    /// reading corrected by any change of offset since midnight, so that in
    /// the hour a fall-back repeats, 02:30 the second time sorts after 02:45
    /// the first time (the order of the instants).
    package func elapsedSecondsIntoDay(of instant: Date) -> Int {
        let offset = offset(at: instant)
        let w = Int((instant.timeIntervalSince1970 + TimeInterval(offset)).rounded(.down))
        var r = w % 86400
        if r < 0 { r += 86400 }
        let midnightOffset = self.offset(at: instant - TimeInterval(r))
        return r + midnightOffset - offset
    }
}

/// A zone's UTC offset changes from 1900 to 2100, found once with
/// `nextDaylightSavingTimeTransition(after:)`. A lookup starts from the
/// bucket of its instant (buckets of 2^20 seconds, about 12 days, each
/// knowing how many changes precede it) and steps over the few changes
/// inside: no search, since it runs several times for every row.
/// Outside that span it asks the zone itself.
final class OffsetTable: Sendable {
    /// Where the changes come from.
    enum Rules: Sendable {
        case zone(TimeZone)
        case posix(POSIXTimeZone)

        func offset(at instant: Date) -> Int {
            switch self {
            case .zone(let zone): zone.secondsFromGMT(for: instant)
            case .posix(let rules): rules.offset(at: instant)
            }
        }

        func nextTransition(after instant: Date) -> Date? {
            switch self {
            case .zone(let zone): zone.nextDaylightSavingTimeTransition(after: instant)
            case .posix(let rules): rules.nextTransition(after: instant)
            }
        }
    }
    private let rules: Rules
    private static let first = Date(timeIntervalSince1970: -2_208_988_800)  // 1900-01-01
    private static let last = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01
    private static let bucketShift = 20
    private let starts: [Int64]
    private let offsets: [Int]
    private let initial: Int
    /// For each bucket, how many changes happen before it begins.
    private let before: [Int32]

    init(_ rules: Rules) {
        self.rules = rules
        var starts: [Int64] = []
        var offsets: [Int] = []
        var t = OffsetTable.first
        while let next = rules.nextTransition(after: t), next < OffsetTable.last {
            starts.append(Int64(next.timeIntervalSince1970.rounded(.down)))
            offsets.append(rules.offset(at: next))
            t = next
        }
        self.starts = starts
        self.offsets = offsets
        initial = rules.offset(at: OffsetTable.first)
        let origin = Int64(OffsetTable.first.timeIntervalSince1970)
        let buckets = Int((Int64(OffsetTable.last.timeIntervalSince1970) - origin) >> OffsetTable.bucketShift) + 1
        var before = [Int32](repeating: 0, count: buckets)
        var passed = 0
        for b in 0..<buckets {
            let begins = origin + Int64(b) << OffsetTable.bucketShift
            while passed < starts.count && starts[passed] < begins { passed += 1 }
            before[b] = Int32(passed)
        }
        self.before = before
    }

    func offset(at instant: Date) -> Int {
        guard instant >= OffsetTable.first && instant < OffsetTable.last else { return rules.offset(at: instant) }
        let x = instant.timeIntervalSince1970
        let sinceFirst = Int64(x.rounded(.down)) - Int64(OffsetTable.first.timeIntervalSince1970)
        let bucket = Int(sinceFirst >> OffsetTable.bucketShift)
        // Changes at or before x: those before the bucket, then the ones inside it up to x.
        var low = Int(before[bucket])
        while low < starts.count && Double(starts[low]) <= x { low += 1 }
        return low == 0 ? initial : offsets[low - 1]
    }
}
