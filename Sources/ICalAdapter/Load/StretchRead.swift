import AgendaCore
import Foundation

/// The spine of one stretch: its VTIMEZONEs defined first, then its
/// VEVENTs and VTODOs framed, parsed and expanded on every core
/// (`BatchSchedule`, `ChunkProcessor`) and resolved in file order
/// (`LoadRun.apply`).
extension LoadRun {
    /// - Parameter wrTimezone: the calendar's `X-WR-TIMEZONE`: when it names
    ///   a known zone, floating date-times are read in it (as Google and Apple
    ///   clients do); UTC and zoned values and dates are left as they are.
    /// - Parameter stretch: the bytes the chunks were framed from (all of
    ///   `buffer` when nil): their pages are given back as they are passed.
    mutating func read(
        _ chunks: inout [FramedComponent], from buffer: UnsafeBufferPointer<UInt8>, stretch: Range<Int>? = nil, wrTimezone: String? = nil
    ) {
        // Zones first: a VTIMEZONE may follow the events that use it.
        for chunk in chunks where chunk.name == "VTIMEZONE" && !zoneDefinitions.zonesRead.contains(chunk.range.lowerBound) {
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
        release?(framed)
        // libical sets up its UTC zone and zone list on first use, partly
        // without a lock: do that here, before any worker runs.
        _ = Zone.utc
        let windowDays = Int((window.end.timeIntervalSince(window.start) / 86400).rounded(.up))
        let firstRows = min(RecurrenceExpander.maxInstances, max(windowDays + 1, 1))
        let schedule = BatchSchedule(
            batches: BatchReader(items: items, buffer: buffer, processor: processor, firstRows: firstRows),
            workers: BatchSchedule.workers(for: items.count, threads: threads), framed: framed, release: release)
        var scratch = self.scratch, rowBudget = self.rowBudget
        schedule.run(scratch: &scratch, rowBudget: &rowBudget) { apply($0) }
        self.scratch = scratch
        self.rowBudget = rowBudget
    }
}
