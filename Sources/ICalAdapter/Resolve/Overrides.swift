import AgendaCore
import Foundation

/// A component with a RECURRENCE-ID: one instance of a series, as changed.
struct Override {
    /// With its master's alarms when it has none of its own (`OverrideSet.occurrences`).
    var occurrence: Occurrence
    let uid: String
    /// As written; read in the series' kind when matched (a floating value in a zoned series' zone).
    let recurrenceID: ZonedTime
    /// RANGE=THISANDFUTURE: the change applies to every later instance too.
    let thisAndFuture: Bool
    let component: Int
    let kind: ComponentRecord.Kind
    /// It has VALARMs of its own, read or not: it rings only those.
    var ownsAlarms = false
    /// With RRULE or RDATE beside RECURRENCE-ID: the instances of its own
    /// rule, and its first line, for when its UID has no master.
    var series: (occurrences: [Occurrence], line: Int)? = nil
}

/// An override far from the window: the instance it replaces.
struct FarOverride {
    /// `SkippedRevisions.fingerprint` of its UID.
    let uid: UInt64
    let kind: ComponentRecord.Kind
    let recurrenceID: ZonedTime
}

/// The file's overrides (components with RECURRENCE-ID), matched to their
/// masters' instances once every master is read: each replaces the instance
/// its RECURRENCE-ID names, read in its series' kind; one with
/// RANGE=THISANDFUTURE changes every later instance too (`changed`).
struct OverrideSet {
    /// Overrides, matched to their masters' instances once every master is read.
    var kept: [Override] = []
    /// Overrides far from the window (`ExpandedComponent.Shape.farOverride`): the
    /// instance each replaces, its UID's revisions and its UID, kept by
    /// fingerprints, so that a file of millions of old overrides costs
    /// about 90 bytes each, not the occurrence each would be.
    var far: [FarOverride] = []

