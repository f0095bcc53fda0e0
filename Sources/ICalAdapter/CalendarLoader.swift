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

    public init(window: AgendaWindow) {
        self.window = window
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

    /// Reads a calendar from memory the caller owns (a mapped file).
    /// `release` is told which byte ranges will not be read again, so that
    /// their pages can go back to the system: memory then follows the
    /// largest component, not the file.
    public func load(
        _ input: UnsafeBufferPointer<UInt8>, release: ((Range<Int>) -> Void)? = nil, path: String, defaultName: String, source: String
    ) throws -> LoadedCalendar {
        if let order = TextRepair.utf16ByteOrder(input) {
            let utf8 = TextRepair.utf8(fromUTF16: input, bigEndian: order.bigEndian, skip: order.skip)
            return try load(utf8, path: path, defaultName: defaultName, source: source)
        }
        // A UTF-8 byte-order mark is skipped.
        let skip = TextDecoding.hasUTF8BOM(input) ? 3 : 0
        let buffer = UnsafeBufferPointer(rebasing: input[skip...])
        let split = ComponentSplitter.split(buffer)
        guard split.looksLikeICalendar else {
            throw NotICalendar(path: path, reason: TextDecoding.describeNonCalendar(buffer))
        }
        let info = CalendarInfo(name: split.calendarName ?? defaultName, source: source, path: path)
        var run = LoadRun(window: window, calendar: info, path: path)
        run.release = release.map { release in { range in release((range.lowerBound + skip)..<(range.upperBound + skip)) } }
        run.read(split.chunks, from: buffer, wrTimezone: split.wrTimezone)
        return run.finish()
    }
}

/// The state of reading one file.
private struct LoadRun {
    let window: AgendaWindow
    let calendar: CalendarInfo
    let path: String
    let zones = ZoneTable()
    var diagnostics: [Diagnostic] = []
    /// Components without RECURRENCE-ID, and the UIDs of masters and overrides, per kind, for the counts.
    var masterCount: [ComponentRecord.Kind: Int] = [:]
    var masterUIDs: [ComponentRecord.Kind: Set<String>] = [:]
    var overrideUIDs: [ComponentRecord.Kind: Set<String>] = [:]
    /// Occurrences of masters, and beside each the original start an
    /// override would replace it by (`noKey` when none can): two plain
    /// arrays, not an array of tuples, since there can be hundreds of thousands.
    var masters: [Occurrence] = []
    var masterKeys: [Int64] = []
    static let noKey = Int64.min
    /// Overrides, matched to their masters' instances once every master is read.
    var overrides: [Override] = []
    /// The first instance (DTSTART, or DUE) of each series by UID: an
    /// override's RECURRENCE-ID is read in its kind to find the instance it names.
    var seriesAnchors: [String: ZonedTime] = [:]
    /// The component kept so far for each kind, UID and RECURRENCE-ID, and
    /// the components it superseded (numbered in the order they were read).
    var revisions: [String: Revision] = [:]
    var superseded = Set<Int>()
    var componentNumber = 0
    /// Where each component's occurrences are in `masters`.
    var masterRanges: [Int: Range<Int>] = [:]
    private var scratch: [CChar] = []
    /// NUL bytes dropped and lines read as Windows-1252, for one warning each.
    private var textRepair = TextRepair.Report()
    var release: ((Range<Int>) -> Void)?

    init(window: AgendaWindow, calendar: CalendarInfo, path: String) {
        self.window = window
        self.calendar = calendar
        self.path = path
    }

