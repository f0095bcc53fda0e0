import AgendaCore
import Foundation

extension CalendarLoader {
    /// Reads the files of a vdir collection as one calendar: joined into one
    /// text (`CollectionText`) and loaded once, so that 20,000 one-event
    /// files cost about what one file of 20,000 events does. Every file must
    /// be joinable (`ItemFileScan.isJoinable`); warnings name each file and
    /// its own lines.
    package func load(joining files: [CollectionFile], as calendar: CalendarInfo) throws -> LoadedCalendar {
        let text = CollectionText(files, threads: threads ?? ProcessInfo.processInfo.activeProcessorCount)
        var loader = self
        loader.calendarName = calendar.name
        loader.calendarColor = calendar.color
        loader.zonesPerCalendar = true
        loader.fileStarts = text.fileStarts
        let loaded = try text.bytes.withUnsafeBufferPointer {
            try loader.load($0, path: calendar.path, defaultName: calendar.name, source: calendar.source)
        }
        return LoadedCalendar(
            calendar: calendar, occurrences: loaded.occurrences, eventCount: loaded.eventCount,
            reminderCount: loaded.reminderCount, diagnostics: loaded.diagnostics.map(text.placed),
                window: loaded.window)
    }
}

extension LoadedCalendar {
    /// Parts of one calendar read apart (the joinable files of a collection,
    /// and those read alone) as one.
    package static func merging(_ parts: [LoadedCalendar], as calendar: CalendarInfo) -> LoadedCalendar {
        if parts.count == 1, let only = parts.first, only.calendar == calendar { return only }
        return LoadedCalendar(
            calendar: calendar, occurrences: parts.flatMap(\.occurrences),
                eventCount: parts.reduce(0) { $0 + $1.eventCount },
            reminderCount: parts.reduce(0) { $0 + $1.reminderCount }, diagnostics: parts.flatMap(\.diagnostics),
            window: AgendaWindow.spanning(parts.compactMap(\.window)))
    }
}
