import Foundation

/// One VALARM of an event or reminder (RFC 5545 3.6.6): when it goes off
/// for each occurrence, how often, and whether it was acknowledged
/// (RFC 9074). Shared by every occurrence of its component.
package struct Alarm: Sendable, Hashable {
    package enum Trigger: Sendable, Hashable {
        /// `TRIGGER:-PT10M`: days on the wall clock and seconds from the
        /// occurrence's start, or its end (`RELATED=END`; a reminder's DUE);
        /// negative before it.
        case relative(days: Int, seconds: Int, toEnd: Bool)
        /// `TRIGGER;VALUE=DATE-TIME:…Z`: one instant, for every occurrence.
        case absolute(Date)
    }

    package let trigger: Trigger
    /// `ACTION`, upper case: DISPLAY, AUDIO, EMAIL, …
    package let action: String
    /// `REPEAT` and `DURATION`: further times, each `repeatInterval` seconds after the one before.
    package let repeatCount: Int
    package let repeatInterval: Int
    /// `ACKNOWLEDGED`: the alarm was dismissed then; times up to it do not fire.
    package let acknowledged: Date?
    /// The alarm's own `DESCRIPTION`, when it says more than the title.
    package let description: String?
    /// An EMAIL alarm's `SUMMARY` (the subject) and `ATTENDEE`s (whom to
    /// mail), as written: `--format ics` writes them back.
    package var summary: String? = nil
    package var attendees: [String] = []
    /// The zone on whose wall clock a relative trigger's days count (RFC
    /// 5545 3.3.6: a day is a day on the clock of the time it is counted
    /// from): the IANA name of the start's zone (the end's with
    /// `RELATED=END`), `UTC` for a UTC time; nil for floating and all-day
    /// times, and zones with no IANA name, which count on the display zone's.
    package var dayZone: String? = nil

    package init(trigger: Trigger, action: String, repeatCount: Int = 0, repeatInterval: Int = 0,
        acknowledged: Date? = nil, description: String? = nil) {
        self.trigger = trigger
        self.action = action
        self.repeatCount = repeatCount
        self.repeatInterval = repeatInterval
        self.acknowledged = acknowledged
        self.description = description
    }

    /// At most this many repeats are fired: `REPEAT:1000000` is a mistake, not a wish.
    package static let maxRepeats = 100
}