    /// An instance after a RANGE=THISANDFUTURE override, as the latest such
    /// override before it changed it (RFC 5545 3.2.13, 3.8.4.4): moved by as
    /// much as the override moved its own instance, with the override's
    /// length and properties. The move is read on the wall clock of the
    /// series' `zone`, as its instances are made (3.3.10): a meeting moved
    /// from 09:00 to 10:00 three days later is at 10:00 after a change of
    /// offset too. nil when no such override precedes it, or when the
    /// override's times are of another kind than the series' (nothing to
    /// move by).
    static func changed(_ instance: Occurrence, by future: [(recurrenceID: AgendaTime, occurrence: Occurrence)],
        zone: Zone? = nil) -> Occurrence? {
        guard let original = instance.recurrenceID,
            let latest = future.last(where: {
                $0.recurrenceID.kind == original.kind && $0.recurrenceID.wall < original.wall
            })
        else { return nil }
        let o = latest.occurrence
        guard let anchor = o.start ?? o.due, anchor.kind == original.kind else { return nil }
        var newAnchor = original.wall + anchor.wall.timeIntervalSince(latest.recurrenceID.wall)
        if original.kind == .instant, let zone, zone != .utc {
            func wall(_ t: AgendaTime) -> Int {
                ZonedTime.wallSeconds(ofInstant: Int(t.wall.timeIntervalSince1970), in: zone)
            }
            let moved = wall(original) + wall(anchor) - wall(latest.recurrenceID)
            let seconds = ZonedTime.instantSeconds(of: TimeValue(wallSeconds: moved), in: zone)
            newAnchor = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        func moved(_ t: AgendaTime?) -> AgendaTime? {
            t.map { AgendaTime(kind: $0.kind, wall: newAnchor + $0.wall.timeIntervalSince(anchor.wall)) }
        }
        return Occurrence(item: o.item, start: moved(o.start), end: moved(o.end), due: moved(o.due),
            recurrenceID: original)
    }

    /// The alarms of an override's series (of its own kind first, as the
    /// instance it replaces is found): its newest master's, kept by the
    /// ledger whether that lists anything in the window or not; nil for none.
    static func seriesAlarms(of o: Override, ledger: RevisionLedger) -> [Alarm]? {
        for kind in o.kind == .event ? [ComponentRecord.Kind.event, .reminder] : [.reminder, .event] {
            if let master = ledger.masterAlarms[kind]?[o.uid] { return master.alarms.isEmpty ? nil : master.alarms }
        }
        return nil
    }

    /// The file's occurrences: overrides, then the masters' instances less
    /// those an override replaces or a newer revision dropped (`ledger`).
    /// Instances are found through their series' place in `masters`, not by
    /// hashing the UID of each of hundreds of thousands of them.
    mutating func occurrences(masters: [Occurrence], masterKeys: [Int64], ledger: RevisionLedger,
        log: inout DiagnosticLog) -> [Occurrence] {
        // Filtered in place: a copy would hold every override twice.
        var overrides = kept
        kept = []
        overrides.removeAll { ledger.superseded.contains($0.component) }
        var dropped = [Bool](repeating: false, count: masters.count)
        for range in ledger.droppedRanges { for i in range { dropped[i] = true } }
        // RANGE=THISANDFUTURE overrides by UID, in the order of their RECURRENCE-IDs.
        var futures: [String: [(recurrenceID: AgendaTime, occurrence: Occurrence)]] = [:]
        for (place, o) in overrides.enumerated() {
            let series = ledger.seriesIndex[o.kind]?[o.uid].map { ledger.series[Int($0)] }
            let anchor = series?.anchor
            // Without VALARMs of its own, an instance rings as its series does.
            if !o.ownsAlarms, !o.uid.isEmpty, let alarms = OverrideSet.seriesAlarms(of: o, ledger: ledger) {
                overrides[place].occurrence = o.occurrence.with(alarms: alarms)
            }
            let o = overrides[place]
            let rid = anchor.map { o.recurrenceID.matching(series: $0.asAnchor) } ?? o.recurrenceID
            // An override replaces the instance of that start in the series of its UID, of either kind.
            if !o.uid.isEmpty {
                let key = rid.agendaTime.matchKey
                for kind in [ComponentRecord.Kind.event, .reminder] {
                    guard let index = ledger.seriesIndex[kind]?[o.uid] else { continue }
                    for i in ledger.series[Int(index)].revision.masters where masterKeys[i] == key { dropped[i] = true }
                }
            }
            if o.thisAndFuture && !o.uid.isEmpty { futures[o.uid, default: []].append((rid.agendaTime, o.occurrence)) }
        }
        // Overrides far from the window replace their instances the same way,
        // found by the fingerprint of their UID among the series listed.
        if !far.isEmpty {
            let listed = ledger.seriesIndex.mapValues { index in
                Dictionary(index.map { (SkippedRevisions.fingerprint($0.key), $0.value) },
                    uniquingKeysWith: { first, _ in first })
            }
            for o in far {
                guard listed[.event]?[o.uid] != nil || listed[.reminder]?[o.uid] != nil else { continue }
                let anchor = listed[o.kind]?[o.uid].flatMap { ledger.series[Int($0)].anchor }
                let key = (anchor.map { o.recurrenceID.matching(series: $0.asAnchor) }
                    ?? o.recurrenceID).agendaTime.matchKey
                for kind in [ComponentRecord.Kind.event, .reminder] {
                    guard let index = listed[kind]?[o.uid] else { continue }
                    for i in ledger.series[Int(index)].revision.masters where masterKeys[i] == key { dropped[i] = true }
                }
            }
        }
        for uid in futures.keys { futures[uid]!.sort { $0.recurrenceID.wall < $1.recurrenceID.wall } }
        var occurrences: [Occurrence] = []
        occurrences.reserveCapacity(masters.count + overrides.count)
        for o in overrides {
            // RECURRENCE-ID names an instance of a series this file lacks, and
            // RRULE makes the component a series itself (RFC 5545 3.8.4.4 and
            // 3.8.5.3): with no master to change, its own recurrence set is
            // what it describes (KCalendarCore lists it so). Said once.
            if let series = o.series, !o.uid.isEmpty, ledger.seriesIndex[.event]?[o.uid] == nil,
                ledger.seriesIndex[.reminder]?[o.uid] == nil,
                !ledger.isQuiet(o.uid, .event), !ledger.isQuiet(o.uid, .reminder)
            {
                occurrences += series.occurrences
                log.warn(Warning(series.line, .orphanOverrideRule, "orphan override with its own rule",
                    "RECURRENCE-ID and RRULE or RDATE in one component, and no component without " +
                        "RECURRENCE-ID for UID \"\(o.uid)\": its own recurrence set is listed"))
            } else {
                occurrences.append(o.occurrence)
            }
        }
        for (index, occurrence) in masters.enumerated() where !dropped[index] {
            if !futures.isEmpty, let future = futures[occurrence.uid],
                let changed = OverrideSet.changed(occurrence, by: future, zone: ledger.zone(ofSeries: occurrence.uid)) {
                occurrences.append(changed)
                continue
            }
            occurrences.append(occurrence)
        }
        return occurrences
    }
}
