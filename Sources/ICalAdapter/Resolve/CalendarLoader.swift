import AgendaCore
import Foundation
internal import CLibical

/// One input read: its calendar, the occurrences that can touch the
/// window, and what was wrong with it.
public struct LoadedCalendar: Sendable {
    public let calendar: CalendarInfo
    public let occurrences: [Occurrence]
    /// How many events and reminders the file holds, for `calendars`: a
    /// series with its overrides is one; an override without its master counts.
    public let eventCount: Int
    public let reminderCount: Int
    public let diagnostics: [Diagnostic]
}

/// The input is not an iCalendar stream at all (exit status 65).
public struct NotICalendar: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "\(path): not an iCalendar file: \(reason)" }
}

/// Reads one calendar with libical and expands it over a window: the
/// adapter's entry point, and the only place the pipeline meets C.
///
/// Components are framed by `ComponentSplitter` and parsed one at a time,
/// VTIMEZONEs first; each is read into Swift values and freed before the
/// next, so memory follows the largest component, not the file.
public struct CalendarLoader {
    public let window: AgendaWindow
    /// How many threads read components: nil for every core on a large
    /// file. The agenda is the same whatever the number.
    public let threads: Int?
    /// Parse every component, also the one-off events far from the window
    /// that are otherwise skipped unread: `--strict` must see their damage.
    public let readsEveryComponent: Bool
    /// Rows beyond one a day that the file's series may list together
    /// (`rowsPerFile`; tests give a small one).
    public let rowBudget: Int

    /// Rows beyond one a day that the series of one file may list together
    /// (each series at most `RecurrenceExpander.maxInstances`): once spent,
    /// a further series lists one row a day of the window, with a warning.
    /// Real calendars do not come near it (no series of gencal's 300,000
    /// components lists more than one row a day); it bounds what a small
    /// hostile file costs to what the same file of daily events would: a
    /// thousand `FREQ=SECONDLY` rules would otherwise make a hundred
    /// million rows.
    public static let rowsPerFile = 1_000_000

    /// The largest stretch of an input framed at once, and the largest
    /// component read (`InputSegments`): 64 MB. Tests give small ones.
    public var stretchBytes = InputSegments.stretchBytes
    /// The most components framed at once.
    public var stretchComponents = InputSegments.stretchComponents

    public init(window: AgendaWindow, threads: Int? = nil, readsEveryComponent: Bool = false, rowBudget: Int = CalendarLoader.rowsPerFile) {
        self.window = window
        self.threads = threads
        self.readsEveryComponent = readsEveryComponent
        self.rowBudget = rowBudget
    }

    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - path: how warnings name the input.
    ///   - defaultName: the calendar's name when it has no `X-WR-CALNAME`.
    ///   - source: the folder that holds it.
    public func load(_ data: Data, path: String, defaultName: String, source: String) throws -> LoadedCalendar {
        try load(Array(data), path: path, defaultName: defaultName, source: source)
    }

    public func load(_ input: [UInt8], path: String, defaultName: String, source: String) throws -> LoadedCalendar {
        try input.withUnsafeBufferPointer { try load($0, path: path, defaultName: defaultName, source: source) }
    }

