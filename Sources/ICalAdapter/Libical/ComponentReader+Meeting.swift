import AgendaCore
internal import CLibical

/// What a component says of a meeting: my answer (`--me`), whether I
/// organize it, its join links.
extension ComponentReader {
    /// Where a meeting is joined, and whether I am in it (`me`).
    func readMeeting(_ p: OpaquePointer, _ isa: icalproperty_kind, _ record: inout ComponentRecord) {
        switch isa {
        case ICAL_CONFERENCE_PROPERTY:
            if let uri = text(icalproperty_get_conference(p)) {
                let video = parameterValue(p, ICAL_FEATURE_PARAMETER)?.contains("VIDEO") ?? false
                record.meetingProperties.append((video ? 0 : 1, uri))
            }
        case ICAL_URL_PROPERTY: record.url = record.url ?? text(icalproperty_get_url(p))
        case ICAL_ATTENDEE_PROPERTY:
            if !me.isEmpty, let address = text(icalproperty_get_attendee(p)),
                me.contains(CalendarAddress.normalized(address)) {
                // RFC 5545 3.2.12: NEEDS-ACTION when not written. With several
                // of my addresses invited, whatever their order: a decline
                // counts first (the contract leaves out a meeting any of
                // them declined), then a yes, a maybe, any other answer, none.
                let answer = parameterValue(p, ICAL_PARTSTAT_PARAMETER) ?? "NEEDS-ACTION"
                let current = record.myPartstat.map(ComponentReader.weight) ?? -1
                if ComponentReader.weight(of: answer) > current { record.myPartstat = answer }
            }
        case ICAL_ORGANIZER_PROPERTY:
            if !me.isEmpty, let address = text(icalproperty_get_organizer(p)),
                me.contains(CalendarAddress.normalized(address)) {
                record.organizedByMe = true
            }
        default: break
        }
    }

    /// How much one of my answers counts against another (`readMeeting`).
    static func weight(of partstat: String) -> Int {
        switch partstat {
        case "DECLINED": 4
        case "ACCEPTED": 3
        case "TENTATIVE": 2
        case "NEEDS-ACTION": 0
        default: 1
        }
    }

    /// This program's own properties (`--format ics` writes them; `ICSWriter`).
    func readXProperty(_ p: OpaquePointer, _ record: inout ComponentRecord) {
        guard let name = icalproperty_get_x_name(p) else { return }
        switch String(cString: name).uppercased() {
        case ComponentRecord.scopeProperty: record.scope = text(icalproperty_get_x(p))
        case ComponentRecord.calendarProperty: record.calendarName = text(icalproperty_get_x(p))
        case ComponentRecord.calendarColorProperty: record.calendarColor = text(icalproperty_get_x(p))
        case "X-GOOGLE-CONFERENCE": meetingLink(p, rank: 2, &record)
        case "X-MICROSOFT-ONLINEMEETINGEXTERNALLINK": meetingLink(p, rank: 3, &record)
        case "X-MICROSOFT-SKYPETEAMSMEETINGURL": meetingLink(p, rank: 4, &record)
        default: break
        }
    }

    func meetingLink(_ p: OpaquePointer, rank: Int, _ record: inout ComponentRecord) {
        if let value = text(icalproperty_get_x(p)), !value.isEmpty { record.meetingProperties.append((rank, value)) }
    }

    /// A parameter's value as written (upper case, without quotes), e.g.
    /// `ACCEPTED` of `PARTSTAT=ACCEPTED`; a list stays one value (`AUDIO,VIDEO`).
    func parameterValue(_ p: OpaquePointer, _ kind: icalparameter_kind) -> String? {
        guard let parameter = icalproperty_get_first_parameter(p, kind),
            let written = icalparameter_as_ical_string(parameter) else {
            return nil
        }
        let text = String(cString: written)
        guard let equals = text.firstIndex(of: "=") else { return nil }
        return String(text[text.index(after: equals)...]).replacing("\"", with: "").uppercased()
    }
}