    /// - Parameter wrTimezone: the calendar's `X-WR-TIMEZONE`: when it names
    ///   a known zone, floating date-times are read in it (as Google and Apple
    ///   clients do); UTC and zoned values and dates are left as they are.
    mutating func read(_ chunks: [ComponentSplitter.Chunk], from buffer: UnsafeBufferPointer<UInt8>, wrTimezone: String? = nil) {
        // Zones first: a VTIMEZONE may follow the events that use it.
        for chunk in chunks where chunk.name == "VTIMEZONE" {
            guard let component = parse(chunk, buffer) else { continue }
            if icalcomponent_isa(component) == ICAL_VTIMEZONE_COMPONENT {
                if zones.define(vtimezone: component) == .noTZID {
                    warn(chunk.firstLine, "VTIMEZONE without TZID; ignored")
                }
            } else {
                icalcomponent_free(component)
            }
        }
        let reader = ComponentReader(zones: zones, floatingZone: wrTimezone.flatMap(zones.zone(for:)))
        let prefilter = WindowPrefilter(window: window)
        // Framing touched every page; from here on pages are read in order,
        // and each stretch is given back once passed.
        var released = 0
        let stretch = 1 << 20
        release?(0..<buffer.count)
        for chunk in chunks where chunk.name == "VEVENT" || chunk.name == "VTODO" {
            if let release, chunk.range.lowerBound - released > stretch {
                release(released..<chunk.range.lowerBound)
                released = chunk.range.lowerBound
            }
            if let skippable = prefilter.skippableEvent(chunk, buffer) {
                // A one-off event far from the window: counted, and known as
                // a revision of its UID, but not parsed.
                var record = ComponentRecord(kind: .event)
                record.uid = skippable.uid
                record.sequence = skippable.sequence
                masterCount[.event, default: 0] += 1
                masterUIDs[.event, default: []].insert(record.uid)
                _ = supersedes(record, componentNumber)
                componentNumber += 1
                continue
            }
            guard let component = parse(chunk, buffer) else { continue }
            defer { icalcomponent_free(component) }
            let isa = icalcomponent_isa(component)
            guard isa == ICAL_VEVENT_COMPONENT || isa == ICAL_VTODO_COMPONENT else { continue }
            let record = reader.read(component, kind: isa == ICAL_VEVENT_COMPONENT ? .event : .reminder)
            add(record, line: chunk.firstLine, chunk: chunk, buffer: buffer)
        }
    }

    /// Hands one framed component to libical.
    /// The corresponding libical function is `icalparser_parse_string`.
    private mutating func parse(_ chunk: ComponentSplitter.Chunk, _ buffer: UnsafeBufferPointer<UInt8>) -> OpaquePointer? {
        var repaired = TextRepair.Report()
        for (line, message) in ChunkText.prepare(chunk, buffer, into: &scratch, report: &repaired) { warn(line, message) }
        for (line, message) in textRepair.absorb(repaired) { warn(line, message) }
        let component = scratch.withUnsafeBufferPointer { icalparser_parse_string($0.baseAddress!) }
        if component == nil { warn(chunk.firstLine, "\(chunk.name) could not be read; skipped") }
        return component
    }

    private mutating func add(_ record: ComponentRecord, line: Int, chunk: ComponentSplitter.Chunk, buffer: UnsafeBufferPointer<UInt8>) {
        let kindName = record.kind == .event ? "VEVENT" : "VTODO"
        let label = record.summary.isEmpty ? kindName : "\(kindName) \"\(record.summary)\""
        // An event without a usable DTSTART cannot be placed: it is skipped,
        // and the warning about its DTSTART says so.
        let skipped = record.kind == .event && record.dtstart == nil
        var startExplained = false
        for problem in record.problems {
            let property: String?, message: String
            var value: String? = nil
            switch problem {
            case .libical(let name, let text, let quoted):
                property = name
                message = text
                value = quoted
            case .invalidTime(let name):
                property = name
                let found = LineFinder.find(name, in: chunk, buffer).map { " \"\($0.value)\"" } ?? ""
                message = "cannot read\(found) as a date or date-time"
            }
            let at = property.flatMap { LineFinder.find($0, in: chunk, buffer, value: value)?.line } ?? line
            let isStart = skipped && property == "DTSTART"
            startExplained = startExplained || isStart
            let isRecurrenceID = record.unreadableRecurrenceID && property == "RECURRENCE-ID"
            warn(at, "\(property.map { "\($0): " } ?? "")\(message) (in \(label))\(isStart ? "; skipped" : "")"
                + (isRecurrenceID ? "; the instance it changes is unknown, so it is skipped" : ""))
        }
        for unknown in record.unknownZones {
            let at = LineFinder.find(unknown.property, in: chunk, buffer)?.line ?? line
            let why = zones.unusable.contains(unknown.tzid) ? " (its VTIMEZONE has no usable STANDARD or DAYLIGHT rule)" : ""
            warn(at, "\(unknown.property): unknown time zone \"\(unknown.tzid)\"\(why); read as floating time")
        }
        if record.unreadableRecurrenceID { return }
        if record.recurrenceID == nil || record.uid.isEmpty {
            // Without a UID nothing ties a component to another: each stands alone.
            masterCount[record.kind, default: 0] += 1
            masterUIDs[record.kind, default: []].insert(record.uid)
        } else {
            overrideUIDs[record.kind, default: []].insert(record.uid)
        }

        let item: Occurrence.Item
        switch record.kind {
        case .event:
            guard !skipped else {
                if !startExplained { warn(line, "\(label) has no DTSTART; skipped") }
                return
            }
            item = .event(Event(uid: record.uid, title: record.summary, location: record.location,
                description: record.description, status: record.status, calendar: calendar))
        case .reminder:
            item = .reminder(Reminder(uid: record.uid, title: record.summary, location: record.location,
                description: record.description, status: record.status, isCompleted: record.isCompleted,
                priority: record.priority, percentComplete: record.percentComplete,
                categories: record.categories, calendar: calendar))
        }
        let timing = InstanceTiming(record: record)
        let component = componentNumber
        componentNumber += 1
        guard supersedes(record, component) else { return }
        let first = masters.count
        defer { if masters.count > first { masterRanges[component] = first..<masters.count } }

        if let rid = record.recurrenceID {
            // An override stands for one instance of its master: it is shown
            // at its own times, and the instance it replaces is dropped.
            let occurrence = timing.anchor.map { timing.occurrence(item, at: $0, recurrenceID: rid.agendaTime) }
                ?? Occurrence(item: item, start: nil, end: nil, recurrenceID: rid.agendaTime)
            overrides.append(Override(occurrence: occurrence, uid: record.uid, recurrenceID: rid,
                thisAndFuture: record.thisAndFuture, component: component))
            return
        }
        if !record.uid.isEmpty, let anchor = timing.anchor { seriesAnchors[record.uid] = anchor }
        guard let anchor = timing.anchor else {
            addMaster(Occurrence(item: item, start: nil, end: nil, recurrenceID: nil), nil)
            return
        }
        guard record.isRecurring else {
            if !record.exdates.isEmpty && RecurrenceExpander.excludes(record.exdates, anchor) { return }
            addMaster(timing.occurrence(item, at: anchor, recurrenceID: nil), OverrideKey.make(uid: record.uid, anchor.agendaTime))
            return
        }
        var cut: String? = nil
        let isReminder = record.kind == .reminder
        // A reminder is placed by one day, not a span: nothing before the window reaches into it.
        let expander = RecurrenceExpander(window: window, lookBehind: isReminder ? 0 : timing.lookBehind)
        for instance in expander.instances(of: record, anchor: anchor, keepLatestBefore: isReminder, cut: &cut) {
            var occurrence = timing.occurrence(item, at: instance.start, recurrenceID: instance.startTime)
            if let periodEnd = instance.periodEnd, record.kind == .event {
                occurrence = Occurrence(item: item, start: occurrence.start, end: periodEnd, recurrenceID: instance.startTime)
            }
            addMaster(occurrence, OverrideKey.make(uid: record.uid, instance.startTime))
        }
        if let cut { warn(LineFinder.find("RRULE", in: chunk, buffer)?.line ?? line, "RRULE: \(cut) (in \(label))") }
    }