    /// Reads a calendar from a stream (standard input, a pipe) as it comes:
    /// an input up to `InputSegments.stretchBytes` is read whole, as a file
    /// is; a longer one a stretch at a time, so that an endless stream is
    /// read in bounded memory. `read` fills the buffer it is given and
    /// returns how many bytes it wrote, 0 at the end.
    public func load(
        streaming read: (UnsafeMutableRawBufferPointer) throws -> Int, path: String, defaultName: String, source: String
    ) throws -> LoadedCalendar {
        let stretch = stretchBytes
        var buffer: [UInt8] = []
        var ended = false
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        // UTF-16 is read as UTF-8, as it comes.
        var utf16: UTF16Transcoder? = nil
        func fill(upTo size: Int) throws {
            while !ended && buffer.count < size {
                let n = try chunk.withUnsafeMutableBytes { try read($0) }
                if n == 0 {
                    ended = true
                    utf16?.finish(into: &buffer)
                } else if utf16 != nil {
                    chunk.withUnsafeBufferPointer { utf16!.append(UnsafeBufferPointer(rebasing: $0[0..<n]), to: &buffer) }
                } else {
                    buffer.append(contentsOf: chunk[0..<n])
                }
            }
        }
        // Enough to tell UTF-16 (`BEGIN:` in two bytes a character).
        try fill(upTo: 12)
        if let order = buffer.withUnsafeBufferPointer({ TextRepair.utf16ByteOrder($0) }) {
            let read = buffer
            buffer = []
            var transcoder = UTF16Transcoder(bigEndian: order.bigEndian)
            read.withUnsafeBufferPointer { transcoder.append(UnsafeBufferPointer(rebasing: $0[order.skip...]), to: &buffer) }
            if ended { transcoder.finish(into: &buffer) }
            utf16 = transcoder
        }
        try fill(upTo: stretch)
        if ended {
            // All of it: read as a file is.
            return try load(buffer, path: path, defaultName: defaultName, source: source)
        }
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { buffer.removeFirst(3) }
        // Rules after the window are parsed: a RANGE=THISANDFUTURE later in the stream could move them.
        var reader = StretchReader(loader: self, path: path, defaultName: defaultName, source: source, release: nil)
        // Within a component too large to read: its bytes are dropped as they come, up to the next one.
        var skipping = false
        while true {
            try fill(upTo: stretch)
            if buffer.isEmpty { break }
            let consumed: Int = try buffer.withUnsafeBufferPointer { bytes in
                if skipping {
                    // The component ends where the next begins.
                    if let cut = InputSegments.firstCut(in: bytes, from: 0, before: bytes.count) {
                        try reader.skip(bytes, 0..<cut, warn: false)
                        skipping = false
                        return cut
                    }
                    // The last, unfinished line may be that BEGIN line: it is kept.
                    let cut = ended ? bytes.count : (bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count)
                    try reader.skip(bytes, 0..<cut, warn: false)
                    return cut
                }
                if ended { return try reader.take(bytes, 0..<bytes.count) }
                if let cut = InputSegments.lastCut(in: bytes, after: 0, before: bytes.count) { return try reader.take(bytes, 0..<cut) }
                // One component fills the stretch: told, and dropped up to the next.
                let cut = bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
                try reader.skip(bytes, 0..<cut, warn: true)
                skipping = true
                return cut
            }
            if consumed == 0 && ended { break }
            buffer.removeFirst(consumed)
        }
        return try buffer.withUnsafeBufferPointer { try reader.finish($0) }
    }

