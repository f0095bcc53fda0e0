import AgendaCore

/// Which revision of each UID (and RECURRENCE-ID) a file shows, decided in
/// file order as components are applied: RFC 5545 3.8.4.7, a UID names one
/// component (with RECURRENCE-ID, one instance); 3.8.7.4 and RFC 5546 2.1.4,
/// the higher SEQUENCE is the newer. Components are numbered in the order
/// they were read.
struct RevisionLedger {
    var farOverrideRevisions: [ComponentRecord.Kind: SkippedRevisions] = [:]
    /// Per kind and UID, the series (master) kept so far: an index into
    /// `series`. Small on purpose: one entry per component of the file.
    var seriesIndex: [ComponentRecord.Kind: [String: Int32]] = [:]
    var series: [Series] = []
    /// The override kept so far for each kind, UID and RECURRENCE-ID, and
    /// the components superseded (numbered in the order they were read).
    var revisions: [Revision.Key: Revision] = [:]
    var superseded = Set<Int>()
    /// Per kind, the masters that list nothing whose UID nothing listed has:
    /// one-off events the prefilter skipped far from the window, and series
    /// with no instance in it. Remembered by a fingerprint and SEQUENCE
    /// only, so that a file of millions of series costs little more than
    /// its rows; a full `Series` is kept for those that list something.
    var quietRevisions: [ComponentRecord.Kind: SkippedRevisions] = [:]
    /// Per UID shared by items that are not revisions of one another, the
    /// identities listed (`Revision.areDistinct`).
    var sharedUIDs: [String: Set<Int>] = [:]
    /// The alarms of each UID's master, its latest SEQUENCE's (a later one
    /// on a tie, as revisions are kept), whether it lists anything in the
    /// window or not (`alarms` only: nothing is kept when none are read).
    /// An override without VALARMs of its own rings them.
    var masterAlarms: [ComponentRecord.Kind: [String: (sequence: Int, alarms: [Alarm])]] = [:]
    /// The components listed beside a UID's series that way, to be replaced
    /// with it by a newer revision.
    var sharedExtras: [String: [Revision]] = [:]
    /// Where the components listed beside another of their UID start, for
    /// the warning, given once the file is read (a newer revision may still
    /// replace them all).
    var sharedUIDLines: [String: [Int]] = [:]
    /// The places in `LoadRun.masters` of revisions a newer one replaced.
    var droppedRanges: [Range<Int>] = []
    /// Per kind, the masters counted that turned out to be a revision of
    /// another (one item, not two): taken off the count of masters.
    var merged: [ComponentRecord.Kind: Int] = [:]

    /// Whether `record` is the revision of its UID (and RECURRENCE-ID) to
    /// show so far; the one it replaces, or itself, is marked superseded.
    /// RFC 5545 3.8.4.7: a UID names one component (with RECURRENCE-ID, one
    /// instance); 3.8.7.4 and RFC 5546 2.1.4: the higher SEQUENCE is the newer.
    /// On a tie the later component wins when either recurs (an export that
    /// appended an edited series without counting up); two one-off
    /// components keep the first, as the reference oracle does.
    /// - Parameter slot: set to the place in `series` of a master's UID.
    /// - Parameter line: where the component starts, for a warning.
    /// - Parameter far: an override far from the window, whose revision is
    ///   remembered by a fingerprint (`farOverrideRevisions`).
    mutating func supersedes(
        _ record: RevisionCandidate, _ component: Int, listing: Range<Int>, line: Int, series slot: inout Int32?,
            far: Bool = false
    ) -> Bool {
        guard !record.uid.isEmpty else { return true }
        if record.recurrenceKey == nil, let alarms = record.alarms,
            record.sequence >= masterAlarms[record.kind]?[record.uid]?.sequence ?? .min {
            masterAlarms[record.kind, default: [:]][record.uid] = (record.sequence, alarms)
        }
        let new = Revision(component: component, sequence: record.sequence, recurs: record.recurs, masters: listing,
            identity: record.identity)
        let comparison =
            record.recurrenceKey == nil
            ? compareMaster(record, new, listing: listing, line: line, series: &slot) : compareOverride(record, new,
                far: far)
        switch comparison {
        case .decided(let kept):
            return kept
        case .against(let old):
            let newer = Revision.isNewer(new, than: old)
            superseded.insert(newer ? old.component : new.component)
            if newer && !old.masters.isEmpty { droppedRanges.append(old.masters) }
            return newer
        }
    }

    /// What comparing a component with its UID's revision so far comes to:
    /// decided already (kept or not), or to be decided against `old`.
    enum Comparison {
        case decided(Bool)
        case against(Revision)
    }