    /// An instance after a RANGE=THISANDFUTURE override, as the latest such
    /// override before it changed it (RFC 5545 3.2.13, 3.8.4.4): moved by as
    /// much as the override moved its own instance, with the override's
    /// length and properties. nil when no such override precedes it, or when
    /// the override's times are of another kind than the series' (nothing to
    /// move by).
    static func changed(_ instance: Occurrence, by future: [(recurrenceID: AgendaTime, occurrence: Occurrence)]) -> Occurrence? {
        guard let original = instance.recurrenceID,
            let latest = future.last(where: { $0.recurrenceID.kind == original.kind && $0.recurrenceID.wall < original.wall })
        else { return nil }
        let o = latest.occurrence
        guard let anchor = o.start ?? o.due, anchor.kind == original.kind else { return nil }
        let newAnchor = original.wall + anchor.wall.timeIntervalSince(latest.recurrenceID.wall)
        func moved(_ t: AgendaTime?) -> AgendaTime? {
            t.map { AgendaTime(kind: $0.kind, wall: newAnchor + $0.wall.timeIntervalSince(anchor.wall)) }
        }
        return Occurrence(item: o.item, start: moved(o.start), end: moved(o.end), due: moved(o.due), recurrenceID: original)
    }

    /// Whether `record` is the revision of its UID (and RECURRENCE-ID) to
    /// show so far; the one it replaces, or itself, is marked superseded.
    /// RFC 5545 3.8.4.7: a UID names one component (with RECURRENCE-ID, one
    /// instance); 3.8.7.4 and RFC 5546 2.1.4: the higher SEQUENCE is the newer.
    /// On a tie the later component wins when either recurs (an export that
    /// appended an edited series without counting up); two one-off
    /// components keep the first, as the reference oracle does.
    private mutating func supersedes(_ record: ComponentRecord, _ component: Int) -> Bool {
        guard !record.uid.isEmpty else { return true }
        let rid = record.recurrenceID.map { "\($0.agendaTime.kind)\($0.agendaTime.matchKey)" } ?? "-"
        let key = "\(record.kind)\u{0}\(record.uid)\u{0}\(rid)"
        let new = Revision(component: component, sequence: record.sequence, recurs: record.isRecurring)
        guard let old = revisions[key] else {
            revisions[key] = new
            return true
        }
        if record.recurrenceID == nil { masterCount[record.kind, default: 0] -= 1 }  // one item, not two
        let newer = new.sequence != old.sequence ? new.sequence > old.sequence : (new.recurs || old.recurs)
        superseded.insert(newer ? old.component : new.component)
        if newer { revisions[key] = new }
        return newer
    }

