import AgendaCore
import Foundation

/// The state of reading one file.
struct LoadRun {
    let window: AgendaWindow
    let calendar: CalendarInfo
    let path: String
    let zones = ZoneTable()
    /// What the file's VTIMEZONEs may cost libical together.
    var zoneCost = ZoneCost()
    var diagnostics: [Diagnostic] = []
    /// Components without RECURRENCE-ID, and the UIDs of masters and overrides, per kind, for the counts.
    var masterCount: [ComponentRecord.Kind: Int] = [:]
    var overrideUIDs: [ComponentRecord.Kind: Set<String>] = [:]
    /// The UIDs of masters that are counted but list nothing (an event
    /// without DTSTART); the others are the keys of `seriesIndex`.
    var unlistedMasterUIDs: [ComponentRecord.Kind: Set<String>] = [:]
    /// Occurrences of masters, and beside each the original start an
    /// override would replace it by (`noKey` when none can): two plain
    /// arrays, not an array of tuples, since there can be hundreds of thousands.
    var masters: [Occurrence] = []
    var masterKeys: [Int64] = []
    static let noKey = Int64.min
    /// Overrides, matched to their masters' instances once every master is read.
    var overrides: [Override] = []
    /// Overrides far from the window (`ProcessedChunk.overrideIsFar`): the
    /// instance each replaces, its UID's revisions and its UID, kept by
    /// fingerprints, so that a file of millions of old overrides costs
    /// about 90 bytes each, not the occurrence each would be.
    var farOverrides: [FarOverride] = []
    var farOverrideRevisions: [ComponentRecord.Kind: SkippedRevisions] = [:]
    var farOverrideUIDs: [ComponentRecord.Kind: Set<UInt64>] = [:]
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
    var componentNumber = 0
    /// Per UID shared by items that are not revisions of one another, the
    /// identities listed (`Revision.areDistinct`).
    var sharedUIDs: [String: Set<Int>] = [:]
    /// The components listed beside a UID's series that way, to be replaced
    /// with it by a newer revision.
    var sharedExtras: [String: [Revision]] = [:]
    /// Where the components listed beside another of their UID start, for
    /// the warning, given once the file is read (a newer revision may still
    /// replace them all).
    var sharedUIDLines: [String: [Int]] = [:]
    /// The places in `masters` of revisions a newer one replaced.
    var droppedRanges: [Range<Int>] = []
    private var scratch: [CChar] = []
    /// NUL bytes dropped and lines read as Windows-1252, for one warning each.
    private var textRepair = TextRepair.Report()
    var release: ((Range<Int>) -> Void)?
    var threads: Int?
    /// What is left of the file's budget (`CalendarLoader.rowsPerFile`).
    var rowBudget = CalendarLoader.rowsPerFile
    /// Whether the prefilter may skip a rule that starts after the window (`WindowPrefilter.skipsRules`).
    var skipsRules = false

    init(window: AgendaWindow, calendar: CalendarInfo, path: String) {
        self.window = window
        self.calendar = calendar
        self.path = path
    }

