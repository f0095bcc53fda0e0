import AgendaCore
internal import CLibical

/// Reads a libical VEVENT/VTODO into a `ComponentRecord`.
struct ComponentReader {
    /// Where a TZID's zone is found (`ZoneTable`).
    let zones: any ZoneLookup
    /// The zone floating date-times are read in (the calendar's
    /// `X-WR-TIMEZONE`), or nil to keep them floating.
    var floatingZone: Zone? = nil
    /// That zone's name as the calendar wrote it (`X-WR-TIMEZONE`), for `WholeText`.
    var floatingTZID: String? = nil
    /// The calendar's `X-WR-TIMEZONE` as written, known or not, for `WholeText`.
    var calendarTimeZone: String? = nil
    /// The VCALENDAR of the file the component is in (its own VTIMEZONEs hold).
    var calendar = 0
    /// My calendar addresses (`--me`, `CalendarAddress.normalized`): when
    /// given, ATTENDEE and ORGANIZER are read for my participation.
    var me: Set<String> = []
    /// Whether VALARMs are read (`ics-agenda alarms`): no other command needs them.
    var readsAlarms = false
    /// Whether each component's whole text is kept (`--series`, `WholeText`): no other output needs it.
    var keepsText = false

    func read(_ borrowed: BorrowedComponent, kind: ComponentRecord.Kind) -> ComponentRecord {
        let component = borrowed.pointer
        var record = ComponentRecord(kind: kind)
        // How often each property RFC 5545 allows once was given: the first is read.
        var seen: UInt32 = 0
        var given: [Int: Int] = [:]  // the ones given more than once: how often
        var property = icalcomponent_get_first_property(component, ICAL_ANY_PROPERTY)
        while let p = property {
            defer { property = icalcomponent_get_next_property(component, ICAL_ANY_PROPERTY) }
            let isa = icalproperty_isa(p)
            if let i = ComponentReader.onceIndex(isa) {
                if seen & (1 << i) != 0 {
                    given[i, default: 1] += 1
                    continue
                }
                seen |= 1 << i
            }
            switch isa {
            case ICAL_UID_PROPERTY: record.uid = text(icalproperty_get_uid(p)) ?? ""
            case ICAL_SUMMARY_PROPERTY: record.summary = text(icalproperty_get_summary(p)) ?? ""
            case ICAL_LOCATION_PROPERTY: record.location = text(icalproperty_get_location(p))
            case ICAL_DESCRIPTION_PROPERTY: record.description = text(icalproperty_get_description(p))
            case ICAL_STATUS_PROPERTY: record.status = text(icalproperty_get_value_as_string(p))?.uppercased()
            case ICAL_TRANSP_PROPERTY:
                switch text(icalproperty_get_value_as_string(p))?.uppercased() {
                case "TRANSPARENT": record.transparency = .transparent
                case "OPAQUE": record.transparency = .opaque
                default: break
                }
            case ICAL_DTSTART_PROPERTY: record.dtstart = time(p, icalproperty_get_dtstart(p), "DTSTART", &record)
            case ICAL_DTEND_PROPERTY: record.dtend = time(p, icalproperty_get_dtend(p), "DTEND", &record)
            case ICAL_DUE_PROPERTY: record.due = time(p, icalproperty_get_due(p), "DUE", &record)
            case ICAL_DURATION_PROPERTY: record.duration = NominalDuration(icalproperty_get_duration(p))
            case ICAL_RRULE_PROPERTY: readRule(p, &record)
            case ICAL_RDATE_PROPERTY: readRDate(p, &record)
            case ICAL_EXDATE_PROPERTY: readExdate(p, &record)
            case ICAL_RECURRENCEID_PROPERTY:
                record.recurrenceID = time(p, icalproperty_get_recurrenceid(p), "RECURRENCE-ID", &record)
                if record.recurrenceID == nil { record.unreadableRecurrenceID = true }
                if let range = icalproperty_get_first_parameter(p, ICAL_RANGE_PARAMETER),
                    icalparameter_get_range(range) == ICAL_RANGE_THISANDFUTURE
                {
                    record.thisAndFuture = true
                }
            case ICAL_SEQUENCE_PROPERTY: record.sequence = Int(icalproperty_get_sequence(p))
            case ICAL_COMPLETED_PROPERTY: record.completedDate = true
            case ICAL_PRIORITY_PROPERTY:
                record.priorityGiven = true
                let value = Int(icalproperty_get_priority(p))
                record.priority = (0...9).contains(value) ? value : nil
            case ICAL_PERCENTCOMPLETE_PROPERTY: record.percentComplete = Int(icalproperty_get_percentcomplete(p))
            case ICAL_CATEGORIES_PROPERTY:
                if let c = text(icalproperty_get_categories(p)) {
                    record.categories += c.split(separator: ",").map { String($0).trimmingWhitespace() }
                }
            case ICAL_CONFERENCE_PROPERTY, ICAL_URL_PROPERTY, ICAL_ATTENDEE_PROPERTY, ICAL_ORGANIZER_PROPERTY:
                readMeeting(p, isa, &record)
            case ICAL_X_PROPERTY: readXProperty(p, &record)
            case ICAL_XLICERROR_PROPERTY: readLibicalMark(p, &record)
            default: break
            }
        }
        for (i, times) in given.sorted(by: { $0.key < $1.key }) {
            record.problems.append(.repeated(property: ComponentReader.once[i].name, times: times))
        }
        ComponentReader.checkEnd(&record)
        if readsAlarms {
            record.alarms = AlarmReader.alarms(of: component).map { dayZoned($0, record) }
            record.hasAlarmComponents = icalcomponent_get_first_component(component, ICAL_VALARM_COMPONENT) != nil
            readAlarmMarks(component, &record)
        }
        if keepsText { record.whole = whole(of: borrowed, record) }
        return record
    }