    private mutating func addMaster(_ occurrence: Occurrence, _ key: OverrideKey?) {
        masters.append(occurrence)
        masterKeys.append(key?.time ?? LoadRun.noKey)
    }

    private mutating func warn(_ line: Int, _ message: String) {
        diagnostics.append(Diagnostic(path: path, line: line, message: message))
    }

    func finish() -> LoadedCalendar {
        var overrideKeys = Set<OverrideKey>()
        let overrides = self.overrides.filter { !superseded.contains($0.component) }
        let droppedRanges = superseded.compactMap { masterRanges[$0] }
        // RANGE=THISANDFUTURE overrides by UID, in the order of their RECURRENCE-IDs.
        var futures: [String: [(recurrenceID: AgendaTime, occurrence: Occurrence)]] = [:]
        for o in overrides {
            let rid = seriesAnchors[o.uid].map { o.recurrenceID.matching(series: $0) } ?? o.recurrenceID
            if let key = OverrideKey.make(uid: o.uid, rid.agendaTime) { overrideKeys.insert(key) }
            if o.thisAndFuture && !o.uid.isEmpty { futures[o.uid, default: []].append((rid.agendaTime, o.occurrence)) }
        }
        for uid in futures.keys { futures[uid]!.sort { $0.recurrenceID.wall < $1.recurrenceID.wall } }
        var occurrences = overrides.map(\.occurrence)
        occurrences.reserveCapacity(masters.count + overrides.count)
        for (index, (occurrence, key)) in zip(masters, masterKeys).enumerated() {
            if key != LoadRun.noKey, !overrideKeys.isEmpty, overrideKeys.contains(OverrideKey(uid: occurrence.uid, time: key)) { continue }
            if !droppedRanges.isEmpty && droppedRanges.contains(where: { $0.contains(index) }) { continue }
            if !futures.isEmpty, let future = futures[occurrence.uid], let changed = LoadRun.changed(occurrence, by: future) {
                occurrences.append(changed)
                continue
            }
            occurrences.append(occurrence)
        }
        func count(_ kind: ComponentRecord.Kind) -> Int {
            let orphans = overrideUIDs[kind, default: []].subtracting(masterUIDs[kind, default: []])
            return masterCount[kind, default: 0] + orphans.count
        }
        return LoadedCalendar(calendar: calendar, occurrences: occurrences, eventCount: count(.event),
            reminderCount: count(.reminder), diagnostics: diagnostics)
    }
}

/// A component with a RECURRENCE-ID: one instance of a series, as changed.
private struct Override {
    let occurrence: Occurrence
    let uid: String
    /// As written; read in the series' kind when matched (a floating value in a zoned series' zone).
    let recurrenceID: ZonedTime
    /// RANGE=THISANDFUTURE: the change applies to every later instance too.
    let thisAndFuture: Bool
    let component: Int
}

/// The component kept for one UID and RECURRENCE-ID.
private struct Revision {
    let component: Int
    let sequence: Int
    let recurs: Bool
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

/// Finds a property inside a framed component, for warnings: its line
/// number and its value as written.
enum LineFinder {
    /// - Parameter value: when given, the line whose value starts with it
    ///   (the first line of the property otherwise).
    static func find(_ property: String, in chunk: ComponentSplitter.Chunk, _ buffer: UnsafeBufferPointer<UInt8>, value wanted: String? = nil)
        -> (line: Int, value: String)?
    {
        var first: (line: Int, value: String)? = nil
        let name = Array(property.uppercased().utf8)
        var line = chunk.firstLine
        var i = chunk.range.lowerBound
        var atLineStart = true
        while i < chunk.range.upperBound {
            if atLineStart, i + name.count < chunk.range.upperBound {
                var match = true
                for (j, c) in name.enumerated() where buffer[i + j] & 0xDF != c & 0xDF {
                    match = false
                    break
                }
                let after = buffer[i + name.count]
                if match && (after == 0x3A || after == 0x3B) {
                    let found = (line: line, value: value(at: i, until: chunk.range.upperBound, buffer))
                    guard let wanted else { return found }
                    if wanted.hasPrefix(found.value.hasSuffix("…") ? String(found.value.dropLast()) : found.value) { return found }
                    first = first ?? found
                }
            }
            atLineStart = buffer[i] == 0x0A
            if atLineStart { line += 1 }
            i += 1
        }
        return first
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
