/// `--format ics --series`: one VEVENT or VTODO as the input wrote it
/// (RRULE, RDATE, EXDATE, VALARMs, X-properties), serialised by libical,
/// without this program's own `X-ICS-AGENDA-*` properties (the writer puts
/// them back as the output needs them). Kept only when asked for
/// (`CalendarLoader.keepsText`): it costs nothing otherwise.
package final class WholeComponent: @unchecked Sendable {
    /// `BEGIN:VEVENT` to `END:VEVENT`, CRLF line ends, folded.
    package let text: String
    /// The UID as revisions and overrides are matched by (with its scope).
    package let matchUID: String
    /// The TZIDs its properties name.
    package let zoneIDs: [String]
    /// Which VCALENDAR of its file holds it (each has its own VTIMEZONEs).
    package let calendarIndex: Int
    /// Its calendar's `X-WR-TIMEZONE`, which the reader reads some of its times in.
    package let calendarTimeZone: String?
    /// Its series: every component of its UID in its file, and the
    /// VTIMEZONEs they name. Set once, when the file is read (`LoadRun.finish`),
    /// before any occurrence is handed on; only read after.
    package private(set) var series: ComponentSeries?

    package init(text: String, matchUID: String, zoneIDs: [String], calendarIndex: Int,
        calendarTimeZone: String? = nil) {
        self.text = text
        self.matchUID = matchUID
        self.zoneIDs = zoneIDs
        self.calendarIndex = calendarIndex
        self.calendarTimeZone = calendarTimeZone
    }

    package func join(_ series: ComponentSeries) { self.series = series }
}

/// The components of one UID in one file (a master and its overrides, or a
/// one-off), in file order, with the VTIMEZONEs (TZID, text) they name.
package final class ComponentSeries: Sendable {
    package let uid: String
    package let components: [String]
    package let zones: [(tzid: String, text: String)]
    /// Its calendar's `X-WR-TIMEZONE` (`WholeComponent.calendarTimeZone`).
    package let calendarTimeZone: String?

    package init(uid: String, components: [String], zones: [(tzid: String, text: String)],
        calendarTimeZone: String? = nil) {
        self.uid = uid
        self.components = components
        self.zones = zones
        self.calendarTimeZone = calendarTimeZone
    }
}
