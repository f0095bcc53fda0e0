import AgendaCore

/// Everything the agenda takes from one VEVENT or VTODO, read in one pass
/// over its properties while libical still holds the component.
struct ComponentRecord {
    /// This program's own properties, which `--format ics` writes
    /// (`ICSWriter`) and the reader reads back: they keep items apart that
    /// share a UID, and name the calendar each came from (RFC 5545 3.8.8.2).
    static let scopeProperty = "X-ICS-AGENDA-SCOPE"
    static let calendarProperty = "X-ICS-AGENDA-CALENDAR"
    /// `X-ICS-AGENDA-CALENDAR-COLOR`: that calendar's colour.
    static let calendarColorProperty = "X-ICS-AGENDA-CALENDAR-COLOR"

    enum Kind { case event, reminder }

    var kind: Kind
    var uid = ""
    /// `X-ICS-AGENDA-SCOPE` (`--format ics` keeps items of one UID apart with it).
    var scope: String?
    /// `X-ICS-AGENDA-CALENDAR`: the calendar `--format ics` took the item from.
    var calendarName: String?
    /// `X-ICS-AGENDA-CALENDAR-COLOR`: that calendar's colour.
    var calendarColor: String?
    var summary = ""
    var location: String?
    var description: String?
    var status: String?
    var transparency = Event.Transparency.unspecified
    var dtstart: ZonedTime?
    var dtend: ZonedTime?
    var due: ZonedTime?
    var duration: NominalDuration?
    var rrules: [RecurrenceRule] = []
    var rdates: [RDate] = []
    var exdates: [ZonedTime] = []
    var recurrenceID: ZonedTime?
    var thisAndFuture = false
    var sequence = 0
    var completedDate = false
    var priority: Int?
    /// Whether the component has a PRIORITY (libical reads `high` as 0).
    var priorityGiven = false
    var percentComplete: Int?
    var categories: [String] = []
    /// The properties that name the link to join a meeting, in the order
    /// they are trusted (`MeetingLink`): CONFERENCE with FEATURE=VIDEO,
    /// other CONFERENCEs, then Google's and Microsoft's own.
    var meetingProperties: [(rank: Int, value: String)] = []
    var url: String?
    /// With `--me` (`ComponentReader.me`): the PARTSTAT of the first
    /// ATTENDEE that is me (NEEDS-ACTION when not written), and whether I organize it.
    var myPartstat: String?
    /// Its VALARMs, when asked for (`ComponentReader.readsAlarms`).
    var alarms: [Alarm]? = nil
    /// `--series`: the component as written, when asked for (`ComponentReader.keepsText`).
    var whole: WholeComponent? = nil
    /// It has VALARMs, read or not: an override with any rings only its own.
    var hasAlarmComponents = false
    var organizedByMe = false
    /// Problems libical marked with X-LIC-ERROR, and values found unusable here.
    var problems: [Problem] = []
    /// A RECURRENCE-ID was written but could not be read: the instance this
    /// component changes is unknown, so it is skipped (read as a series of
    /// its own, it could replace the real one).
    var unreadableRecurrenceID = false
    /// TZIDs that named no known zone (the values were read as floating).
    var unknownZones: [(property: String, tzid: String)] = []
    /// TZIDs defined nowhere whose name tells the zone (`(UTC-05:00) Eastern
    /// Time (US & Canada)`): read in that IANA zone.
    var guessedZones: [(property: String, tzid: String, iana: String)] = []

    enum Problem {
        /// An X-LIC-ERROR: libical dropped a property it could not read;
        /// `value` is the value it quotes, to find the line.
        /// `locator`: where its line is, when libical names no property.
        case libical(property: String?, message: String, value: String?, damage: DamageKind = .libicalMark,
            locator: LibicalWording.Locator? = nil)
        /// A date or date-time whose fields do not make a real time (month 13, hour 25).
        /// A property RFC 5545 allows once, given `times` times: the first is read.
        case repeated(property: String, times: Int)
        /// `value`: as libical writes it back, to find its line.
        case invalidTime(property: String, value: String?)
    }

    struct RDate {
        var start: ZonedTime
        /// A PERIOD value's end (explicit or start + duration).
        var end: ZonedTime?
        var periodDuration: NominalDuration?
    }

    var isRecurring: Bool { !rrules.isEmpty || !rdates.isEmpty }
    /// The UID as revisions and overrides are matched by: with its scope, when it has one.
    var matchUID: String { scope.map { uid.isEmpty ? uid : uid + "\u{0}" + $0 } ?? uid }
    var isCompleted: Bool { status == "COMPLETED" || completedDate }
    /// My answer: as my ATTENDEE line says; ACCEPTED when I organize it,
    /// unless that line says I declined or am not sure (an organizer may
    /// decline a meeting of their own).
    var partstat: String? {
        guard organizedByMe else { return myPartstat }
        return myPartstat == "DECLINED" || myPartstat == "TENTATIVE" ? myPartstat : "ACCEPTED"
    }
    /// The link to join the meeting online.
    var meetingURL: String? {
        let named = meetingProperties.isEmpty ? [] : meetingProperties.sorted { $0.rank < $1.rank }.map(\.value)
        return MeetingLink.find(explicit: named, url: url, location: location, description: description)
    }
}

extension ComponentRecord.Kind {
    /// The record kind of a component the agenda reads: nil for any other.
    init?(_ kind: ComponentKind) {
        switch kind {
        case .event: self = .event
        case .todo: self = .reminder
        case .timezone, .other: return nil
        }
    }
}
