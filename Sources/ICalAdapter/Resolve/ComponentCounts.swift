/// How many items (events, reminders) a file holds, as `calendars` and
/// the warnings count them: every master once, however many revisions of
/// it the file writes, and the UIDs only overrides have (orphans).
struct ComponentCounts {
    /// Components without RECURRENCE-ID, and the UIDs of masters and overrides, per kind, for the counts.
    var masterCount: [ComponentRecord.Kind: Int] = [:]
    var overrideUIDs: [ComponentRecord.Kind: Set<String>] = [:]
    /// The UIDs of masters that are counted but list nothing (an event
    /// without DTSTART); the others are the keys of `RevisionLedger.seriesIndex`.
    var unlistedMasterUIDs: [ComponentRecord.Kind: Set<String>] = [:]
    /// UIDs of overrides far from the window, by fingerprint.
    var farOverrideUIDs: [ComponentRecord.Kind: Set<UInt64>] = [:]

    /// Counts one component as it is applied, in file order.
    mutating func count(_ processed: ExpandedComponent) {
        if let counted = processed.counted {
            let isFar = if case .farOverride = processed.shape { true } else { false }
            if counted.isOverride && isFar {
                farOverrideUIDs[counted.kind, default: []].insert(SkippedRevisions.fingerprint(counted.uid))
            } else if counted.isOverride {
                overrideUIDs[counted.kind, default: []].insert(counted.uid)
            } else {
                masterCount[counted.kind, default: 0] += 1
                if processed.revision == nil { unlistedMasterUIDs[counted.kind, default: []].insert(counted.uid) }
            }
        }
    }

    /// The items of a kind once the file is read: masters, less those the
    /// ledger found to be revisions of another, and the orphans' UIDs.
    func items(_ kind: ComponentRecord.Kind, ledger: RevisionLedger) -> Int {
        // Overrides are few, masters may be a hundred thousand: no set is built.
        let listed = ledger.seriesIndex[kind, default: [:]], unlisted = unlistedMasterUIDs[kind, default: []]
        let orphans = overrideUIDs[kind, default: []].reduce(0) {
            let skipped = ledger.isQuiet($1, kind)
            return $0 + (listed[$1] == nil && !unlisted.contains($1) && !skipped ? 1 : 0)
        }
        // UIDs only overrides far from the window have, by fingerprint.
        var farOrphans = 0
        if let far = farOverrideUIDs[kind], !far.isEmpty {
            let known = Set(overrideUIDs[kind, default: []].map(SkippedRevisions.fingerprint))
                .union(listed.keys.map(SkippedRevisions.fingerprint)).union(unlisted.map(SkippedRevisions.fingerprint))
            farOrphans = far.reduce(0) { $0 + (known.contains($1) || ledger.quietRevision($1, kind) != nil ? 0 : 1) }
        }
        return masterCount[kind, default: 0] - ledger.merged[kind, default: 0] + orphans + farOrphans
    }
}
