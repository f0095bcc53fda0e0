/// A VEVENT as the agenda needs it: what and where, not when.
///
/// One `Event` is shared by all occurrences of its component; the times of
/// each occurrence live in `Occurrence`.
public final class Event: CalendarItem {
    /// UID; empty when the component has none (printed as `null` in JSON).
    public let uid: String
    public let title: String
    public let location: String?
    public let description: String?
    /// `STATUS`, upper case (`CONFIRMED`, `TENTATIVE`, `CANCELLED`).
    public let status: String?
    /// `STATUS:CANCELLED`, decided once: every occurrence is asked.
    public let isCancelled: Bool
    public let calendar: CalendarInfo
    /// `TRANSP`: whether the event takes up time (`free` and overlaps ask).
    public let transparency: Transparency

    /// `TRANSP`, as written: absent, `OPAQUE` or `TRANSPARENT`.
    public enum Transparency: Sendable {
        case unspecified, opaque, transparent
    }

    public init(
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
