import AgendaCore
import Foundation

/// Parses, reads and expands one component. Safe to use from several
/// threads at once: libical 3.0.16 keeps its error state and temporary
/// buffers per thread and guards its zone tables with mutexes
/// (`builtin_mutex`, `changes_mutex` in icaltimezone.c); `ZoneTable` locks;
/// everything else here is local to the call.
struct ChunkProcessor: @unchecked Sendable {
    /// The file's budget of rows beyond one a day, for the warning when it is spent.
    let rowBudget: Int
    let window: AgendaWindow
    let calendar: CalendarInfo
    let zones: ZoneTable
    let reader: ComponentReader
    /// nil: every component is parsed.
    let prefilter: WindowPrefilter?
    /// The calendar's own zone, when it has one (`AllDayUntil`).
    var calendarZone: Zone? = nil
    /// Per UID, how far beyond the window its RANGE=THISANDFUTURE overrides
    /// reach (`FutureReach`): its master is expanded over that much more.
    var futureReach: [String: FutureReach] = [:]

    /// - Parameter maxRows: the rows a recurring component may list (see `CalendarLoader.rowsPerFile`).
    func process(
        _ chunk: FramedComponent, _ buffer: UnsafeBufferPointer<UInt8>, scratch: inout [CChar],
        maxRows: Int = RecurrenceExpander.maxInstances
    ) -> ProcessedChunk {
        var out = ProcessedChunk()
        out.line = chunk.firstLine
        if let skippable = prefilter?.skippableEvent(chunk, buffer) {
            // A one-off event far from the window: counted, and known as a
            // revision of its UID, but not parsed.
            out.counted = (.event, skippable.uid, false)
            out.revision = RevisionCandidate(kind: .event, uid: skippable.uid, recurrenceKey: nil, sequence: skippable.sequence, recurs: skippable.recurs, skipped: true)
            return out
        }
        guard let component = ChunkProcessor.parse(chunk, buffer, scratch: &scratch, into: &out) else { return out }
        guard let kind = ComponentRecord.Kind(component.kind) else { return out }
        var reader = self.reader
        reader.calendar = chunk.calendar
        let record = reader.read(component.borrowed, kind: kind)
        add(record, chunk: chunk, buffer: buffer, maxRows: maxRows, to: &out)
        return out
    }

    /// Hands one framed component to libical.
    static func parse(
        _ chunk: FramedComponent, _ buffer: UnsafeBufferPointer<UInt8>, scratch: inout [CChar], into out: inout ProcessedChunk
    ) -> OwnedComponent? {
        out.framingWarnings += ChunkText.prepare(chunk, buffer, into: &scratch, report: &out.repair)
        guard let component = OwnedComponent.parse(scratch) else {
            out.warnings.append(Warning(chunk.firstLine, .unreadableComponent, "unreadable component", "\(chunk.name) could not be read; skipped"))
            return nil
        }
        return component
    }

    /// Whether an event's occurrence ends two days or more before the window
    /// or starts two days or more after it: in no display zone can it touch
    /// the window (floating times and dates take the zone's offset, at most 26 hours).
    private func isFarFromWindow(_ o: Occurrence) -> Bool {
        guard let start = o.start else { return false }
        let margin: TimeInterval = 2 * 86400
        return start.wall > window.end + margin || (o.end ?? start).wall < window.start - margin
    }

    /// Whether a reminder is placed (by DUE, else DTSTART) two days or more
    /// after the window: one before it is listed as overdue, one after it never.
    private func isBeforeWindow(_ o: Occurrence) -> Bool {
        guard let anchor = o.anchor else { return false }
        return anchor.wall < window.start - 2 * 86400
    }

    private func isAfterWindow(_ o: Occurrence) -> Bool {
        guard let anchor = o.anchor else { return false }
        return anchor.wall > window.end + 2 * 86400
    }

