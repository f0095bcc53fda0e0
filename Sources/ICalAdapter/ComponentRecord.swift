import AgendaCore
internal import CLibical

/// Everything the agenda takes from one VEVENT or VTODO, read in one pass
/// over its properties while libical still holds the component.
struct ComponentRecord {
    enum Kind { case event, reminder }

    var kind: Kind
    var uid = ""
    /// `X-ICS-AGENDA-SCOPE` (`--format ics` keeps items of one UID apart with it).
    var scope: String?
    /// `X-ICS-AGENDA-CALENDAR`: the calendar `--format ics` took the item from.
    var calendarName: String?
    var summary = ""
    var location: String?
    var description: String?
    var status: String?
    var dtstart: ZonedTime?
    var dtend: ZonedTime?
    var due: ZonedTime?
    var duration: NominalDuration?
    var rrules: [icalrecurrencetype] = []
    var rdates: [RDate] = []
    var exdates: [ZonedTime] = []
    var recurrenceID: ZonedTime?
    var thisAndFuture = false
    var sequence = 0
    var completedDate = false
    var priority: Int?
    var percentComplete: Int?
    var categories: [String] = []
    /// Problems libical marked with X-LIC-ERROR, and values found unusable here.
    var problems: [Problem] = []
    /// A RECURRENCE-ID was written but could not be read: the instance this
    /// component changes is unknown, so it is skipped (read as a series of
    /// its own, it could replace the real one).
    var unreadableRecurrenceID = false
    /// TZIDs that named no known zone (the values were read as floating).
    var unknownZones: [(property: String, tzid: String)] = []

    enum Problem {
        /// An X-LIC-ERROR: libical dropped a property it could not read;
        /// `value` is the value it quotes, to find the line.
        case libical(property: String?, message: String, value: String?)
        /// A date or date-time whose fields do not make a real time (month 13, hour 25).
        case invalidTime(property: String)
    }

    struct RDate {
        var start: ZonedTime
        /// A PERIOD value's end (explicit or start + duration).
        var end: ZonedTime?
        var periodDuration: NominalDuration?
    }

    var isRecurring: Bool { !rrules.isEmpty || !rdates.isEmpty }
    /// The UID as revisions and overrides are matched by: with its scope, when it has one.
    var matchUID: String { scope.map { uid.isEmpty ? uid : uid + "\u{0}" + $0 } ?? uid }
    var isCompleted: Bool { status == "COMPLETED" || completedDate }
}

/// Reads a libical VEVENT/VTODO into a `ComponentRecord`.
struct ComponentReader {
    let zones: ZoneTable
    /// The zone floating date-times are read in (the calendar's
    /// `X-WR-TIMEZONE`), or nil to keep them floating.
    var floatingZone: OpaquePointer? = nil