    /// - Parameter wrTimezone: the calendar's `X-WR-TIMEZONE`: when it names
    ///   a known zone, floating date-times are read in it (as Google and Apple
    ///   clients do); UTC and zoned values and dates are left as they are.
    /// - Parameter stretch: the bytes the chunks were framed from (all of
    ///   `buffer` when nil): their pages are given back as they are passed.
    mutating func read(
        _ chunks: inout [ComponentSplitter.Chunk], from buffer: UnsafeBufferPointer<UInt8>, stretch: Range<Int>? = nil, wrTimezone: String? = nil
    ) {
        // Zones first: a VTIMEZONE may follow the events that use it.
        for chunk in chunks where chunk.name == "VTIMEZONE" && !zonesRead.contains(chunk.range.lowerBound) {
            define(zone: chunk, buffer)
        }
        // In place: a stretch may hold tens of thousands of chunks.
        chunks.removeAll { $0.name != "VEVENT" && $0.name != "VTODO" }
        let items = chunks
        let reader = ComponentReader(zones: zones, floatingZone: wrTimezone.flatMap { zones.zone(for: $0) })
        var processor = ChunkProcessor(
            rowBudget: rowBudget,
            window: window, calendar: calendar, zones: zones,
            reader: reader,
            prefilter: WindowPrefilter(window: window, skipsRules: skipsRules),
            futureReach: skipsRules ? [:] : FutureReach.scan(items, buffer, reader: reader))
        processor.calendarZone = zones.soleDefinition ?? wrTimezone.flatMap { zones.zone(for: $0) }
        // Framing touched every page; from here on pages are read in order,
        // and each stretch is given back once passed.
        let framed = stretch ?? 0..<buffer.count
        var released = framed.lowerBound
        let releaseStep = 1 << 20
        release?(framed)
        // Components are processed in batches, on every core for a large
        // file, and applied in file order: the result does not depend on
        // how many threads there were.
        let workers =
            if let threads { max(1, threads) } else if items.count >= LoadRun.parallelFrom {
                max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
            } else { 1 }
        // libical sets up its UTC zone and zone list on first use, partly
        // without a lock: do that here, before any worker runs.
        _ = Zone.utc
        let windowDays = Int((window.end.timeIntervalSince(window.start) / 86400).rounded(.up))
        let firstRows = min(RecurrenceExpander.maxInstances, max(windowDays + 1, 1))
        let batches = BatchReader(items: items, buffer: buffer, processor: processor, firstRows: firstRows)
        // Several shares a worker (BatchReader.process); one buffer each.
        let workerScratch = ScratchBuffers(count: workers > 1 ? workers * LoadRun.sharesPerWorker : 1)
        // With more than one worker, the workers read the next batch while
        // this thread applies one in file order: applying (counts,
        // revisions, copying rows) is the part that cannot be shared out.
        let ahead = DispatchQueue(label: "ics-agenda.read-ahead")
        let mainScratch = ScratchBuffers(count: 1, first: scratch)
        // Two batches' results, used in turn: each is a few hundred kilobytes,
        // which a new allocation would fault in afresh for every batch.
        // No more than the stretch holds: a file of one event (a folder of
        // thousands given one by one) set up two full batches each.
        let batchCount = min(LoadRun.batchSize, max(items.count, 1))
        var current = BatchResults(count: batchCount)
        var spare = BatchResults(count: batchCount)
        var start = 0
        batches.read(batchAt: 0, into: current, scratch: workerScratch)
        while start < items.count {
            let end = batches.end(of: start)
            let group = DispatchGroup()
            let readsAhead = end < items.count && workers > 1
            if readsAhead { ahead.async(group: group) { [spare] in batches.read(batchAt: end, into: spare, scratch: workerScratch) } }
            // Every series may list one row a day; one that reaches that is
            // read again, alone and in file order, with more out of the
            // file's budget, which then pays for what it really listed.
            for i in 0..<(end - start) where current.items[i].reachedRowLimit && rowBudget > 0 {
                batches.process(start, [(i, firstRows + min(RecurrenceExpander.maxInstances - firstRows, rowBudget))], into: current, scratch: mainScratch)
                rowBudget = max(0, rowBudget - max(0, current.items[i].rowsListed - firstRows))
            }
            for i in 0..<(end - start) {
                apply(current.items[i])
                current.items[i] = ProcessedChunk()
            }
            group.wait()
            if let release, end < items.count, items[end].range.lowerBound - released > releaseStep {
                release(released..<items[end].range.lowerBound)
                released = items[end].range.lowerBound
            }
            if readsAhead {
                swap(&current, &spare)
            } else if end < items.count {
                batches.read(batchAt: end, into: current, scratch: workerScratch)
            }
            start = end
        }
        if released < framed.upperBound { release?(released..<framed.upperBound) }
        scratch = mainScratch.buffers[0]
    }

