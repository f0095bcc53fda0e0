import AgendaCore
import Foundation

/// The expand stage: places one parsed VEVENT or VTODO in the window, its
/// instances found by libical (`RecurrenceExpander`) and made rows. Safe to
/// use from several threads at once (see `ComponentParser`).
struct ComponentExpander: @unchecked Sendable {
    /// The file's budget of rows beyond one a day, for the warning when it is spent.
    let rowBudget: Int
    let window: AgendaWindow
    let calendar: CalendarInfo
    /// The calendar's own zone, when it has one (`AllDayUntil`).
    var calendarZone: Zone? = nil
    /// Per UID, how far beyond the window its RANGE=THISANDFUTURE overrides
    /// reach (`FutureReach`): its master is expanded over that much more.
    var futureReach: [String: FutureReach] = [:]

    /// - Parameter maxRows: the rows a recurring component may list (see `CalendarLoader.rowsPerFile`).
    func expand(_ parsed: ParsedComponent, maxRows: Int = RecurrenceExpander.maxInstances) -> ExpandedComponent {
        var out = ExpandedComponent()
        out.line = parsed.line
        out.warnings = parsed.warnings
        if let record = parsed.record {
            // An override whose RECURRENCE-ID cannot be read would replace its
            // whole series: it is left out (`RecordDiagnosis` says so).
            if record.unreadableRecurrenceID { return out }
            out.whole = record.whole
            out.shape = shape(of: record, parsed, maxRows: maxRows)
        } else if let skipped = parsed.skipped {
            out.shape = .skipped(RevisionCandidate(kind: .event, uid: skipped.uid, recurrenceKey: nil,
                sequence: skipped.sequence,
                recurs: skipped.recurs, skipped: true))
        }
        return out
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

    /// With alarms (`alarms` reads them), a reminder that starts before its
    /// due day counts from its start: its alarms may ring from there.
    private func isAfterWindow(_ o: Occurrence) -> Bool {
        guard let anchor = o.alarms.isEmpty ? o.anchor : (o.start ?? o.anchor) else { return false }
        return anchor.wall > window.end + 2 * 86400
    }

    private func shape(of record: ComponentRecord, _ parsed: ParsedComponent, maxRows: Int) -> ExpandedComponent.Shape {
        // Without a UID nothing ties a component to another: each stands alone.
        let isOverride = record.recurrenceID != nil && !record.uid.isEmpty
        let itemCalendar =
            record.calendarName.map {
                CalendarInfo(name: $0, source: calendar.source, path: calendar.path, color: record.calendarColor)
            }
            ?? calendar

        let item: Occurrence.Item
        switch record.kind {
        case .event:
            // An event without a usable DTSTART cannot be placed (`RecordDiagnosis` says so).
            guard record.dtstart != nil else {
                return .unplaced(kind: record.kind, uid: record.matchUID, isOverride: isOverride)
            }
            item = .event(Event(uid: record.uid, title: record.summary, location: record.location,
                description: record.description, status: record.status, calendar: itemCalendar,
                    transparency: record.transparency,
                meetingURL: record.meetingURL, partstat: record.partstat, alarms: record.alarms ?? [],
                    whole: record.whole))
        case .reminder:
            item = .reminder(Reminder(uid: record.uid, title: record.summary, location: record.location,
                description: record.description, status: record.status, isCompleted: record.isCompleted,
                priority: record.priority, percentComplete: record.percentComplete,
                categories: record.categories, calendar: itemCalendar, alarms: record.alarms ?? [],
                    whole: record.whole))
        }
        let revision = RevisionCandidate(record)
        let timing = InstanceTiming(record: record)

        if let rid = record.recurrenceID {
            // An override stands for one instance of its master: it is shown
            // at its own times, and the instance it replaces is dropped.
            let occurrence = timing.anchor.map { timing.occurrence(item, at: $0, recurrenceID: rid.agendaTime) }
                ?? Occurrence(item: item, start: nil, end: nil, recurrenceID: rid.agendaTime)
            var override = ExpandedComponent.OverrideInstance(revision: revision, occurrence: occurrence,
                uid: record.matchUID, recurrenceID: rid,
                thisAndFuture: record.thisAndFuture, isCounted: isOverride)
            if record.isRecurring, let anchor = timing.anchor {
                var series = ExpandedComponent.MasterInstances(revision: revision)
                expand(record, item: item, timing: timing, anchor: anchor, parsed, maxRows: maxRows, to: &series)
                override.series = (series.masters, parsed.line)
                override.rows = series.rows
            }
            let isFar = record.kind == .event && !record.thisAndFuture && !record.isRecurring
                && futureReach[record.uid] == nil && isFarFromWindow(occurrence)
            return isFar ? .farOverride(override) : .override(override)
        }
        var series = ExpandedComponent.MasterInstances(revision: revision)
        if !record.uid.isEmpty, let anchor = timing.anchor { series.anchor = (record.matchUID, anchor) }
        guard let anchor = timing.anchor else {
            series.add(Occurrence(item: item, start: nil, end: nil, recurrenceID: nil), nil)
            return .series(series)
        }
        guard record.isRecurring else {
            if !record.exdates.isEmpty && RecurrenceExpander.excludes(record.exdates, anchor) { return .series(series) }
            let anchorTime = anchor.agendaTime
            // An event far from the window lists nothing (the prefilter skips
            // most such unread): not kept, so that memory follows the rows listed.
            let occurrence = timing.occurrence(item, at: anchor, startTime: anchorTime, recurrenceID: nil)
            // A reminder done or cancelled before the window is not overdue: it lists nothing either.
            let isDone = record.isCompleted || occurrence.isCancelled
            if record.kind == .event ? isFarFromWindow(occurrence) : isAfterWindow(occurrence)
                || (isDone && isBeforeWindow(occurrence)) {
                return .series(series)
            }
            series.add(occurrence, OverrideKey.make(uid: record.matchUID, anchorTime))
            return .series(series)
        }
        expand(record, item: item, timing: timing, anchor: anchor, parsed, maxRows: maxRows, to: &series)
        return .series(series)
    }

    /// A recurring component's instances in the window, into `series` with the keys an override would replace them by.
    private func expand(
        _ record: ComponentRecord, item: Occurrence.Item, timing: InstanceTiming, anchor: ZonedTime,
            _ parsed: ParsedComponent,
        maxRows: Int, to series: inout ExpandedComponent.MasterInstances
    ) {
        var record = record
        if anchor.isDate { record.rrules = record.rrules.map { AllDayUntil.dated($0, calendarZone: calendarZone) } }
        var cut: String? = nil
        let isReminder = record.kind == .reminder
        // A reminder is placed by one day, its due day: one that starts
        // before the window reaches into it only when due in it, as far
        // after its start as DUE is after DTSTART.
        let lookBehind = isReminder ? (timing.anchoredOnStart ? timing.lookBehind : 0) : timing.lookBehind
        let expander = RecurrenceExpander(window: futureReach[record.uid]?.widened(window) ?? window,
            lookBehind: lookBehind, maxRows: maxRows)
        var limited = false
        var rows = 0
        for instance in expander.instances(of: record, anchor: anchor, keepLatestBefore: isReminder, cut: &cut,
            rows: &rows, limited: &limited) {
            var occurrence = timing.occurrence(item, at: instance.start, startTime: instance.startTime,
                recurrenceID: instance.startTime)
            if let periodEnd = instance.periodEnd, record.kind == .event {
                occurrence = Occurrence(item: item, start: occurrence.start, end: periodEnd,
                    recurrenceID: instance.startTime)
            }
            series.add(occurrence, OverrideKey.make(uid: record.matchUID, instance.startTime))
        }
        series.rows.listed = rows
        series.rows.reachedLimit = limited
        if var cut {
            if limited && maxRows < RecurrenceExpander.maxInstances {
                cut += " (the file's budget of \(rowBudget) rows beyond one a day is spent)"
            }
            series.rows.cutWarning = Warning(parsed.lines?.find("RRULE")?.line ?? parsed.line, .ruleUnbounded,
                "RRULE: \(cut) (in \(ParsedComponent.label(record)))")
        }
    }
}
