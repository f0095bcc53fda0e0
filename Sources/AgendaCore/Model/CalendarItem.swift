/// What an event and a reminder both have: their text, status and
/// calendar (`Occurrence.Item.common`).
package protocol CalendarItem: AnyObject, Sendable {
    /// UID; empty when the component has none (printed as `null` in JSON).
    var uid: String { get }
    var title: String { get }
    var location: String? { get }
    var description: String? { get }
    /// `STATUS`, upper case.
    var status: String? { get }
    /// `STATUS:CANCELLED`, decided once: every occurrence is asked.
    var isCancelled: Bool { get }
    var calendar: CalendarInfo { get }
    /// Its VALARMs (`ics-agenda alarms`), in the order written.
    var alarms: [Alarm] { get }
    /// `--series`: its component as written (`WholeComponent`); nil when not asked for.
    var whole: WholeComponent? { get }
}