    private func add(
        _ read: ComponentRecord, chunk: FramedComponent, buffer: UnsafeBufferPointer<UInt8>, maxRows: Int, to out: inout ProcessedChunk
    ) {
        let lines = LineFinder(chunk, buffer)
        var record = read
        WrittenValues.check(&record, lines)
        let line = chunk.firstLine
        let kindName = record.kind == .event ? "VEVENT" : "VTODO"
        let label = record.summary.isEmpty ? kindName : "\(kindName) \"\(record.summary)\""
        // An event without a usable DTSTART cannot be placed: it is skipped,
        // and the warning about its DTSTART says so.
        let skipped = record.kind == .event && record.dtstart == nil
        var startExplained = false
        // Lines rewritten before libical read them (PropertyGuard) come
        // among libical's problems in the order of their lines.
        var notes = out.repair.notes[...]
        out.repair.notes = []
        func notesBefore(_ at: Int) {
            while let note = notes.first, note.line <= at {
                out.warnings.append(Warning(note.line, note.damage, "\(note.property): \(note.message) (in \(label))"))
                notes = notes.dropFirst()
            }
        }
        for problem in record.problems {
            let property: String?, message: String, damage: DamageKind
            var value: String? = nil
            var foundLine: Int? = nil
            switch problem {
            case .libical(let name, let text, let quoted, let kind):
                property = name
                message = text
                value = quoted
                damage = kind
            case .invalidTime(let name, let written):
                property = name
                damage = .unreadableDate
                let found = lines.find(name, value: written)
                message = "cannot read\(found.map { " \"\($0.value)\"" } ?? "") as a date or date-time"
                value = nil
                foundLine = found?.line
            case .repeated(let name, let times):
                property = name
                damage = .repeatedProperty
                message = "given \(times) times in one component (RFC 5545 allows one); the first is read"
                foundLine = lines.find(name, occurrence: 1)?.line
            }
            guard DamageKind.isTold(property: property, message: message) else { continue }
            let at = foundLine ?? property.flatMap { lines.find($0, value: value)?.line } ?? line
            let isStart = skipped && property == "DTSTART"
            startExplained = startExplained || isStart
            let isRecurrenceID = record.unreadableRecurrenceID && property == "RECURRENCE-ID"
            let outcome = (isStart ? "; skipped" : "") + (isRecurrenceID ? "; the instance it changes is unknown, so it is skipped" : "")
            let text = "\(property.map { "\($0): " } ?? "")\(message) (in \(label))\(outcome)"
            // The kind: the property (when it is one iCalendar knows, not the
            // first word of a mangled line) and what is wrong up to any
            // value quoted after a colon ("Got a data line…: some text").
            let named = property.flatMap { LibicalMessages.isKnownProperty($0) ? "\($0): " : nil } ?? ""
            let what = Warning.kind(describing: message).split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            notesBefore(at)
            out.warnings.append(Warning(at, damage, named + what + outcome, text))
        }
        for guess in record.guessedZones {
            let at = lines.find(guess.property)?.line ?? line
            out.warnings.append(Warning(at, .guessedZone, "guessed zone \(guess.tzid)",
                "\(guess.property): time zone \"\(guess.tzid)\" is defined nowhere in the file; read as \(guess.iana), the zone its name describes"))
        }
        notesBefore(Int.max)
        for unknown in record.unknownZones {
            let at = lines.find(unknown.property)?.line ?? line
            let why = zones.isUnusable(unknown.tzid) ? " (its VTIMEZONE has no usable STANDARD or DAYLIGHT rule)" : ""
            out.warnings.append(Warning(at, .unknownZone, "unknown zone\(why.isEmpty ? "" : " unusable")", "\(unknown.property): unknown time zone \"\(unknown.tzid)\"\(why); read as floating time"))
        }
        // An override whose RECURRENCE-ID cannot be read would replace its
        // whole series: it is left out (the warning above says so).
        if record.unreadableRecurrenceID { return }
        // Without a UID nothing ties a component to another: each stands alone.
        out.counted = (record.kind, record.matchUID, record.recurrenceID != nil && !record.uid.isEmpty)
        let itemCalendar = record.calendarName.map { CalendarInfo(name: $0, source: calendar.source, path: calendar.path) } ?? calendar

        let item: Occurrence.Item
        switch record.kind {
        case .event:
            guard !skipped else {
                // RFC 5545 3.6.1: DTSTART may be left out when the calendar has a
                // METHOD (an iTIP message: a cancellation, a reply); there is
                // then nothing to place, and nothing wrong.
                if !startExplained && !chunk.inITIPMessage { out.warnings.append(Warning(line, .noStart, "no DTSTART", "\(label) has no DTSTART; skipped")) }
                return
            }
            item = .event(Event(uid: record.uid, title: record.summary, location: record.location,
                description: record.description, status: record.status, calendar: itemCalendar, transparency: record.transparency))
        case .reminder:
            item = .reminder(Reminder(uid: record.uid, title: record.summary, location: record.location,
                description: record.description, status: record.status, isCompleted: record.isCompleted,
                priority: record.priority, percentComplete: record.percentComplete,
                categories: record.categories, calendar: itemCalendar))
        }
        out.revision = RevisionCandidate(record)
        let timing = InstanceTiming(record: record)

        if let rid = record.recurrenceID {
            // An override stands for one instance of its master: it is shown
            // at its own times, and the instance it replaces is dropped.
            let occurrence = timing.anchor.map { timing.occurrence(item, at: $0, recurrenceID: rid.agendaTime) }
                ?? Occurrence(item: item, start: nil, end: nil, recurrenceID: rid.agendaTime)
            out.override = (occurrence, record.matchUID, rid, record.thisAndFuture)
            out.overrideIsFar = record.kind == .event && !record.thisAndFuture && !record.isRecurring
                && futureReach[record.uid] == nil && isFarFromWindow(occurrence)
            if record.isRecurring, let anchor = timing.anchor {
                var series = ProcessedChunk()
                expand(record, item: item, timing: timing, anchor: anchor, chunk: chunk, buffer: buffer, maxRows: maxRows, to: &series)
                out.overrideSeries = (series.masters, line)
                (out.cutWarning, out.rowsListed, out.reachedRowLimit) = (series.cutWarning, series.rowsListed, series.reachedRowLimit)
            }
            return
        }
        if !record.uid.isEmpty, let anchor = timing.anchor { out.seriesAnchor = (record.matchUID, anchor) }
        func addMaster(_ occurrence: Occurrence, _ key: OverrideKey?) {
            out.masters.append(occurrence)
            out.masterKeys.append(key?.time ?? ProcessedChunk.noKey)
        }
        guard let anchor = timing.anchor else {
            addMaster(Occurrence(item: item, start: nil, end: nil, recurrenceID: nil), nil)
            return
        }
        guard record.isRecurring else {
            if !record.exdates.isEmpty && RecurrenceExpander.excludes(record.exdates, anchor) { return }
            let anchorTime = anchor.agendaTime
            // An event far from the window lists nothing (the prefilter skips
            // most such unread): not kept, so that memory follows the rows listed.
            let occurrence = timing.occurrence(item, at: anchor, startTime: anchorTime, recurrenceID: nil)
            // A reminder done or cancelled before the window is not overdue: it lists nothing either.
            let isDone = record.isCompleted || occurrence.isCancelled
            if record.kind == .event ? isFarFromWindow(occurrence) : isAfterWindow(occurrence) || (isDone && isBeforeWindow(occurrence)) { return }
            addMaster(occurrence, OverrideKey.make(uid: record.matchUID, anchorTime))
            return
        }
        expand(record, item: item, timing: timing, anchor: anchor, chunk: chunk, buffer: buffer, maxRows: maxRows, to: &out)
    }

    /// A recurring component's instances in the window, into `out.masters` with the keys an override would replace them by.
    private func expand(
        _ record: ComponentRecord, item: Occurrence.Item, timing: InstanceTiming, anchor: ZonedTime, chunk: FramedComponent,
        buffer: UnsafeBufferPointer<UInt8>, maxRows: Int, to out: inout ProcessedChunk
    ) {
        func addMaster(_ occurrence: Occurrence, _ key: OverrideKey?) {
            out.masters.append(occurrence)
            out.masterKeys.append(key?.time ?? ProcessedChunk.noKey)
        }
        let line = chunk.firstLine
        let kindName = record.kind == .event ? "VEVENT" : "VTODO"
        let label = record.summary.isEmpty ? kindName : "\(kindName) \"\(record.summary)\""
        var record = record
        if anchor.isDate { record.rrules = record.rrules.map { AllDayUntil.dated($0, calendarZone: calendarZone) } }
        var cut: String? = nil
        let isReminder = record.kind == .reminder
        // A reminder is placed by one day, its due day: one that starts
        // before the window reaches into it only when due in it, as far
        // after its start as DUE is after DTSTART.
        let lookBehind = isReminder ? (timing.anchoredOnStart ? timing.lookBehind : 0) : timing.lookBehind
        let expander = RecurrenceExpander(window: futureReach[record.uid]?.widened(window) ?? window, lookBehind: lookBehind, maxRows: maxRows)
        var limited = false
        var rows = 0
        for instance in expander.instances(of: record, anchor: anchor, keepLatestBefore: isReminder, cut: &cut, rows: &rows, limited: &limited) {
            var occurrence = timing.occurrence(item, at: instance.start, startTime: instance.startTime, recurrenceID: instance.startTime)
            if let periodEnd = instance.periodEnd, record.kind == .event {
                occurrence = Occurrence(item: item, start: occurrence.start, end: periodEnd, recurrenceID: instance.startTime)
            }
            addMaster(occurrence, OverrideKey.make(uid: record.matchUID, instance.startTime))
        }
        out.rowsListed = rows
        out.reachedRowLimit = limited
        if var cut {
            if limited && maxRows < RecurrenceExpander.maxInstances {
                cut += " (the file's budget of \(rowBudget) rows beyond one a day is spent)"
            }
            out.cutWarning = Warning(LineFinder(chunk, buffer).find("RRULE")?.line ?? line, .ruleUnbounded, "RRULE: \(cut) (in \(label))")
        }
    }
}