    func read(_ component: OpaquePointer, kind: ComponentRecord.Kind) -> ComponentRecord {
        var record = ComponentRecord(kind: kind)
        var property = icalcomponent_get_first_property(component, ICAL_ANY_PROPERTY)
        while let p = property {
            defer { property = icalcomponent_get_next_property(component, ICAL_ANY_PROPERTY) }
            switch icalproperty_isa(p) {
            case ICAL_UID_PROPERTY: record.uid = text(icalproperty_get_uid(p)) ?? ""
            case ICAL_SUMMARY_PROPERTY: record.summary = text(icalproperty_get_summary(p)) ?? ""
            case ICAL_LOCATION_PROPERTY: record.location = text(icalproperty_get_location(p))
            case ICAL_DESCRIPTION_PROPERTY: record.description = text(icalproperty_get_description(p))
            case ICAL_STATUS_PROPERTY: record.status = text(icalproperty_get_value_as_string(p))?.uppercased()
            case ICAL_DTSTART_PROPERTY: record.dtstart = time(p, icalproperty_get_dtstart(p), "DTSTART", &record)
            case ICAL_DTEND_PROPERTY: record.dtend = time(p, icalproperty_get_dtend(p), "DTEND", &record)
            case ICAL_DUE_PROPERTY: record.due = time(p, icalproperty_get_due(p), "DUE", &record)
            case ICAL_DURATION_PROPERTY: record.duration = NominalDuration(icalproperty_get_duration(p))
            case ICAL_RRULE_PROPERTY:
                let rule = icalproperty_get_rrule(p)
                if rule.freq != ICAL_NO_RECURRENCE {
                    record.rrules.append(rule)
                } else {
                    record.problems.append(.libical(property: "RRULE", message: "it has no FREQ; the rule is ignored", value: nil))
                }
            case ICAL_RDATE_PROPERTY: readRDate(p, &record)
            case ICAL_EXDATE_PROPERTY:
                if let t = time(p, icalproperty_get_exdate(p), "EXDATE", &record) { record.exdates.append(t) }
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
                let value = Int(icalproperty_get_priority(p))
                record.priority = (0...9).contains(value) ? value : nil
            case ICAL_PERCENTCOMPLETE_PROPERTY: record.percentComplete = Int(icalproperty_get_percentcomplete(p))
            case ICAL_CATEGORIES_PROPERTY:
                if let c = text(icalproperty_get_categories(p)) {
                    record.categories += c.split(separator: ",").map { String($0).trimmingWhitespace() }
                }
            case ICAL_X_PROPERTY:
                guard let name = icalproperty_get_x_name(p) else { break }
                switch String(cString: name).uppercased() {
                case ICSWriter.scopeProperty: record.scope = text(icalproperty_get_x(p))
                case ICSWriter.calendarProperty: record.calendarName = text(icalproperty_get_x(p))
                default: break
                }
            case ICAL_XLICERROR_PROPERTY:
                let message = text(icalproperty_get_xlicerror(p)) ?? "unreadable property"
                let name = LibicalMessages.propertyName(in: message)
                if name == "RRULE", let value = LibicalMessages.removedValue(in: message), let mended = RuleDiagnosis.mended(value) {
                    record.rrules.append(icalrecurrencetype_from_string(mended.rule))
                    let shown = value.count > 80 ? String(value.prefix(80)) + "…" : value
                    record.problems.append(.libical(property: "RRULE",
                        message: "cannot read \"\(shown)\" as written (\(mended.changes)); read as \"\(mended.rule)\"", value: value))
                    continue
                }
                record.problems.append(.libical(property: name, message: LibicalMessages.describe(message, property: name),
                    value: LibicalMessages.removedValue(in: message)))
                if name == "RECURRENCE-ID" { record.unreadableRecurrenceID = true }
            default: break
            }
        }
        return record
    }

    private func text(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        let s = String(cString: pointer)
        return s.isEmpty ? nil : s
    }

    /// A date or date-time property value with its TZID resolved.
    private func time(_ p: OpaquePointer, _ value: icaltimetype, _ name: String, _ record: inout ComponentRecord) -> ZonedTime? {
        if icaltime_is_null_time(value) != 0 { return nil }
        guard ComponentReader.isReal(value) else {
            record.problems.append(.invalidTime(property: name))
            return nil
        }
        var zoned = ZonedTime(local: value, zone: nil)
        guard value.is_date == 0, icaltime_is_utc(value) == 0 else { return zoned }
        if let param = icalproperty_get_first_parameter(p, ICAL_TZID_PARAMETER), let tzid = icalparameter_get_tzid(param) {
            let id = String(cString: tzid)
            if let zone = zones.zone(for: id) {
                zoned.zone = zone
            } else {
                record.unknownZones.append((name, id))
            }
        } else {
            zoned.zone = floatingZone
        }
        return zoned
    }

    /// libical keeps out-of-range fields as written ("2025-13-01" becomes
    /// month 13) and would roll them over into another date.
    static func isReal(_ t: icaltimetype) -> Bool {
        guard (1...9999).contains(t.year), (1...12).contains(t.month),
            t.day >= 1, Int(t.day) <= CivilDate.daysIn(year: Int(t.year), month: Int(t.month))
        else { return false }
        return t.is_date != 0 || ((0...23).contains(t.hour) && (0...59).contains(t.minute) && (0...60).contains(t.second))
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