    /// An RRULE; one without FREQ is told and left out.
    private func readRule(_ p: OpaquePointer, _ record: inout ComponentRecord) {
        let rule = RecurrenceRule(ParsedRule.detached(icalproperty_get_rrule(p)))
        guard rule.frequency != .none else {
            record.problems.append(.libical(property: "RRULE", message: "it has no FREQ; the rule is ignored",
                value: nil, damage: .ruleGrammar))
            return
        }
        record.rrules.append(rule)
    }

    /// An EXDATE. libical's EXDATE getter (alone of the getters used here)
    /// looks its TZID up in the built-in zones, which may grow their table:
    /// under the lock every such lookup takes (`Zone`).
    private func readExdate(_ p: OpaquePointer, _ record: inout ComponentRecord) {
        let exdate = Zone.withBuiltinLock { icalproperty_get_exdate(p) }
        if let t = time(p, exdate, "EXDATE", &record) { record.exdates.append(t) }
    }

    /// `--series`: the component as written (`WholeText`), with what its calendar reads it in.
    private func whole(of borrowed: BorrowedComponent, _ record: ComponentRecord) -> WholeComponent? {
        WholeText.of(borrowed, matchUID: record.matchUID, calendar: calendar, floatingTZID: floatingTZID,
            calendarTimeZone: calendarTimeZone)
    }

    /// An alarm whose trigger counts days, told the zone whose clock they
    /// count on (`Alarm.dayZone`, RFC 5545 3.3.6): the zone of the time it
    /// counts from as the component's TZIDs resolved, `UTC` for a UTC time,
    /// none for a floating or all-day time (the display zone's then).
    private func dayZoned(_ alarm: Alarm, _ record: ComponentRecord) -> Alarm {
        guard case .relative(let days, _, let toEnd) = alarm.trigger, days != 0 else { return alarm }
        let start = record.kind == .reminder ? record.dtstart ?? record.due : record.dtstart
        let end = record.kind == .reminder ? record.due ?? record.dtstart : record.dtend ?? record.dtstart
        guard let time = toEnd ? end : start, !time.isDate else { return alarm }
        var zoned = alarm
        zoned.dayZone = time.isUTC ? "UTC" : time.zone.flatMap(zones.ianaName)
        return zoned
    }

    /// `alarms`: what libical could not read in the VALARMs (a TRIGGER it
    /// dropped, so that the alarm never rings), told as the component's
    /// own marks are. An agenda reads no VALARM, and so tells none of this.
    private func readAlarmMarks(_ component: OpaquePointer, _ record: inout ComponentRecord) {
        var inner = icalcomponent_get_first_component(component, ICAL_VALARM_COMPONENT)
        var count = 0
        while let alarm = inner, count < AlarmReader.maxAlarms {
            count += 1
            // (A TRIGGER in lower case was put in capitals before libical read it: `PropertyGuard.triggerInCapitals`.)
            var mark = icalcomponent_get_first_property(alarm, ICAL_XLICERROR_PROPERTY)
            while let p = mark {
                readLibicalMark(p, &record, inAlarm: true)
                mark = icalcomponent_get_next_property(alarm, ICAL_XLICERROR_PROPERTY)
            }
            inner = icalcomponent_get_next_component(component, ICAL_VALARM_COMPONENT)
        }
    }

