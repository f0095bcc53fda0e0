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

    /// `TRANSP`, as written: absent, `OPAQUE` or `TRANSPARENT`.
    package enum Transparency: Sendable {
        case unspecified, opaque, transparent
    }

    package init(
        uid: String, title: String, location: String?, description: String?, status: String?, calendar: CalendarInfo,
        transparency: Transparency = .unspecified
    ) {
        self.uid = uid
        self.title = title
        self.location = location
        self.description = description
        self.status = status
        isCancelled = status == "CANCELLED"
        self.calendar = calendar
        self.transparency = transparency
    }
}
