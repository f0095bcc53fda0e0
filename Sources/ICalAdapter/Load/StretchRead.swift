import AgendaCore
import Foundation

/// The spine of one stretch of the input, stage by stage, with the type
/// each hands the next:
///
///     Stretch            read     (Read/: InputSegments cuts the input)
///     → FramedComponent  frame    (Frame/: ComponentSplitter)
///     → ParsedComponent  parse    (Parse/: ComponentParser; a ComponentRecord)
///     → ExpandedComponent expand  (Expand/: ComponentExpander)
///     → LoadedCalendar   resolve  (Resolve/: LoadRun.apply, then finish)
///
/// VTIMEZONEs are parsed and defined first, on this thread; VEVENTs and
/// VTODOs are parsed and expanded on every core (`ComponentStages`,
/// `BatchSchedule`) and resolved in file order.
extension LoadRun {
    /// - Parameter wrTimezone: the calendar's `X-WR-TIMEZONE`: when it names
    ///   a known zone, floating date-times are read in it (as Google and Apple
    ///   clients do); UTC and zoned values and dates are left as they are.
    /// - Parameter stretch: the bytes the components were framed from (all of
    ///   `buffer` when nil): their pages are given back as they are passed.
    /// - Parameter me: my calendar addresses (`CalendarLoader.me`).
    /// - Parameter readsAlarms: whether VALARMs are read (`CalendarLoader.readsAlarms`).
    /// - Parameter keepsText: whether each component's text is kept (`CalendarLoader.keepsText`).
    mutating func read(
        _ framed: inout [FramedComponent], from buffer: UnsafeBufferPointer<UInt8>, stretch: Range<Int>? = nil,
            wrTimezone: String? = nil,
        me: Set<String> = [], readsAlarms: Bool = false, keepsText: Bool = false
    ) {
        // Zones first: a VTIMEZONE may follow the events that use it.
        for zone in framed where zone.name == "VTIMEZONE"
            && !zoneDefinitions.zonesRead.contains(zone.range.lowerBound) {
            define(zone: zone, buffer)
        }
        // In place: a stretch may hold tens of thousands of components.
        framed.removeAll { $0.name != "VEVENT" && $0.name != "VTODO" }
        let items = framed
        var reader = ComponentReader(zones: zones, floatingZone: wrTimezone.flatMap { zones.zone(for: $0) })
        reader.me = me
        reader.readsAlarms = readsAlarms
        reader.keepsText = keepsText
        if reader.floatingZone != nil { reader.floatingTZID = wrTimezone }
        if keepsText { reader.calendarTimeZone = wrTimezone }
        let parser = ComponentParser(reader: reader, zones: zones,
            prefilter: WindowPrefilter(window: window, skipsRules: skipsRules))
        var expander = ComponentExpander(rowBudget: rowBudget, window: window, calendar: calendar)
        expander.calendarZone = zones.soleDefinition ?? wrTimezone.flatMap { zones.zone(for: $0) }
        if !skipsRules {
            // Components whose text may move a series (rare) are read once
            // more first: how far their masters must be expanded.
            var scratch: [CChar] = []
            let moving = items.lazy.filter {
                WindowPrefilter.mayMoveSeries(UnsafeBufferPointer(rebasing: buffer[$0.range]))
            }
            expander.futureReach = FutureReach.scan(moving.compactMap {
                parser.record(of: $0, buffer, scratch: &scratch)
            })
        }
        // Framing touched every page; from here on pages are read in order,
        // and each stretch is given back once passed.
        let framedBytes = stretch ?? 0..<buffer.count
        release?(framedBytes)
        // libical sets up its UTC zone and zone list on first use, partly
        // without a lock: do that here, before any worker runs.
        _ = Zone.utc
        let windowDays = Int((window.end.timeIntervalSince(window.start) / 86400).rounded(.up))
        let firstRows = min(RecurrenceExpander.maxInstances, max(windowDays + 1, 1))
        let schedule = BatchSchedule(
            batches: BatchReader(items: items, buffer: buffer,
                stages: ComponentStages(parser: parser, expander: expander), firstRows: firstRows),
            workers: BatchSchedule.workers(for: items.count, threads: threads), framed: framedBytes, release: release)
        var scratch = self.scratch, rowBudget = self.rowBudget
        schedule.run(scratch: &scratch, rowBudget: &rowBudget) { apply($0) }
        self.scratch = scratch
        self.rowBudget = rowBudget
    }

    /// Parses a VTIMEZONE and defines it in the file's zones, unless the
    /// file already holds it word for word (`ZoneDefinitions.holds`).
    mutating func define(zone framed: FramedComponent, _ buffer: UnsafeBufferPointer<UInt8>) {
        let text = ZoneDefinitions.Text(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[framed.range])),
            calendar: framed.calendar, line: framed.firstLine)
        guard !zoneDefinitions.holds(text) else { return }
        var warnings = ComponentWarnings()
        let component = ComponentParser.libicalComponent(framed, buffer, scratch: &scratch, warnings: &warnings)
        zoneDefinitions.define(text, component, parseWarnings: warnings, log: &log)
    }
}

/// One VEVENT or VTODO parsed and expanded: the part of the spine that
/// runs on every core, on a framed component and the bytes it is in.
struct ComponentStages: Sendable {
    let parser: ComponentParser
    let expander: ComponentExpander

    func run(_ framed: FramedComponent, _ buffer: UnsafeBufferPointer<UInt8>, scratch: inout [CChar],
        maxRows: Int) -> ExpandedComponent {
        expander.expand(parser.parse(framed, buffer, scratch: &scratch), maxRows: maxRows)
    }
}