    /// A property libical could not read, as the X-LIC-ERROR it left: an
    /// RRULE mended when it can be (`RuleDiagnosis`), else a problem told
    /// when it is damage (`DamageKind.isDamage`).
    private func readLibicalMark(_ p: OpaquePointer, _ record: inout ComponentRecord, inAlarm: Bool = false) {
        let message = text(icalproperty_get_xlicerror(p)) ?? "unreadable property"
        let name = LibicalMessages.propertyName(in: message)
        // A TRIGGER outside a VALARM is no alarm: nothing rings or is listed differently.
        if name == "TRIGGER" && !inAlarm { return }
        if name == "RRULE", let value = LibicalMessages.removedValue(in: message),
            let mended = RuleDiagnosis.mended(value) {
            record.rrules.append(RecurrenceRule(reading: mended.rule))
            let shown = value.count > 80 ? String(value.prefix(80)) + "…" : value
            record.problems.append(.libical(property: "RRULE",
                message: "cannot read \"\(shown)\" as written (\(mended.changes)); read as \"\(mended.rule)\"",
                    value: value, damage: .ruleGrammar))
            return
        }
        guard DamageKind.isDamage(libicalMark: message, property: name) else { return }
        record.problems.append(.libical(property: name, message: LibicalMessages.describe(message, property: name),
            value: LibicalMessages.removedValue(in: message), locator: LibicalWording.locator(for: message)))
        if name == "RECURRENCE-ID" { record.unreadableRecurrenceID = true }
    }

    /// DTEND must be later than DTSTART (RFC 5545 3.8.2.2; 3.6.1: an
    /// all-day event's DTEND is the day after its last day). An end before
    /// the start is left out (the event lasts as if it had none, in every
    /// window alike); an all-day DTEND on its DTSTART is read as one day.
    /// Both are told. Only ends of the start's own kind are compared.
    static func checkEnd(_ record: inout ComponentRecord) {
        if let duration = record.duration, duration.days < 0 || duration.seconds < 0 {
            record.duration = nil
            record.problems.append(.libical(property: "DURATION",
                message: "the duration is negative, so the end would be before the start; read as if there were none",
                    value: nil, damage: .endBeforeStart))
        }
        if record.kind == .reminder, let start = record.dtstart, let due = record.due, start.isDate == due.isDate,
            start.isDate ? due.civilDate < start.civilDate : start.isUTC == due.isUTC && start.zone == due.zone
                && due.local.wallSeconds < start.local.wallSeconds
        {
            record.problems.append(.libical(property: "DUE",
                message: "the due time is before the start (RFC 5545 3.8.2.3); read as due at the start", value: nil,
                    damage: .endBeforeStart))
        }
        guard let start = record.dtstart, let end = record.dtend, start.isDate == end.isDate else { return }
        if start.isDate {
            guard end.civilDate <= start.civilDate else { return }
            let before = end.civilDate < start.civilDate
            if before { record.dtend = nil }
            record.problems.append(.libical(property: "DTEND", message: before
                ? "the all-day end is before the start; read as one day"
                : "the all-day end is the start day itself (it is the day after the last); read as one day", value: nil,
                    damage: .endBeforeStart))
            return
        }
        guard start.isUTC == end.isUTC, start.zone == end.zone, end.local.wallSeconds < start.local.wallSeconds else {
            return
        }
        record.dtend = nil
        record.problems.append(.libical(property: "DTEND", message: "the end is before the start; read as if " +
            "there were none", value: nil, damage: .endBeforeStart))
    }

    /// The properties the agenda reads (TRANSP for busy time): damage to any
    /// other one changes nothing the agenda lists.
    static func readsProperty(_ name: String) -> Bool {
        readProperties.contains(name.uppercased())
    }

    /// (TRIGGER: only `alarms` reads VALARMs, and only it looks for their marks.)
    private static let readProperties: Set<String> = [
        "UID", "SUMMARY", "LOCATION", "DESCRIPTION", "STATUS", "DTSTART", "DTEND", "DUE", "DURATION",
        "RRULE", "EXRULE", "RDATE", "EXDATE", "RECURRENCE-ID", "SEQUENCE", "COMPLETED", "PRIORITY",
        "PERCENT-COMPLETE", "CATEGORIES", "TRANSP", "TRIGGER",
    ]

    /// Properties RFC 5545 3.6.1 and 3.6.2 allow once in a VEVENT or VTODO, that are read here.
    static let once: [(kind: icalproperty_kind, name: String)] = [
        (ICAL_UID_PROPERTY, "UID"), (ICAL_SUMMARY_PROPERTY, "SUMMARY"), (ICAL_DTSTART_PROPERTY, "DTSTART"),
        (ICAL_DTEND_PROPERTY, "DTEND"), (ICAL_DUE_PROPERTY, "DUE"), (ICAL_DURATION_PROPERTY, "DURATION"),
        (ICAL_RECURRENCEID_PROPERTY, "RECURRENCE-ID"), (ICAL_LOCATION_PROPERTY, "LOCATION"),
        (ICAL_DESCRIPTION_PROPERTY, "DESCRIPTION"), (ICAL_STATUS_PROPERTY, "STATUS"),
            (ICAL_SEQUENCE_PROPERTY, "SEQUENCE"),
        (ICAL_PRIORITY_PROPERTY, "PRIORITY"), (ICAL_PERCENTCOMPLETE_PROPERTY, "PERCENT-COMPLETE"),
    ]

