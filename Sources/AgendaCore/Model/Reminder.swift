/// A VTODO as the agenda needs it. Its dates live in `Occurrence`
/// (`start`, `due`), since a recurring reminder moves them per instance.
package final class Reminder: CalendarItem {
    /// UID; empty when the component has none (printed as `null` in JSON).
    package let uid: String
    package let title: String
    package let location: String?
    package let description: String?
    /// `STATUS`, upper case (`NEEDS-ACTION`, `IN-PROCESS`, `COMPLETED`, `CANCELLED`).
    package let status: String?
    /// `STATUS:CANCELLED`, decided once: every occurrence is asked.
    package let isCancelled: Bool
    /// True when `STATUS:COMPLETED` or a `COMPLETED` date is present.
    package let isCompleted: Bool
    /// `PRIORITY`, 0 (undefined) to 9 (lowest); 1 is the highest.
    package let priority: Int?
    /// `PERCENT-COMPLETE`, 0 to 100.
    package let percentComplete: Int?
    package let categories: [String]
    package let calendar: CalendarInfo
    package let alarms: [Alarm]
    /// `--series`: its component as written; nil when not asked for.
    package let whole: WholeComponent?

    package init(
        uid: String, title: String, location: String?, description: String?, status: String?,
        isCompleted: Bool, priority: Int?, percentComplete: Int?, categories: [String], calendar: CalendarInfo,
        alarms: [Alarm] = [], whole: WholeComponent? = nil
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
        self.alarms = alarms
        self.whole = whole
    }

    /// The same reminder with other alarms: an override without VALARMs of
    /// its own rings its master's.
    package func with(alarms: [Alarm]) -> Reminder {
        Reminder(uid: uid, title: title, location: location, description: description, status: status,
            isCompleted: isCompleted,
            priority: priority, percentComplete: percentComplete, categories: categories, calendar: calendar,
                alarms: alarms, whole: whole)
    }
}
