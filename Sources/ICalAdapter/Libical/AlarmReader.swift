import AgendaCore
import Foundation
internal import CLibical

/// The VALARMs of a VEVENT or VTODO (RFC 5545 3.6.6), read for
/// `ics-agenda alarms`: TRIGGER (a duration from the start, or from the end
/// with `RELATED=END`, or a date-time), ACTION, REPEAT with DURATION,
/// ACKNOWLEDGED (RFC 9074) and DESCRIPTION. An alarm without a TRIGGER
/// libical can read is left out: it says nowhere when to ring.
enum AlarmReader {
    /// At most this many alarms of one component are read (a component
    /// holds at most `ComponentSplitter.maxInner` inner components; a real
    /// one a handful of alarms).
    static let maxAlarms = 100

    /// The alarms as written; `ComponentReader` gives each that counts
    /// days the zone they count on, as its TZIDs resolved (`Alarm.dayZone`).
    static func alarms(of component: OpaquePointer) -> [Alarm] {
        var alarms: [Alarm] = []
        var inner = icalcomponent_get_first_component(component, ICAL_VALARM_COMPONENT)
        while let alarm = inner, alarms.count < maxAlarms {
            if let read = read(alarm) { alarms.append(read) }
            inner = icalcomponent_get_next_component(component, ICAL_VALARM_COMPONENT)
        }
        return alarms
    }

    private static func read(_ alarm: OpaquePointer) -> Alarm? {
        let triggerProperty = icalcomponent_get_first_property(alarm, ICAL_TRIGGER_PROPERTY)
        guard let written = triggerProperty.map(icalproperty_get_trigger),
            icaltriggertype_is_bad_trigger(written) == 0 else {
            return nil
        }
        let trigger: Alarm.Trigger
        let time = TimeValue(written.time)
        if !time.isNull {
            // RFC 5545 3.8.6.3: an absolute trigger is in UTC.
            trigger = .absolute(instant(time))
        } else {
            let offset = NominalDuration(written.duration)
            let related = triggerProperty.flatMap { icalproperty_get_first_parameter($0, ICAL_RELATED_PARAMETER) }
                .map { icalparameter_get_related($0) == ICAL_RELATED_END }
            trigger = .relative(days: offset.days, seconds: offset.seconds, toEnd: related ?? false)
        }
        func first(_ kind: icalproperty_kind) -> OpaquePointer? { icalcomponent_get_first_property(alarm, kind) }
        let action = first(ICAL_ACTION_PROPERTY).flatMap { icalproperty_get_value_as_string($0) }
            .map { String(cString: $0).uppercased() }
        let repeats = first(ICAL_REPEAT_PROPERTY).map { Int(icalproperty_get_repeat($0)) } ?? 0
        let interval = first(ICAL_DURATION_PROPERTY).map { NominalDuration(icalproperty_get_duration($0)) }
            .map { $0.days * 86400 + $0.seconds } ?? 0
        let acknowledged = first(ICAL_ACKNOWLEDGED_PROPERTY).map { TimeValue(icalproperty_get_acknowledged($0)) }
            .flatMap { $0.isNull ? nil : instant($0) }
        let description = first(ICAL_DESCRIPTION_PROPERTY).flatMap { icalproperty_get_description($0) }
            .map { String(cString: $0) }
        var read = Alarm(trigger: trigger, action: action ?? "DISPLAY", repeatCount: repeats,
            repeatInterval: max(0, interval),
            acknowledged: acknowledged, description: description?.isEmpty == false ? description : nil)
        read.summary = first(ICAL_SUMMARY_PROPERTY).flatMap { icalproperty_get_summary($0) }.map { String(cString: $0) }
        var attendee = icalcomponent_get_first_property(alarm, ICAL_ATTENDEE_PROPERTY)
        while let property = attendee, read.attendees.count < maxAlarms {
            if let address = icalproperty_get_attendee(property) { read.attendees.append(String(cString: address)) }
            attendee = icalcomponent_get_next_property(alarm, ICAL_ATTENDEE_PROPERTY)
        }
        return read
    }

    /// A date-time read as UTC (a date as its midnight).
    private static func instant(_ t: TimeValue) -> Date {
        Date(timeIntervalSince1970: TimeInterval(t.wallSeconds))
    }
}
