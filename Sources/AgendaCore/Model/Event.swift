/// A VEVENT as the agenda needs it: what and where, not when.
///
/// One `Event` is shared by all occurrences of its component; the times of
/// each occurrence live in `Occurrence`.
package final class Event: CalendarItem {
    /// UID; empty when the component has none (printed as `null` in JSON).
    package let uid: String
    package let title: String
    package let location: String?
    package let description: String?
    /// `STATUS`, upper case (`CONFIRMED`, `TENTATIVE`, `CANCELLED`).
    package let status: String?
    /// `STATUS:CANCELLED`, decided once: every occurrence is asked.
    package let isCancelled: Bool
    package let calendar: CalendarInfo
    /// `TRANSP`: whether the event takes up time (`free` and overlaps ask).
    package let transparency: Transparency
    /// The link to join the meeting online (`MeetingLink`).
    package let meetingURL: String?
    /// With `--me`: my participation (`PARTSTAT` of the ATTENDEE that is me,
    /// `ACCEPTED` when I organize it), upper case; nil otherwise.
    package let partstat: String?
    /// Its VALARMs (`ics-agenda alarms`; empty when not asked for).
    package let alarms: [Alarm]
    /// `--series`: its component as written; nil when not asked for.
    package let whole: WholeComponent?
    /// I declined it: left out unless `--show-declined`, and never busy.
    let isDeclined: Bool
    /// I have not said yes: tentative, or not answered (marked `?` in text).
    var isUnconfirmed: Bool { partstat == "TENTATIVE" || partstat == "NEEDS-ACTION" }

    /// `TRANSP`, as written: absent, `OPAQUE` or `TRANSPARENT`.
    package enum Transparency: Sendable {
        case unspecified, opaque, transparent
    }

    package init(
        uid: String, title: String, location: String?, description: String?, status: String?, calendar: CalendarInfo,
        transparency: Transparency = .unspecified, meetingURL: String? = nil, partstat: String? = nil,
        alarms: [Alarm] = [], whole: WholeComponent? = nil
    ) {
        self.uid = uid
        self.title = title
        self.location = location
        self.description = description
        self.status = status
        isCancelled = status == "CANCELLED"
        self.calendar = calendar
        self.transparency = transparency
        self.meetingURL = meetingURL
        self.partstat = partstat
        isDeclined = partstat == "DECLINED"
        self.alarms = alarms
        self.whole = whole
    }

    /// The same event with other alarms: an override without VALARMs of its
    /// own rings its master's.
    package func with(alarms: [Alarm]) -> Event {
        Event(uid: uid, title: title, location: location, description: description, status: status, calendar: calendar,
            transparency: transparency, meetingURL: meetingURL, partstat: partstat, alarms: alarms, whole: whole)
    }
}