    /// Reads a VTIMEZONE into the file's zones.
    mutating func define(zone chunk: ComponentSplitter.Chunk, _ buffer: UnsafeBufferPointer<UInt8>) {
        // A definition written again as it was (files that repeat a zone
        // before every event) changes nothing: it is not read again.
        let text = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[chunk.range]))
        var hasher = Hasher()
        hasher.combine(chunk.calendar)
        hasher.combine(bytes: text)
        let hash = hasher.finalize()
        if let tzid = zoneTexts[hash], let latest = latestZoneText["\(chunk.calendar)\u{0}\(tzid)"], latest.elementsEqual(text) { return }
        var textOnly = Hasher()
        textOnly.combine(bytes: text)
        let textHash = textOnly.finalize()
        // A vdir collection read joined: a file that writes a VTIMEZONE word
        // for word as an earlier file did reads it in the same zone.
        if zones.isScopedToCalendars, let earlier = scopedZoneTexts[textHash], earlier.text.elementsEqual(text),
            zones.adopt(tzid: earlier.tzid, from: earlier.calendar, into: chunk.calendar)
        {
            return
        }
        // The same text in another VCALENDAR (a vdir collection read joined:
        // every file repeats its zones) is the definition the file already
        // holds: that calendar shares it.
        if !zones.isScopedToCalendars, let tzid = sharedZoneTexts[textHash], let current = currentZoneText[tzid], current.elementsEqual(text),
            zones.share(tzid: tzid, calendar: chunk.calendar)
        {
            latestZoneText["\(chunk.calendar)\u{0}\(tzid)"] = current
            zoneTexts[hash] = tzid
            return
        }
        // Only a definition read without a warning is not read again: each damage is counted where it is.
        let warned = warningsGiven
        guard let component = parse(chunk, buffer), component.kind == .timezone else { return }
        var warnings: [String] = []
        let limited = zoneCost.limit(component, calendar: chunk.calendar, warnings: &warnings)
        for warning in warnings { warn(Warning(chunk.firstLine, .zoneRuleCost, warning)) }
        let definition = zones.define(vtimezone: limited, calendar: chunk.calendar)
        switch definition {
        case .noTZID:
            warn(Warning(chunk.firstLine, .zoneWithoutTZID, "VTIMEZONE without TZID", "VTIMEZONE without TZID; ignored"))
        case .tooMany(let tzid):
            if !warnedTooManyZones {
                warnedTooManyZones = true
                warn(Warning(chunk.firstLine, .tooManyZones, "too many time zones",
                    "VTIMEZONE \"\(tzid)\": the file defines more than \(ZoneTable.maxZones) time zones; this one and every later new one are ignored (their TZIDs are read as if not defined)"))
            }
        case .defined(let tzid), .unusable(let tzid):
            guard warningsGiven == warned else { break }
            zoneTexts[hash] = tzid
            latestZoneText["\(chunk.calendar)\u{0}\(tzid)"] = Array(text)
            if zones.isScopedToCalendars {
                if case .defined = definition { scopedZoneTexts[textHash] = (Array(text), tzid, chunk.calendar) }
            } else {
                sharedZoneTexts[textHash] = tzid
                currentZoneText[tzid] = Array(text)
            }
        }
        if case .defined(let tzid) = definition, currentZoneText[tzid].map({ !$0.elementsEqual(text) }) ?? false {
            currentZoneText[tzid] = nil  // defined anew, with a warning: not shared
        }
    }

    /// The text of the latest definition of each TZID read, per VCALENDAR,
    /// and which TZID a definition's text (by its hash) defined.
    private var zoneTexts: [Int: String] = [:]
    private var latestZoneText: [String: [UInt8]] = [:]
    /// The text of the definition each TZID now has, and which TZID a
    /// text (by its hash alone) defined: what another VCALENDAR may share.
    private var currentZoneText: [String: [UInt8]] = [:]
    private var sharedZoneTexts: [Int: String] = [:]
    /// With zones scoped to each VCALENDAR: each text defined without a
    /// warning, its TZID and the VCALENDAR that defined it first.
    private var scopedZoneTexts: [Int: (text: [UInt8], tzid: String, calendar: Int)] = [:]
    private var warnedTooManyZones = false

    /// The VTIMEZONEs of a large input read before its first stretch (where they start).
    var zonesRead = Set<Int>()

    /// Components read together, before they are applied in file order.
    static let batchSize = 1024
    /// How many shares of a batch each worker takes on average: a worker
    /// that is done with its share takes the next, and a batch ends when
    /// its last share does.
    static let sharesPerWorker = 8
    /// Below this many components one thread is quicker than starting more.
    static let parallelFrom = 512

    private mutating func parse(_ chunk: ComponentSplitter.Chunk, _ buffer: UnsafeBufferPointer<UInt8>) -> OwnedComponent? {
        var prepared = ProcessedChunk()
        let component = ChunkProcessor.parse(chunk, buffer, scratch: &scratch, into: &prepared)
        takeWarnings(of: prepared)
        return component
    }

    /// The warnings of a component in the order a serial read gives them:
    /// framing, then text repairs (once a file: `textRepair`), then the rest.
    private mutating func takeWarnings(of processed: ProcessedChunk) {
        for w in processed.framingWarnings { warn(w) }
        for w in textRepair.absorb(processed.repair) { warn(w) }
        for note in processed.repair.notes { warn(Warning(note.line, note.damage, "\(note.property): \(note.message)")) }
        for w in processed.warnings { warn(w) }
    }

    /// Takes one processed component into the file's state, in file order:
    /// its warnings, its count, whether it is the revision of its UID to keep,
    /// and then what it lists.
    mutating func apply(_ processed: ProcessedChunk) {
        takeWarnings(of: processed)
        if let counted = processed.counted {
            if counted.isOverride && processed.overrideIsFar {
                farOverrideUIDs[counted.kind, default: []].insert(SkippedRevisions.fingerprint(counted.uid))
            } else if counted.isOverride {
                overrideUIDs[counted.kind, default: []].insert(counted.uid)
            } else {
                masterCount[counted.kind, default: 0] += 1
                if processed.revision == nil { unlistedMasterUIDs[counted.kind, default: []].insert(counted.uid) }
            }
        }
        guard let candidate = processed.revision else { return }
        let component = componentNumber
        componentNumber += 1
        // Where its masters will go if it is kept, to drop them should a newer revision come.
        let listing = masters.count..<(masters.count + processed.masters.count)
        var slot: Int32? = nil
        if processed.overrideIsFar, let o = processed.override {
            // Whichever of its revisions is kept replaces this instance.
            if !o.uid.isEmpty {
                farOverrides.append(FarOverride(uid: SkippedRevisions.fingerprint(o.uid), kind: candidate.kind, recurrenceID: o.recurrenceID))
            }
            _ = supersedes(candidate, component, listing: listing, line: processed.line, series: &slot, far: true)
            return
        }
        guard supersedes(candidate, component, listing: listing, line: processed.line, series: &slot) else { return }
        if let o = processed.override {
            overrides.append(Override(occurrence: o.occurrence, uid: o.uid, recurrenceID: o.recurrenceID,
                thisAndFuture: o.thisAndFuture, component: component, kind: candidate.kind, series: processed.overrideSeries))
        }
        if let anchor = processed.seriesAnchor, let slot {
            series[Int(slot)].anchor = anchor.anchor.shape
        }
        if !processed.masters.isEmpty {
            masters += processed.masters
            masterKeys += processed.masterKeys
        }
        if let cut = processed.cutWarning { warn(cut) }
    }

    /// An instance after a RANGE=THISANDFUTURE override, as the latest such
    /// override before it changed it (RFC 5545 3.2.13, 3.8.4.4): moved by as
    /// much as the override moved its own instance, with the override's
    /// length and properties. The move is read on the wall clock of the
    /// series' `zone`, as its instances are made (3.3.10): a meeting moved
    /// from 09:00 to 10:00 three days later is at 10:00 after a change of
    /// offset too. nil when no such override precedes it, or when the
    /// override's times are of another kind than the series' (nothing to
    /// move by).
    static func changed(_ instance: Occurrence, by future: [(recurrenceID: AgendaTime, occurrence: Occurrence)], zone: Zone? = nil) -> Occurrence? {
        guard let original = instance.recurrenceID,
            let latest = future.last(where: { $0.recurrenceID.kind == original.kind && $0.recurrenceID.wall < original.wall })
        else { return nil }
        let o = latest.occurrence
        guard let anchor = o.start ?? o.due, anchor.kind == original.kind else { return nil }
        var newAnchor = original.wall + anchor.wall.timeIntervalSince(latest.recurrenceID.wall)
        if original.kind == .instant, let zone, zone != .utc {
            func wall(_ t: AgendaTime) -> Int { ZonedTime.wallSeconds(ofInstant: Int(t.wall.timeIntervalSince1970), in: zone) }
            let moved = wall(original) + wall(anchor) - wall(latest.recurrenceID)
            newAnchor = Date(timeIntervalSince1970: TimeInterval(ZonedTime.instantSeconds(of: TimeValue(wallSeconds: moved), in: zone)))
        }
        func moved(_ t: AgendaTime?) -> AgendaTime? {
            t.map { AgendaTime(kind: $0.kind, wall: newAnchor + $0.wall.timeIntervalSince(anchor.wall)) }
        }
        return Occurrence(item: o.item, start: moved(o.start), end: moved(o.end), due: moved(o.due), recurrenceID: original)
    }

    /// The zone of the first instance of the series of `uid`, if zoned.
    private func zone(ofSeries uid: String) -> Zone? {
        for kind in [ComponentRecord.Kind.event, .reminder] {
            if let index = seriesIndex[kind]?[uid], let shape = series[Int(index)].anchor { return shape.zone }
        }
        return nil
    }

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
    private mutating func supersedes(
        _ record: Revision.Candidate, _ component: Int, listing: Range<Int>, line: Int, series slot: inout Int32?, far: Bool = false
    ) -> Bool {
        guard !record.uid.isEmpty else { return true }
        let new = Revision(component: component, sequence: record.sequence, recurs: record.recurs, masters: listing, identity: record.identity)
        let old: Revision
        if record.recurrenceKey == nil {
            // A master with nothing in the window, read or not: only which
            // revision is newest matters, and a one-off one is distinct from
            // any other of its UID (`Revision.areDistinct`), as the prefilter
            // leaves those it skips, whichever of them it could read.
            if (record.skipped || listing.isEmpty) && seriesIndex[record.kind]?[record.uid] == nil {
                // Remembered by a fingerprint only: a file may hold millions of old events.
                if quietRevisions[record.kind, default: SkippedRevisions()].record(
                    SkippedRevisions.fingerprint(record.uid), sequence: record.sequence, recurs: record.recurs)
                {
                    masterCount[record.kind, default: 0] -= 1  // one item, not two
                }
                return true
            }
            // Found, or added, with one hash of the UID: a file may have a hundred thousand.
            let fresh = Int32(series.count)
            let index = LoadRun.value(of: &seriesIndex[record.kind, default: [:]][record.uid, default: fresh])
            slot = index
            guard index != fresh else {
                // An earlier revision may have been skipped, far from the window.
                if let earlier = quietRevision(SkippedRevisions.fingerprint(record.uid), record.kind)
                {
                    let old = Revision(component: -1, sequence: earlier.sequence, recurs: earlier.recurs, masters: 0..<0)
                    if Revision.areDistinct(new, old) {
                        // Two items (a conference feed's talks under one UID), one far from the window.
                        series.append(Series(revision: new))
                        return true
                    }
                    masterCount[record.kind, default: 0] -= 1  // one item, not two
                    guard Revision.isNewer(new, than: old) else {
                        series.append(Series(revision: old))
                        superseded.insert(component)
                        return false
                    }
                }
                series.append(Series(revision: new))
                return true
            }
            old = series[Int(index)].revision
            if Revision.areDistinct(new, old) {
                // Not two revisions of one item but two items (a conference
                // feed that gives every talk one UID): both are listed, each
                // once however often it is written.
                // Changed in place: a copy of the set for each of 80,000 one-offs under one UID was quadratic.
                let first = Set(old.identity.map { [$0] } ?? [])
                if let identity = new.identity, !sharedUIDs[record.uid, default: first].insert(identity).inserted {
                    superseded.insert(component)
                    masterCount[record.kind, default: 0] -= 1
                    return false
                }
                if sharedUIDs[record.uid] == nil { sharedUIDs[record.uid] = first }
                sharedExtras[record.uid, default: []].append(new)
                // Told when both are listed (one far from the window changes nothing listed),
                // so that the warning does not depend on the window.
                if old.identity != nil && !listing.isEmpty { sharedUIDLines[record.uid, default: []].append(line) }
                return true
            }
            masterCount[record.kind, default: 0] -= 1  // one item, not two
            if Revision.isNewer(new, than: old) {
                series[Int(index)] = Series(revision: new)
                // The items listed beside the one replaced share its
                // SEQUENCE: a newer revision of the UID replaces them all,
                // whatever order they came in.
                for extra in sharedExtras.removeValue(forKey: record.uid) ?? [] {
                    superseded.insert(extra.component)
                    if !extra.masters.isEmpty { droppedRanges.append(extra.masters) }
                    masterCount[record.kind, default: 0] -= 1
                }
                sharedUIDs[record.uid] = nil
                sharedUIDLines[record.uid] = nil
            }
        } else {
            let key = Revision.Key(kind: record.kind, uid: record.uid, recurrence: record.recurrenceKey)
            let farKey = SkippedRevisions.fingerprint(record.uid + "\u{0}" + (record.recurrenceKey ?? ""))
            func rememberFar() {
                farOverrideRevisions[record.kind, default: SkippedRevisions()].record(farKey, sequence: record.sequence, recurs: record.recurs)
            }
            guard let existing = revisions[key] else {
                if let earlier = farOverrideRevisions[record.kind]?.revision(farKey) {
                    // An earlier revision far from the window: the newer of the two is kept.
                    if far {
                        rememberFar()
                        return true
                    }
                    let old = Revision(component: -1, sequence: earlier.sequence, recurs: earlier.recurs, masters: 0..<0)
                    guard Revision.isNewer(new, than: old) else {
                        superseded.insert(component)
                        return false
                    }
                }
                if far { rememberFar() } else { revisions[key] = new }
                return true
            }
            old = existing
            if Revision.isNewer(new, than: old) {
                if far {
                    revisions[key] = nil
                    rememberFar()
                } else {
                    revisions[key] = new
                }
            }
        }
        let newer = Revision.isNewer(new, than: old)
        superseded.insert(newer ? old.component : new.component)
        if newer && !old.masters.isEmpty { droppedRanges.append(old.masters) }
        return newer
    }

    /// The newest revision of a master that lists nothing, by the fingerprint of its UID (`quietRevisions`).
    private func quietRevision(_ fingerprint: UInt64, _ kind: ComponentRecord.Kind) -> (sequence: Int, recurs: Bool)? {
        guard let quiet = quietRevisions[kind], quiet.count > 0 else { return nil }
        return quiet.revision(fingerprint)
    }

    /// Whether a master of `uid` that lists nothing was read.
    private func isQuiet(_ uid: String, _ kind: ComponentRecord.Kind) -> Bool {
        quietRevision(SkippedRevisions.fingerprint(uid), kind) != nil
    }

    /// The value a dictionary's default subscript gives an inout access
    /// (inserting the default when the key is new).
    private static func value(of slot: inout Int32) -> Int32 { slot }

    mutating func warn(_ warning: Warning) {
        warningsGiven += 1
        if diagnostics.count >= LoadRun.maxDiagnostics {
            // Past the limit a kind already told is counted on its first
            // warning; a new kind is kept, up to `maxKindsPast` of them.
            if let first = firstOfKind[warning.kind] {
                if diagnostics[first].morePlaces == 0 { diagnostics[first].morePlacesFrom = warning.line }
                diagnostics[first].morePlaces += 1
                return
            }
            guard diagnostics.count < LoadRun.maxDiagnostics + LoadRun.maxKindsPast else {
                unwrittenDiagnostics += 1
                return
            }
        }
        if firstOfKind[warning.kind] == nil { firstOfKind[warning.kind] = diagnostics.count }
        diagnostics.append(Diagnostic(path: path, line: warning.line, message: warning.message, kind: warning.kind, damage: warning.damage.rawValue))
    }

    mutating func warn(_ line: Int, _ damage: DamageKind, _ message: String) {
        warn(Warning(line, damage, message))
    }

    /// The warnings one file may give: an endless stream of damaged
    /// components would otherwise fill memory with them. The rest are counted.
    static let maxDiagnostics = 10_000
    /// Kinds first met past `maxDiagnostics` that are still kept, one warning each.
    static let maxKindsPast = 1_000
    /// The first warning of each kind, by its place in `diagnostics`.
    var firstOfKind: [String: Int] = [:]
    var unwrittenDiagnostics = 0
    /// Every warning given, kept or counted.
    var warningsGiven = 0

    /// The file's occurrences: overrides, then the masters' instances less
    /// those an override replaces or a newer revision dropped. Instances are
    /// found through their series' place in `masters`, not by hashing the
    /// UID of each of hundreds of thousands of them.
    mutating func finish() -> LoadedCalendar {
        for (uid, lines) in sharedUIDLines {
            for line in lines {
                warn(Warning(line, .sharedUID, "shared UID",
                    "UID \"\(uid)\" is shared by components that cannot be revisions of one another (none recurs, the same SEQUENCE, another DTSTART or SUMMARY); each is listed"))
            }
        }
        // Filtered in place: a copy would hold every override twice.
        var overrides = self.overrides
        self.overrides = []
        overrides.removeAll { superseded.contains($0.component) }
        var dropped = [Bool](repeating: false, count: masters.count)
        for range in droppedRanges { for i in range { dropped[i] = true } }
        // RANGE=THISANDFUTURE overrides by UID, in the order of their RECURRENCE-IDs.
        var futures: [String: [(recurrenceID: AgendaTime, occurrence: Occurrence)]] = [:]
        for o in overrides {
            let anchor = seriesIndex[o.kind]?[o.uid].flatMap { series[Int($0)].anchor }
            let rid = anchor.map { o.recurrenceID.matching(series: $0.asAnchor) } ?? o.recurrenceID
            // An override replaces the instance of that start in the series of its UID, of either kind.
            if !o.uid.isEmpty {
                let key = rid.agendaTime.matchKey
                for kind in [ComponentRecord.Kind.event, .reminder] {
                    guard let index = seriesIndex[kind]?[o.uid] else { continue }
                    for i in series[Int(index)].revision.masters where masterKeys[i] == key { dropped[i] = true }
                }
            }
            if o.thisAndFuture && !o.uid.isEmpty { futures[o.uid, default: []].append((rid.agendaTime, o.occurrence)) }
        }
        // Overrides far from the window replace their instances the same way,
        // found by the fingerprint of their UID among the series listed.
        if !farOverrides.isEmpty {
            let listed = seriesIndex.mapValues { index in
                Dictionary(index.map { (SkippedRevisions.fingerprint($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
            }
            for o in farOverrides {
                guard listed[.event]?[o.uid] != nil || listed[.reminder]?[o.uid] != nil else { continue }
                let anchor = listed[o.kind]?[o.uid].flatMap { series[Int($0)].anchor }
                let key = (anchor.map { o.recurrenceID.matching(series: $0.asAnchor) } ?? o.recurrenceID).agendaTime.matchKey
                for kind in [ComponentRecord.Kind.event, .reminder] {
                    guard let index = listed[kind]?[o.uid] else { continue }
                    for i in series[Int(index)].revision.masters where masterKeys[i] == key { dropped[i] = true }
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
            if let series = o.series, !o.uid.isEmpty, seriesIndex[.event]?[o.uid] == nil, seriesIndex[.reminder]?[o.uid] == nil,
                !isQuiet(o.uid, .event), !isQuiet(o.uid, .reminder)
            {
                occurrences += series.occurrences
                warn(Warning(series.line, .orphanOverrideRule, "orphan override with its own rule",
                    "RECURRENCE-ID and RRULE or RDATE in one component, and no component without RECURRENCE-ID for UID \"\(o.uid)\": its own recurrence set is listed"))
            } else {
                occurrences.append(o.occurrence)
            }
        }
        for (index, occurrence) in masters.enumerated() where !dropped[index] {
            if !futures.isEmpty, let future = futures[occurrence.uid], let changed = LoadRun.changed(occurrence, by: future, zone: zone(ofSeries: occurrence.uid)) {
                occurrences.append(changed)
                continue
            }
            occurrences.append(occurrence)
        }
        func count(_ kind: ComponentRecord.Kind) -> Int {
            // Overrides are few, masters may be a hundred thousand: no set is built.
            let listed = seriesIndex[kind, default: [:]], unlisted = unlistedMasterUIDs[kind, default: []]
            let orphans = overrideUIDs[kind, default: []].reduce(0) {
                let skipped = isQuiet($1, kind)
                return $0 + (listed[$1] == nil && !unlisted.contains($1) && !skipped ? 1 : 0)
            }
            // UIDs only overrides far from the window have, by fingerprint.
            var farOrphans = 0
            if let far = farOverrideUIDs[kind], !far.isEmpty {
                let known = Set(overrideUIDs[kind, default: []].map(SkippedRevisions.fingerprint))
                    .union(listed.keys.map(SkippedRevisions.fingerprint)).union(unlisted.map(SkippedRevisions.fingerprint))
                farOrphans = far.reduce(0) { $0 + (known.contains($1) || quietRevision($1, kind) != nil ? 0 : 1) }
            }
            return masterCount[kind, default: 0] + orphans + farOrphans
        }
        var told = self.diagnostics
        if unwrittenDiagnostics > 0 {
            var rest = Diagnostic(path: path, line: nil,
                message: "\(unwrittenDiagnostics) more warning\(unwrittenDiagnostics == 1 ? "" : "s") not shown (at most \(LoadRun.maxDiagnostics) a file)")
            rest.standsFor = unwrittenDiagnostics
            told.append(rest)
        }
        // In the order of the file (zones are read first, a cut file is found last).
        let ordered = told.enumerated().sorted { ($0.element.line ?? Int.max, $0.offset) < ($1.element.line ?? Int.max, $1.offset) }.map(\.element)
        return LoadedCalendar(calendar: calendar, occurrences: occurrences, eventCount: count(.event),
            reminderCount: count(.reminder), diagnostics: ordered)
    }
}

/// An override far from the window: the instance it replaces.
struct FarOverride {
    /// `SkippedRevisions.fingerprint` of its UID.
    let uid: UInt64
    let kind: ComponentRecord.Kind
    let recurrenceID: ZonedTime
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