    /// The place of a property kind in `once` (a switch: it runs for every property read).
    static func onceIndex(_ kind: icalproperty_kind) -> Int? {
        switch kind {
        case ICAL_UID_PROPERTY: 0
        case ICAL_SUMMARY_PROPERTY: 1
        case ICAL_DTSTART_PROPERTY: 2
        case ICAL_DTEND_PROPERTY: 3
        case ICAL_DUE_PROPERTY: 4
        case ICAL_DURATION_PROPERTY: 5
        case ICAL_RECURRENCEID_PROPERTY: 6
        case ICAL_LOCATION_PROPERTY: 7
        case ICAL_DESCRIPTION_PROPERTY: 8
        case ICAL_STATUS_PROPERTY: 9
        case ICAL_SEQUENCE_PROPERTY: 10
        case ICAL_PRIORITY_PROPERTY: 11
        case ICAL_PERCENTCOMPLETE_PROPERTY: 12
        default: nil
        }
    }

    func text(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        let s = String(cString: pointer)
        if s.isEmpty { return nil }
        // A line break is LF: libical turns the escape `\r` (not RFC 5545's,
        // which has only `\n`, 3.3.11) into CR, which no format can write back.
        guard s.utf8.contains(0x0D) else { return s }
        return s.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    /// A date or date-time property value with its TZID resolved.
    private func time(_ p: OpaquePointer, _ c: icaltimetype, _ name: String,
        _ record: inout ComponentRecord) -> ZonedTime? {
        let value = TimeValue(c)
        if value.isNull { return nil }
        guard value.isReal else {
            record.problems.append(.invalidTime(property: name,
                value: icalproperty_get_value_as_string(p).map { String(cString: $0) }))
            return nil
        }
        var zoned = ZonedTime(local: value, zone: nil)
        guard !value.isDate else { return zoned }
        if value.isUTC {
            guard let wrZone = floatingZone else { return zoned }
            return ComponentReader.fromUTC(value, p, wrZone: wrZone, zones: zones)
        }
        if let param = icalproperty_get_first_parameter(p, ICAL_TZID_PARAMETER),
            let tzid = icalparameter_get_tzid(param) {
            let id = String(cString: tzid)
            if let zone = zones.zone(for: id, calendar: calendar) {
                zoned.zone = zone
            } else if let guess = zones.guessed(id) {
                zoned.zone = guess.zone
                record.guessedZones.append((name, id, guess.iana))
            } else {
                record.unknownZones.append((name, id))
            }
        } else {
            zoned.zone = floatingZone
        }
        return zoned
    }

    /// A UTC date-time in a calendar with `X-WR-TIMEZONE`, read as the
    /// calendar's writer meant it (the x-wr-timezone project's `.in`/`.out`
    /// pairs): the wall clock that instant shows in that zone, so that a rule
    /// repeats on that wall clock across DST, as Google and Apple clients
    /// list it; a single value stays the same instant. With a TZID beside
    /// the `Z` (invalid, RFC 5545 3.3.5), the wall clock as written in the
    /// TZID's zone, which the `.out` files keep.
    static func fromUTC(_ value: TimeValue, _ p: OpaquePointer, wrZone: Zone, zones: any ZoneLookup) -> ZonedTime {
        var local = value
        if let param = icalproperty_get_first_parameter(p, ICAL_TZID_PARAMETER),
            let tzid = icalparameter_get_tzid(param),
            let zone = zones.zone(for: String(cString: tzid), calendar: 0)
        {
            local.zoneMark = zone
            return ZonedTime(local: local, zone: zone)
        }
        local = TimeValue(instant: value.wallSeconds, in: wrZone)
        local.zoneMark = wrZone
        return ZonedTime(local: local, zone: wrZone)
    }

    private func readRDate(_ p: OpaquePointer, _ record: inout ComponentRecord) {
        let value = icalproperty_get_rdate(p)
        let period = value.period
        if icaltime_is_null_time(period.start) == 0 {
            guard let start = time(p, period.start, "RDATE", &record) else { return }
            var rdate = ComponentRecord.RDate(start: start)
            if icaltime_is_null_time(period.end) == 0 {
                rdate.end = time(p, period.end, "RDATE", &record)
            } else {
                rdate.periodDuration = NominalDuration(period.duration)
            }
            record.rdates.append(rdate)
        } else if let start = time(p, value.time, "RDATE", &record) {
            record.rdates.append(ComponentRecord.RDate(start: start))
        }
    }
}
