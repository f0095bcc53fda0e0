/// A VTODO as the agenda needs it. Its dates live in `Occurrence`
/// (`start`, `due`), since a recurring reminder moves them per instance.
public final class Reminder: CalendarItem {
    /// UID; empty when the component has none (printed as `null` in JSON).
    public let uid: String
    public let title: String
    public let location: String?
    public let description: String?
    /// `STATUS`, upper case (`NEEDS-ACTION`, `IN-PROCESS`, `COMPLETED`, `CANCELLED`).
    public let status: String?
    /// `STATUS:CANCELLED`, decided once: every occurrence is asked.
    public let isCancelled: Bool
    /// True when `STATUS:COMPLETED` or a `COMPLETED` date is present.
    public let isCompleted: Bool
    /// `PRIORITY`, 0 (undefined) to 9 (lowest); 1 is the highest.
    public let priority: Int?
    /// `PERCENT-COMPLETE`, 0 to 100.
    public let percentComplete: Int?
    public let categories: [String]
    public let calendar: CalendarInfo

    public init(
        uid: String, title: String, location: String?, description: String?, status: String?,
        isCompleted: Bool, priority: Int?, percentComplete: Int?, categories: [String], calendar: CalendarInfo
    ) {
        self.uid = uid
        self.title = title
        self.location = location
        self.description = description
        self.status = status
        isCancelled = status == "CANCELLED"
        self.isCompleted = isCompleted
        self.priority = priority
        self.percentComplete = percentComplete
        self.categories = categories
        self.calendar = calendar
    }
}