    /// Reads a calendar from memory the caller owns (a mapped file).
    /// `release` is told which byte ranges will not be read again, so that
    /// their pages can go back to the system: memory then follows the
    /// largest component, not the file.
    public func load(
        _ input: UnsafeBufferPointer<UInt8>, release: ((Range<Int>) -> Void)? = nil, path: String, defaultName: String, source: String
    ) throws -> LoadedCalendar {
        if TextRepair.utf16ByteOrder(input) != nil {
            // Read as a stream is, as UTF-8 a stretch at a time; the pages
            // read go back as they are copied.
            var offset = 0
            return try load(
                streaming: { out in
                    let n = min(out.count, input.count - offset)
                    guard n > 0 else { return 0 }
                    out.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: input[offset..<(offset + n)])))
                    release?(offset..<(offset + n))
                    offset += n
                    return n
                }, path: path, defaultName: defaultName, source: source)
        }
        // A UTF-8 byte-order mark is skipped.
        let skip = TextDecoding.hasUTF8BOM(input) ? 3 : 0
        let buffer = UnsafeBufferPointer(rebasing: input[skip...])
        let shifted = release.map { release in { (range: Range<Int>) in release((range.lowerBound + skip)..<(range.upperBound + skip)) } }
        var reader = StretchReader(loader: self, path: path, defaultName: defaultName, source: source, release: shifted)
        // The prefilter needs to know; on a large file it is read beside the framing, on another core.
        let scanning = DispatchGroup()
        let scan = SeriesMoveScan(text: buffer)
        if !readsEveryComponent {
            if buffer.count < 1 << 20 {
                scan.run()
            } else if buffer.count <= stretchBytes {
                DispatchQueue.global().async(group: scanning) { scan.run() }
            } else {
                scan.runInStretches(of: stretchBytes, release: shifted)
            }
        }
        if buffer.count > stretchBytes { reader.zoneStarts = InputSegments.zoneStarts(in: buffer, stretch: stretchBytes, release: shifted) }
        // A large input is framed and read a stretch at a time; one of up to
        // 64 MB (and 262,144 components) is one stretch.
        var start = 0
        var scanned = false
        repeat {
            let limit = min(start + stretchBytes, buffer.count)
            let cut = limit == buffer.count ? limit : InputSegments.lastCut(in: buffer, after: start, before: limit)
            guard let cut else {
                let next = InputSegments.firstCut(in: buffer, from: limit, before: buffer.count) ?? buffer.count
                try reader.skip(buffer, start..<next, warn: true)
                shifted?(start..<next)
                start = next
                continue
            }
            if !scanned {
                scanned = true
                scanning.wait()
                reader.skipsRules = !scan.mayMoveSeries  // false with --strict, which has no prefilter: not scanned
            }
            let stopped = try reader.take(buffer, start..<cut)
            guard stopped > start else { break }
            start = stopped
        } while start < buffer.count
        return try reader.finish(buffer)
    }
}

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
    /// Per kind and UID, the series (master) kept so far: an index into
    /// `series`. Small on purpose: one entry per component of the file.
    var seriesIndex: [ComponentRecord.Kind: [String: Int32]] = [:]
    var series: [Series] = []
    /// The override kept so far for each kind, UID and RECURRENCE-ID, and
    /// the components superseded (numbered in the order they were read).
    var revisions: [Revision.Key: Revision] = [:]
    var superseded = Set<Int>()
    /// The one-off events skipped far from the window whose UID nothing listed has.
    var skippedRevisions = SkippedRevisions()
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
    var readsEveryComponent = false
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
            prefilter: readsEveryComponent ? nil : WindowPrefilter(window: window, skipsRules: skipsRules),
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
        _ = ZoneTable.utc
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
        var current = BatchResults(count: LoadRun.batchSize)
        var spare = BatchResults(count: LoadRun.batchSize)
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
        guard let component = parse(chunk, buffer), icalcomponent_isa(component.pointer) == ICAL_VTIMEZONE_COMPONENT else { return }
        var warnings: [String] = []
        let limited = zoneCost.limit(component, calendar: chunk.calendar, warnings: &warnings)
        for warning in warnings { warn(Warning(chunk.firstLine, warning)) }
        if zones.define(vtimezone: limited, calendar: chunk.calendar) == .noTZID {
            warn(Warning(chunk.firstLine, "VTIMEZONE without TZID", "VTIMEZONE without TZID; ignored"))
        }
    }

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
        for note in processed.repair.notes { warn(Warning(note.line, "\(note.property): \(note.message)")) }
        for w in processed.warnings { warn(w) }
    }

    /// Takes one processed component into the file's state, in file order:
    /// its warnings, its count, whether it is the revision of its UID to keep,
    /// and then what it lists.
    mutating func apply(_ processed: ProcessedChunk) {
        takeWarnings(of: processed)
        if let counted = processed.counted {
            if counted.isOverride {
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
    static func changed(_ instance: Occurrence, by future: [(recurrenceID: AgendaTime, occurrence: Occurrence)], zone: OpaquePointer? = nil) -> Occurrence? {
        guard let original = instance.recurrenceID,
            let latest = future.last(where: { $0.recurrenceID.kind == original.kind && $0.recurrenceID.wall < original.wall })
        else { return nil }
        let o = latest.occurrence
        guard let anchor = o.start ?? o.due, anchor.kind == original.kind else { return nil }
        var newAnchor = original.wall + anchor.wall.timeIntervalSince(latest.recurrenceID.wall)
        if original.kind == .instant, let zone, zone != ZoneTable.utc {
            func wall(_ t: AgendaTime) -> Int { ZonedTime.wallSeconds(ofInstant: Int(t.wall.timeIntervalSince1970), in: zone) }
            let moved = wall(original) + wall(anchor) - wall(latest.recurrenceID)
            newAnchor = Date(timeIntervalSince1970: TimeInterval(ZonedTime.instantSeconds(of: RecurrenceExpander.at(wallSeconds: moved, like: icaltimetype()), in: zone)))
        }
        func moved(_ t: AgendaTime?) -> AgendaTime? {
            t.map { AgendaTime(kind: $0.kind, wall: newAnchor + $0.wall.timeIntervalSince(anchor.wall)) }
        }
        return Occurrence(item: o.item, start: moved(o.start), end: moved(o.end), due: moved(o.due), recurrenceID: original)
    }

    /// The zone of the first instance of the series of `uid`, if zoned.
    private func zone(ofSeries uid: String) -> OpaquePointer? {
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
    private mutating func supersedes(_ record: Revision.Candidate, _ component: Int, listing: Range<Int>, line: Int, series slot: inout Int32?) -> Bool {
        guard !record.uid.isEmpty else { return true }
        let new = Revision(component: component, sequence: record.sequence, recurs: record.recurs, masters: listing, identity: record.identity)
        let old: Revision
        if record.recurrenceKey == nil {
            if record.skipped && seriesIndex[record.kind]?[record.uid] == nil {
                // Remembered by a fingerprint only: a file may hold millions of old events.
                if skippedRevisions.record(SkippedRevisions.fingerprint(record.uid), sequence: record.sequence, recurs: record.recurs) {
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
                if skippedRevisions.count > 0, record.kind == .event,
                    let earlier = skippedRevisions.revision(SkippedRevisions.fingerprint(record.uid))
                {
                    masterCount[record.kind, default: 0] -= 1  // one item, not two
                    let old = Revision(component: -1, sequence: earlier.sequence, recurs: earlier.recurs, masters: 0..<0)
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
                var listed = sharedUIDs[record.uid] ?? Set(old.identity.map { [$0] } ?? [])
                if let identity = new.identity, !listed.insert(identity).inserted {
                    superseded.insert(component)
                    masterCount[record.kind, default: 0] -= 1
                    return false
                }
                sharedUIDs[record.uid] = listed
                sharedExtras[record.uid, default: []].append(new)
                if old.identity != nil { sharedUIDLines[record.uid, default: []].append(line) }
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
            guard let existing = revisions[key] else {
                revisions[key] = new
                return true
            }
            old = existing
            if Revision.isNewer(new, than: old) { revisions[key] = new }
        }
        let newer = Revision.isNewer(new, than: old)
        superseded.insert(newer ? old.component : new.component)
        if newer && !old.masters.isEmpty { droppedRanges.append(old.masters) }
        return newer
    }

    /// The value a dictionary's default subscript gives an inout access
    /// (inserting the default when the key is new).
    private static func value(of slot: inout Int32) -> Int32 { slot }

    mutating func warn(_ warning: Warning) {
        guard diagnostics.count < LoadRun.maxDiagnostics else {
            unwrittenDiagnostics += 1
            return
        }
        diagnostics.append(Diagnostic(path: path, line: warning.line, message: warning.message, kind: warning.kind,
            changesAgenda: warning.changesAgenda))
    }

    mutating func warn(_ line: Int, _ message: String) {
        warn(Warning(line, message))
    }

    /// The warnings one file may give: an endless stream of damaged
    /// components would otherwise fill memory with them. The rest are counted.
    static let maxDiagnostics = 10_000
    var unwrittenDiagnostics = 0

    /// The file's occurrences: overrides, then the masters' instances less
    /// those an override replaces or a newer revision dropped. Instances are
    /// found through their series' place in `masters`, not by hashing the
    /// UID of each of hundreds of thousands of them.
    mutating func finish() -> LoadedCalendar {
        for (uid, lines) in sharedUIDLines {
            for line in lines {
                warn(Warning(line, "shared UID",
                    "UID \"\(uid)\" is shared by components that cannot be revisions of one another (none recurs, the same SEQUENCE, another DTSTART or SUMMARY); each is listed"))
            }
        }
        let overrides = self.overrides.filter { !superseded.contains($0.component) }
        var diagnostics = self.diagnostics
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
        for uid in futures.keys { futures[uid]!.sort { $0.recurrenceID.wall < $1.recurrenceID.wall } }
        var occurrences: [Occurrence] = []
        occurrences.reserveCapacity(masters.count + overrides.count)
        for o in overrides {
            // RECURRENCE-ID names an instance of a series this file lacks, and
            // RRULE makes the component a series itself (RFC 5545 3.8.4.4 and
            // 3.8.5.3): with no master to change, its own recurrence set is
            // what it describes (KCalendarCore lists it so). Said once.
            if let series = o.series, !o.uid.isEmpty, seriesIndex[.event]?[o.uid] == nil, seriesIndex[.reminder]?[o.uid] == nil {
                occurrences += series.occurrences
                diagnostics.append(Diagnostic(path: path, line: series.line,
                    message: "RECURRENCE-ID and RRULE or RDATE in one component, and no component without RECURRENCE-ID for UID \"\(o.uid)\": its own recurrence set is listed"))
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
                let skipped = kind == .event && skippedRevisions.revision(SkippedRevisions.fingerprint($1)) != nil
                return $0 + (listed[$1] == nil && !unlisted.contains($1) && !skipped ? 1 : 0)
            }
            return masterCount[kind, default: 0] + orphans
        }
        var told = diagnostics
        if unwrittenDiagnostics > 0 {
            told.append(Diagnostic(path: path, line: nil,
                message: "\(unwrittenDiagnostics) more warning\(unwrittenDiagnostics == 1 ? "" : "s") not shown (at most \(LoadRun.maxDiagnostics) a file)"))
        }
        // In the order of the file (zones are read first, a cut file is found last).
        let ordered = told.enumerated().sorted { ($0.element.line ?? Int.max, $0.offset) < ($1.element.line ?? Int.max, $1.offset) }.map(\.element)
        return LoadedCalendar(calendar: calendar, occurrences: occurrences, eventCount: count(.event),
            reminderCount: count(.reminder), diagnostics: ordered)
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

/// Reads batches of a file's components on the workers. Each worker takes
/// every `threads`-th job of a batch (so that slow and quick ones spread
/// evenly) and writes only its own result slots and its own scratch buffer.
private struct BatchReader: @unchecked Sendable {
    let items: [ComponentSplitter.Chunk]
    let buffer: UnsafeBufferPointer<UInt8>
    let processor: ChunkProcessor
    /// The rows each series may list at first (one a day of the window).
    let firstRows: Int

    func end(of start: Int) -> Int { min(start + LoadRun.batchSize, items.count) }

    /// Every component of the batch at `start`, into the first slots of `results` (empty ones).
    func read(batchAt start: Int, into results: BatchResults, scratch: ScratchBuffers) {
        process(start, (0..<(end(of: start) - start)).map { ($0, firstRows) }, into: results, scratch: scratch)
    }

    /// Reads the given components of the batch at `start` (slot, rows it
    /// may list) into `results`: in as many shares as `scratch` has buffers,
    /// each share every so-many-th job (so that slow and quick ones spread
    /// evenly), the shares handed to the threads as they come free (so that
    /// one slow share does not keep the others waiting); one buffer: on this thread.
    func process(_ start: Int, _ jobs: [(slot: Int, maxRows: Int)], into results: BatchResults, scratch: ScratchBuffers) {
        let shares = min(scratch.buffers.count, jobs.count)
        guard shares > 0 else { return }
        @Sendable func work(_ share: Int) {
            for j in stride(from: share, to: jobs.count, by: shares) {
                let (slot, maxRows) = jobs[j]
                results.items[slot] = processor.process(items[start + slot], buffer, scratch: &scratch.buffers[share], maxRows: maxRows)
            }
        }
        if shares <= 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: shares, execute: work) }
    }
}

/// One batch's results. Each slot is written by one worker, then read by
/// the applying thread once every worker is done (concurrentPerform's
/// return or a DispatchGroup orders the two): plain memory, so that no
/// array is shared between threads.
private final class BatchResults: @unchecked Sendable {
    let items: UnsafeMutableBufferPointer<ProcessedChunk>
    init(count: Int) {
        items = .allocate(capacity: count)
        items.initialize(repeating: ProcessedChunk())
    }
    deinit {
        items.deinitialize()
        items.deallocate()
    }
}

/// `WindowPrefilter.mayMoveSeries` on another thread: the text is only
/// read, and the answer is written before the DispatchGroup's wait returns.
private final class SeriesMoveScan: @unchecked Sendable {
    let text: UnsafeBufferPointer<UInt8>
    var mayMoveSeries = true

    init(text: UnsafeBufferPointer<UInt8>) {
        self.text = text
    }

    func run() { mayMoveSeries = WindowPrefilter.mayMoveSeries(text) }

    /// The same a stretch at a time, each given back once read (a word
    /// across two stretches is found: each starts a little before the last ended).
    func runInStretches(of stretch: Int, release: ((Range<Int>) -> Void)?) {
        var start = 0
        mayMoveSeries = false
        while start < text.count && !mayMoveSeries {
            let end = min(start + stretch, text.count)
            mayMoveSeries = WindowPrefilter.mayMoveSeries(UnsafeBufferPointer(rebasing: text[max(0, start - 4096)..<end]))
            release?(start..<end)
            start = end
        }
    }
}

/// The text a component is prepared in for libical, one buffer per
/// thread that reads components at once.
private final class ScratchBuffers: @unchecked Sendable {
    let buffers: UnsafeMutableBufferPointer<[CChar]>
    init(count: Int, first: [CChar] = []) {
        buffers = .allocate(capacity: count)
        buffers.initialize(repeating: [])
        buffers[0] = first
    }
    deinit {
        buffers.deinitialize()
        buffers.deallocate()
    }
}

/// A component with a RECURRENCE-ID: one instance of a series, as changed.
struct Override {
    let occurrence: Occurrence
    let uid: String
    /// As written; read in the series' kind when matched (a floating value in a zoned series' zone).
    let recurrenceID: ZonedTime
    /// RANGE=THISANDFUTURE: the change applies to every later instance too.
    let thisAndFuture: Bool
    let component: Int
    let kind: ComponentRecord.Kind
    /// With RRULE or RDATE beside RECURRENCE-ID: the instances of its own
    /// rule, and its first line, for when its UID has no master.
    var series: (occurrences: [Occurrence], line: Int)? = nil
}

/// The component kept for one UID and RECURRENCE-ID.
struct Revision {
    let component: Int
    let sequence: Int
    let recurs: Bool
    /// Where its occurrences are in `LoadRun.masters`.
    let masters: Range<Int>
    /// For a component that neither recurs nor overrides: its DTSTART and
    /// SUMMARY, hashed; nil when not known (a one-off event the prefilter
    /// did not parse) or not needed.
    var identity: Int? = nil

    struct Key: Hashable {
        let kind: ComponentRecord.Kind
        let uid: String
        let recurrence: String?
    }

    /// RFC 5545 3.8.7.4: the higher SEQUENCE is the newer; on a tie the later
    /// wins when either recurs, and of two one-off components the first stays.
    static func isNewer(_ new: Revision, than old: Revision) -> Bool {
        new.sequence != old.sequence ? new.sequence > old.sequence : (new.recurs || old.recurs)
    }

    /// Whether two components that share a UID cannot be revisions of one
    /// another, and so are both listed: neither recurs, their SEQUENCE is
    /// equal (a revision counts it up, RFC 5545 3.8.7.4), and their DTSTART
    /// or SUMMARY differ (two copies of one event are one item).
    /// An event far from the window that was not parsed (no identity) is
    /// taken as distinct too: it lists nothing, and must not hide a talk of
    /// the same feed that is in the window.
    static func areDistinct(_ new: Revision, _ old: Revision) -> Bool {
        guard !new.recurs, !old.recurs, new.sequence == old.sequence else { return false }
        guard let a = new.identity, let b = old.identity else { return true }
        return a != b
    }

    /// What a component says of itself for that choice.
    struct Candidate {
        let kind: ComponentRecord.Kind
        let uid: String
        /// The RECURRENCE-ID, as kind and seconds; nil for a master.
        let recurrenceKey: String?
        let sequence: Int
        let recurs: Bool
        /// `Revision.identity`.
        var identity: Int? = nil
        /// A one-off event the prefilter skipped: it lists nothing, and is
        /// remembered in `SkippedRevisions` unless its UID is already listed.
        var skipped = false

        init(kind: ComponentRecord.Kind, uid: String, recurrenceKey: String?, sequence: Int, recurs: Bool, skipped: Bool = false) {
            self.kind = kind
            self.uid = uid
            self.recurrenceKey = recurrenceKey
            self.sequence = sequence
            self.recurs = recurs
            self.skipped = skipped
        }

        init(_ record: ComponentRecord) {
            self.init(kind: record.kind, uid: record.matchUID,
                recurrenceKey: record.recurrenceID.map { "\($0.agendaTime.kind)\($0.agendaTime.matchKey)" },
                sequence: record.sequence, recurs: record.isRecurring)
            if !recurs && recurrenceKey == nil {
                var hasher = Hasher()
                hasher.combine(record.dtstart.map { "\($0.agendaTime.kind)\($0.agendaTime.matchKey)" })
                hasher.combine(record.summary)
                identity = hasher.finalize()
            }
        }
    }
}

/// Identifies one instance of a series: the UID and the instance's original start.
struct OverrideKey: Hashable {
    let uid: String
    let time: Int64

    /// nil without a UID: components without one are never one series
    /// (RFC 5545 3.8.4.7), so nothing overrides their instances.
    static func make(uid: String, _ time: AgendaTime) -> OverrideKey? {
        uid.isEmpty ? nil : OverrideKey(uid: uid, time: time.matchKey)
    }
}

/// Finds properties inside a framed component, for warnings: their line
/// numbers and values as written. The component's lines are indexed once,
/// when the first warning asks, so that a component with ten thousand bad
/// values costs ten thousand lookups, not ten thousand passes over it; each
/// lookup by value takes the next line with that value, so that every
/// warning names its own line.
final class LineFinder {
    private let chunk: ComponentSplitter.Chunk
    private let buffer: UnsafeBufferPointer<UInt8>
    private var byName: [String: [(line: Int, value: String)]]? = nil
    /// Per property and value (as `value` cuts it), the entries of `byName`, and how many were taken.
    private var byValue: [String: (entries: [Int], taken: Int)] = [:]

    init(_ chunk: ComponentSplitter.Chunk, _ buffer: UnsafeBufferPointer<UInt8>) {
        self.chunk = chunk
        self.buffer = buffer
    }

    /// - Parameter value: when given, the line of that value (a line whose
    ///   value starts with it, or lists it, when none is exactly it; the
    ///   first line of the property otherwise).
    func find(_ property: String, value wanted: String? = nil) -> (line: Int, value: String)? {
        let name = property.uppercased()
        if byName == nil { index() }
        guard let entries = byName?[name], let first = entries.first else { return nil }
        guard let wanted else { return first }
        let key = name + "\u{0}" + LineFinder.cut(wanted)
        // The value, one item of a list, or the start of a value the line's end cut short (folded).
        for key in [key, name + "\u{1}" + wanted, name + "\u{2}" + String(wanted.prefix(LineFinder.prefixLength))] {
            if var slot = byValue[key] {
                let e = slot.entries[min(slot.taken, slot.entries.count - 1)]
                slot.taken += 1
                byValue[key] = slot
                return entries[e]
            }
        }
        for e in entries {
            let v = e.value.hasSuffix("…") ? String(e.value.dropLast()) : e.value
            if wanted.hasPrefix(v) || v.split(separator: ",").contains(where: { $0 == wanted }) { return e }
        }
        return first
    }

    /// The `occurrence`-th line (from 0) of a property.
    func find(_ property: String, occurrence: Int) -> (line: Int, value: String)? {
        if byName == nil { index() }
        guard let entries = byName?[property.uppercased()], occurrence < entries.count else { return nil }
        return entries[occurrence]
    }

    /// How much of a value's start finds a folded line.
    static let prefixLength = 40

    /// The text as `value(at:)` shows it: at most 80 characters.
    private static func cut(_ text: String) -> String { text.count > 80 ? String(text.prefix(80)) + "…" : text }

    /// One pass over the component: every line that is not a fold.
    private func index() {
        var names: [String: [(line: Int, value: String)]] = [:]
        var line = chunk.firstLine
        var i = chunk.range.lowerBound
        let end = chunk.range.upperBound
        while i < end {
            let lineEnd = ComponentSplitter.lineFeed(in: buffer, from: i, before: end)
            if buffer[i] != 0x20 && buffer[i] != 0x09 {
                var j = i
                while j < lineEnd, buffer[j] != 0x3A, buffer[j] != 0x3B, j - i < 64 { j += 1 }
                if j < lineEnd, buffer[j] == 0x3A || buffer[j] == 0x3B {
                    let name = String(decoding: UnsafeBufferPointer(rebasing: buffer[i..<j]), as: UTF8.self).uppercased()
                    let value = LineFinder.value(at: i, until: end, buffer)
                    let entry = names[name, default: []].count
                    byValue[name + "\u{0}" + value, default: ([], 0)].entries.append(entry)
                    if value.contains(",") {
                        for item in value.split(separator: ",") { byValue[name + "\u{1}" + item, default: ([], 0)].entries.append(entry) }
                    }
                    if value.count >= LineFinder.prefixLength {
                        byValue[name + "\u{2}" + String(value.prefix(LineFinder.prefixLength)), default: ([], 0)].entries.append(entry)
                    }
                    names[name, default: []].append((line, value))
                }
            }
            line += 1
            i = lineEnd + 1
        }
        byName = names
    }

    /// The text after the first unquoted colon of the line starting at `start`.
    private static func value(at start: Int, until end: Int, _ buffer: UnsafeBufferPointer<UInt8>) -> String {
        var i = start
        var quoted = false
        while i < end && buffer[i] != 0x0A && !(buffer[i] == 0x3A && !quoted) {
            if buffer[i] == 0x22 { quoted.toggle() }
            i += 1
        }
        var stop = i
        while stop < end && buffer[stop] != 0x0A && buffer[stop] != 0x0D { stop += 1 }
        let from = min(i + 1, stop)
        let text = TextRepair.string(UnsafeBufferPointer(rebasing: buffer[from..<stop]))  // no control characters in a warning
        return text.count > 80 ? String(text.prefix(80)) + "…" : text
    }
}
