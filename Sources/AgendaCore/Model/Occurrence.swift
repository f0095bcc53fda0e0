import Foundation

/// One instance of an event or reminder: a non-recurring component has one,
/// a recurring one has one per generated start.
///
/// A value of 32 bytes kept in arrays (a reference to its component's Event
/// or Reminder, which every instance of a series shares, and three times):
/// an agenda of 100,000 components holds a quarter of a million of them, and
/// as objects they took 80 bytes each with the allocator's header, a fifth
/// of the run's memory. Rows name an occurrence by its place in its agenda
/// (`AgendaOccurrences.Index`), which is also its identity.
package struct Occurrence: Sendable {
    package enum Item: Sendable {
        case event(Event)
        case reminder(Reminder)

        package var kind: Kind {
            switch self {
            case .event: .event
            case .reminder: .reminder
            }
        }

        /// The event or reminder, for what both have (text, status, calendar).
        package var common: any CalendarItem { common { $0 } }

        /// `read` applied to the event or reminder, for what both have.
        /// Inlined, each case calls `read` on its own type: no reference
        /// is counted, and the occurrences' fields are read by the million.
        @inline(__always)
        package func common<Value>(_ read: (any CalendarItem) -> Value) -> Value {
            switch self {
            case .event(let e): read(e)
            case .reminder(let r): read(r)
            }
        }
    }

    /// Which kind of component an occurrence comes from; its raw value
    /// is its name in JSON and templates (`kind`).
    package enum Kind: String, Sendable {
        case event
        case reminder
    }

    package let item: Item
    private let packedStart: Int64
    /// An event's end, a reminder's due: an event has no DUE and a reminder
    /// no DTEND (RFC 5545 3.6.1, 3.6.2), so one field holds whichever it has.
    private let packedEndOrDue: Int64
    private let packedRecurrenceID: Int64

    /// Events: the instance's start. Reminders: DTSTART when present.
    package var start: AgendaTime? { AgendaTime?(packed: packedStart) }
    /// Events: the instance's end (exclusive for dates). Reminders: nil.
    package var end: AgendaTime? { kind == .event ? AgendaTime?(packed: packedEndOrDue) : nil }
    /// Reminders: the instance's DUE (DTSTART + DURATION when only that is given). Events: nil.
    package var due: AgendaTime? { kind == .reminder ? AgendaTime?(packed: packedEndOrDue) : nil }
    /// The original start of an instance of a recurring component (its
    /// RECURRENCE-ID); nil for a one-off component.
    package var recurrenceID: AgendaTime? { AgendaTime?(packed: packedRecurrenceID) }

    /// `end` is kept for an event, `due` for a reminder; the other is dropped.
    package init(item: Item, start: AgendaTime?, end: AgendaTime?, due: AgendaTime? = nil, recurrenceID: AgendaTime?) {
        self.item = item
        packedStart = start.packed
        packedEndOrDue = (item.kind == .event ? end : due).packed
        packedRecurrenceID = recurrenceID.packed
    }

    package var kind: Kind { item.kind }

    /// The same occurrence of an item with other alarms (`Event.with(alarms:)`).
    package func with(alarms: [Alarm]) -> Occurrence {
        let changed: Item = switch item {
        case .event(let e): .event(e.with(alarms: alarms))
        case .reminder(let r): .reminder(r.with(alarms: alarms))
        }
        return Occurrence(item: changed, start: start, end: end, due: due, recurrenceID: recurrenceID)
    }

    /// Its item's VALARMs (`ics-agenda alarms`; empty when not read).
    package var alarms: [Alarm] { item.common(\.alarms) }
    /// `--series`: its component as written (`WholeComponent`).
    package var whole: WholeComponent? { item.common(\.whole) }

    package var uid: String { item.common(\.uid) }
    package var title: String { item.common(\.title) }
    package var location: String? { item.common(\.location) }
    package var description: String? { item.common(\.description) }
    package var status: String? { item.common(\.status) }
    package var isCancelled: Bool { item.common(\.isCancelled) }
    /// An event I declined (`--me`).
    var isDeclined: Bool {
        if case .event(let e) = item { e.isDeclined } else { false }
    }
    package var meetingURL: String? {
        if case .event(let e) = item { e.meetingURL } else { nil }
    }
    package var partstat: String? {
        if case .event(let e) = item { e.partstat } else { nil }
    }
    package var calendar: CalendarInfo { item.common(\.calendar) }

    /// The shared Event or Reminder object: the same for every occurrence of a component.
    package var itemIdentity: ObjectIdentifier { item.common { ObjectIdentifier($0) } }

    /// All-day: the occurrence's start (or, for a reminder, its anchor) is a date.
    var isAllDay: Bool { (start ?? due)?.isDate ?? false }

    /// Takes up time, for overlaps and `free` (RFC 5545 3.8.2.7): a timed
    /// event that is not `TRANSP:TRANSPARENT`, or an all-day one marked
    /// `TRANSP:OPAQUE` (calendars write all-day events as free unless told);
    /// never a cancelled or declined one, or a reminder.
    var isBusy: Bool {
        guard case .event(let e) = item, !e.isCancelled, !e.isDeclined, let start else { return false }
        return start.isDate ? e.transparency == .opaque : e.transparency != .transparent
    }

    /// The time a reminder is placed by: DUE, else DTSTART.
    package var anchor: AgendaTime? { due ?? start }

    /// The start JSON and templates show: an event's start; a reminder's
    /// DTSTART, else its DUE.
    package var shownStart: AgendaTime? {
        switch kind {
        case .event: start
        case .reminder: start ?? due
        }
    }

    /// The end JSON and templates show: an event's end; a reminder's DUE,
    /// else its DTSTART.
    package var shownEnd: AgendaTime? {
        switch kind {
        case .event: end
        case .reminder: due ?? start
        }
    }
}

extension Occurrence {
    /// The instants the occurrence covers in `clock`'s zone: an all-day one
    /// from the start of its first day to the start of the day after its last
    /// (one day at least), a timed one from its start to its end (never
    /// before the start). nil without a start. `next` and `free` read it.
    package func span(in clock: ZoneClock) -> (start: Date, end: Date)? {
        guard let start else { return nil }
        guard start.isDate else {
            let s = start.instant(in: clock)
            return (s, max(end?.instant(in: clock) ?? s, s))
        }
        let first = start.wallDate
        return (clock.startOfDay(first), clock.startOfDay(max(end?.wallDate ?? first.adding(days: 1),
            first.adding(days: 1))))
    }
}
