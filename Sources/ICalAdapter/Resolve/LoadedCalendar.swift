import AgendaCore

/// One input read: its calendar, the occurrences that can touch the
/// window, and what was wrong with it.
package struct LoadedCalendar: Sendable {
    package let calendar: CalendarInfo
    package let occurrences: [Occurrence]
    /// How many events and reminders the file holds, for `calendars`: a
    /// series with its overrides is one; an override without its master counts.
    package let eventCount: Int
    package let reminderCount: Int
    package var diagnostics: [Diagnostic]
    /// The window it was read over, when wider than the one asked for
    /// (`CalendarLoader.ringing`); nil: that one.
    package var window: AgendaWindow? = nil
}