    /// A master (no RECURRENCE-ID) against the series of its UID.
    private mutating func compareMaster(
        _ record: RevisionCandidate, _ new: Revision, listing: Range<Int>, line: Int, series slot: inout Int32?
    ) -> Comparison {
        // A master with nothing in the window, read or not: only which
        // revision is newest matters, and a one-off one is distinct from
        // any other of its UID (`Revision.areDistinct`), as the prefilter
        // leaves those it skips, whichever of them it could read.
        if (record.skipped || listing.isEmpty) && seriesIndex[record.kind]?[record.uid] == nil {
            // Remembered by a fingerprint only: a file may hold millions of old events.
            if quietRevisions[record.kind, default: SkippedRevisions()].record(
                SkippedRevisions.fingerprint(record.uid), sequence: record.sequence, recurs: record.recurs)
            {
                merged[record.kind, default: 0] += 1  // one item, not two
            }
            return .decided(true)
        }
        // Found, or added, with one hash of the UID: a file may have a hundred thousand.
        let fresh = Int32(series.count)
        let index = RevisionLedger.value(of: &seriesIndex[record.kind, default: [:]][record.uid, default: fresh])
        slot = index
        guard index != fresh else {
            // An earlier revision may have been skipped, far from the window.
            if let earlier = quietRevision(SkippedRevisions.fingerprint(record.uid), record.kind)
            {
                let old = Revision(component: -1, sequence: earlier.sequence, recurs: earlier.recurs, masters: 0..<0)
                if Revision.areDistinct(new, old) {
                    // Two items (a conference feed's talks under one UID), one far from the window.
                    series.append(Series(revision: new))
                    return .decided(true)
                }
                merged[record.kind, default: 0] += 1  // one item, not two
                guard Revision.isNewer(new, than: old) else {
                    series.append(Series(revision: old))
                    superseded.insert(new.component)
                    return .decided(false)
                }
            }
            series.append(Series(revision: new))
            return .decided(true)
        }
        let old = series[Int(index)].revision
        if Revision.areDistinct(new, old) {
            // Not two revisions of one item but two items (a conference
            // feed that gives every talk one UID): both are listed, each
            // once however often it is written.
            // Changed in place: a copy of the set for each of 80,000 one-offs under one UID was quadratic.
            let first = Set(old.identity.map { [$0] } ?? [])
            if let identity = new.identity, !sharedUIDs[record.uid, default: first].insert(identity).inserted {
                superseded.insert(new.component)
                merged[record.kind, default: 0] += 1
                return .decided(false)
            }
            if sharedUIDs[record.uid] == nil { sharedUIDs[record.uid] = first }
            sharedExtras[record.uid, default: []].append(new)
            // Told when both are listed (one far from the window changes nothing listed),
            // so that the warning does not depend on the window.
            if old.identity != nil && !listing.isEmpty { sharedUIDLines[record.uid, default: []].append(line) }
            return .decided(true)
        }
        merged[record.kind, default: 0] += 1  // one item, not two
        if Revision.isNewer(new, than: old) {
            series[Int(index)] = Series(revision: new)
            // The items listed beside the one replaced share its
            // SEQUENCE: a newer revision of the UID replaces them all,
            // whatever order they came in.
            for extra in sharedExtras.removeValue(forKey: record.uid) ?? [] {
                superseded.insert(extra.component)
                if !extra.masters.isEmpty { droppedRanges.append(extra.masters) }
                merged[record.kind, default: 0] += 1
            }
            sharedUIDs[record.uid] = nil
            sharedUIDLines[record.uid] = nil
        }
        return .against(old)
    }

    /// An override against the one kept for its UID and RECURRENCE-ID.
    private mutating func compareOverride(_ record: RevisionCandidate, _ new: Revision, far: Bool) -> Comparison {
        let key = Revision.Key(kind: record.kind, uid: record.uid, recurrence: record.recurrenceKey)
        let farKey = SkippedRevisions.fingerprint(record.uid + "\u{0}" + (record.recurrenceKey ?? ""))
        func rememberFar() {
            farOverrideRevisions[record.kind, default: SkippedRevisions()].record(farKey, sequence: record.sequence,
                recurs: record.recurs)
        }
        guard let existing = revisions[key] else {
            if let earlier = farOverrideRevisions[record.kind]?.revision(farKey) {
                // An earlier revision far from the window: the newer of the two is kept.
                if far {
                    rememberFar()
                    return .decided(true)
                }
                let old = Revision(component: -1, sequence: earlier.sequence, recurs: earlier.recurs, masters: 0..<0)
                guard Revision.isNewer(new, than: old) else {
                    superseded.insert(new.component)
                    return .decided(false)
                }
            }
            if far { rememberFar() } else { revisions[key] = new }
            return .decided(true)
        }
        let old = existing
        if Revision.isNewer(new, than: old) {
            if far {
                revisions[key] = nil
                rememberFar()
            } else {
                revisions[key] = new
            }
        }
        return .against(old)
    }

    /// The newest revision of a master that lists nothing, by the fingerprint of its UID (`quietRevisions`).
    func quietRevision(_ fingerprint: UInt64, _ kind: ComponentRecord.Kind) -> (sequence: Int, recurs: Bool)? {
        guard let quiet = quietRevisions[kind], quiet.count > 0 else { return nil }
        return quiet.revision(fingerprint)
    }

    /// Whether a master of `uid` that lists nothing was read.
    func isQuiet(_ uid: String, _ kind: ComponentRecord.Kind) -> Bool {
        quietRevision(SkippedRevisions.fingerprint(uid), kind) != nil
    }

    /// The value a dictionary's default subscript gives an inout access
    /// (inserting the default when the key is new).
    private static func value(of slot: inout Int32) -> Int32 { slot }

    /// The zone of the first instance of the series of `uid`, if zoned.
    func zone(ofSeries uid: String) -> Zone? {
        for kind in [ComponentRecord.Kind.event, .reminder] {
            if let index = seriesIndex[kind]?[uid], let shape = series[Int(index)].anchor { return shape.zone }
        }
        return nil
    }

    /// The warning for every component listed beside another of its UID
    /// (`sharedUIDLines`), once the file is read.
    func sharedUIDWarnings() -> [Warning] {
        sharedUIDLines.flatMap { uid, lines in
            lines.map { line in
                Warning(line, .sharedUID, "shared UID",
                    "UID \"\(uid)\" is shared by components that cannot be revisions of one another (none recurs, " +
                        "the same SEQUENCE, another DTSTART or SUMMARY); each is listed")
            }
        }
    }
}

/// The master kept for one UID, and the shape of its first instance: an
/// override's RECURRENCE-ID is read in that kind to find the instance it names.
struct Series {
    var revision: Revision
    var anchor: ZonedTime.Shape?

    init(revision: Revision) {
        self.revision = revision
    }
}
