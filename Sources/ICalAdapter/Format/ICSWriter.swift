import AgendaCore
import Foundation

/// `--format ics`: the listed occurrences as one iCalendar stream, each
/// instance a VEVENT or VTODO with its UID and RECURRENCE-ID. Reading it
/// back gives the same agenda: zoned times are written in UTC, so that
/// every instant survives (a wall-clock time with a TZID loses its offset
/// in the hour a clock turns back); floating times stay floating and dates
/// dates. Components are built and serialised by libical, which escapes
/// and folds the text.
///
/// Two things the reader would otherwise merge are kept apart with
/// properties of this program's own (RFC 5545 3.8.8.2), which it reads back:
/// `X-ICS-AGENDA-SCOPE` on the items of another calendar (or another
/// one-off component) that share a UID with one written before, since one
/// UID names one component (3.8.4.7); and `X-ICS-AGENDA-CALENDAR`, the
/// calendar each item came from, when they come from more than one.
package struct ICSWriter: OutputFormatter {
    /// DTSTAMP of every component written (RFC 5545 3.6.1 requires it): the
    /// run's clock (`--now`), so that the same run writes the same text.
    let stamp: Date
    let clock: ZoneClock
    /// `--me`: my address, written as the ATTENDEE whose PARTSTAT an event
    /// holds, so that reading it back with the same `--me` gives it again.
    let me: String?
    /// `--series`: each component with a listed occurrence is written whole
    /// (`writeSeries`), not each occurrence.
    let series: Bool

    package init(clock: ZoneClock, now: Date = Date(), me: Set<String> = [], series: Bool = false) {
        stamp = now
        self.clock = clock
        self.me = me.min()
        self.series = series
    }


    package func write(_ sections: [AgendaSection], to out: inout some ByteOutputStream) {
        let listed = sections.flatMap { section in
            section.rows.filter(\.isFirstListed).map { section.occurrences[$0] }
        }
        // An empty agenda prints nothing at all, in every format (cron mails nothing).
        guard !listed.isEmpty else { return }
        out.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ics-agenda//ics-agenda//EN\r\nCALSCALE:GREGORIAN\r\n")
        let names = Set(listed.map(\.calendar.name))
        if names.count == 1, let name = names.first {
            out.write(ComponentBuilder.xPropertyText("X-WR-CALNAME", name))
            if let color = listed.first?.calendar.color {
                out.write(ComponentBuilder.xPropertyText("X-APPLE-CALENDAR-COLOR", color))
            }
        }
        if series {
            writeSeries(listed, calendarNames: names.count, to: &out)
            out.write("END:VCALENDAR\r\n")
            return
        }
        let scopes = ICSWriter.scopes(of: listed)
        let alarms = alarmsWritten(listed)
        for (i, (o, scope)) in zip(listed, scopes).enumerated() {
            guard let c = component(for: o, alarms: alarms[i]) else { continue }
            if let scope { c.addX(ComponentRecord.scopeProperty, String(scope)) }
            if names.count > 1 {
                c.addX(ComponentRecord.calendarProperty, o.calendar.name)
                if let color = o.calendar.color { c.addX(ComponentRecord.calendarColorProperty, color) }
            }
            out.write(c.text)
        }
        out.write("END:VCALENDAR\r\n")
    }

    /// For each occurrence, nil or a number that keeps its item apart from
    /// others of its UID. The instances of one calendar's series (and its
    /// overrides) are one owner, each one-off component another; the first
    /// owner of a UID is written plain, each further one with a scope.
    static func scopes(of occurrences: [Occurrence]) -> [Int?] {
        struct Owner: Hashable {
            let uid: String
            let calendar: ObjectIdentifier?
            let item: ObjectIdentifier?
        }
        var numbers: [Owner: Int] = [:]
        var owners: [String: Int] = [:]
        return occurrences.map { o in
            guard !o.uid.isEmpty else { return nil }  // no UID: nothing ties it to another
            let owner = o.recurrenceID == nil
                ? Owner(uid: o.uid, calendar: nil, item: o.itemIdentity)
                : Owner(uid: o.uid, calendar: ObjectIdentifier(o.calendar), item: nil)
            if let number = numbers[owner] { return number == 0 ? nil : number }
            let number = owners[o.uid, default: 0]
            owners[o.uid] = number + 1
            numbers[owner] = number
            return number == 0 ? nil : number
        }
    }

    /// The alarms written with each occurrence: its own, but a series'
    /// absolute alarm only with the instance it is for (the first that
    /// starts at or after it, else the last before it, as `alarms` picks),
    /// since another program would ring it once for each instance written.
    func alarmsWritten(_ listed: [Occurrence]) -> [[Alarm]] {
        struct Key: Hashable {
            let uid: String
            let calendar: ObjectIdentifier
            let alarm: Alarm
        }
        func start(_ o: Occurrence) -> Date { (o.start ?? o.due)?.start(in: clock) ?? .distantPast }
        var owner: [Key: Int] = [:]
        for (i, o) in listed.enumerated() where o.recurrenceID != nil && !o.uid.isEmpty {
            for alarm in o.alarms {
                guard case .absolute(let time) = alarm.trigger else { continue }
                let key = Key(uid: o.uid, calendar: ObjectIdentifier(o.calendar), alarm: alarm)
                guard let kept = owner[key] else {
                    owner[key] = i
                    continue
                }
                if AlarmSchedule.isFor(instantStarting: start(o), ratherThan: start(listed[kept]), trigger: time) {
                    owner[key] = i
                }
            }
        }
        return listed.enumerated().map { i, o in
            guard o.recurrenceID != nil, !o.uid.isEmpty else { return o.alarms }
            return o.alarms.filter { alarm in
                guard case .absolute = alarm.trigger else { return true }
                return owner[Key(uid: o.uid, calendar: ObjectIdentifier(o.calendar), alarm: alarm)] == i
            }
        }
    }

    private func component(for o: Occurrence, alarms: [Alarm]) -> ComponentBuilder? {
        let reminder: Reminder? = { if case .reminder(let r) = o.item { return r } else { return nil } }()
        guard let c = ComponentBuilder(reminder == nil ? .event : .todo) else { return nil }
        // A component without UID is written without one, so that reading it back gives null again.
        if !o.uid.isEmpty { c.add(.uid, o.uid) }
        c.add(line: "DTSTAMP:" + ICSWriter.text(of: AgendaTime.instant(stamp)))
        if let rid = o.recurrenceID { add(.recurrenceID, "RECURRENCE-ID", rid, to: c) }
        if !o.title.isEmpty { c.add(.summary, o.title) }
        if let start = o.start { add(.dtstart, "DTSTART", start, to: c) }
        if reminder == nil, let end = o.end, end != o.start {
            // An end past the year 9999 has no date RFC 5545 can write: its length is written instead.
            if let start = o.start, ICSWriter.year(of: end) > 9999 {
                c.add(line: "DURATION:" + ICSWriter.duration(from: start, to: end))
            } else {
                add(.dtend, "DTEND", end, to: c)
            }
        }
        if let due = o.due { add(.due, "DUE", due, to: c) }
        if let location = o.location { c.add(.location, location) }
        if let description = o.description { c.add(.description, description) }
        if let status = o.status { c.add(line: "STATUS:\(status)") }
        // The link to join, as the property read first (RFC 7986): read back, the same meeting_url.
        if let link = o.meetingURL { c.add(line: "CONFERENCE;VALUE=URI;FEATURE=VIDEO:\(link)") }
        if case .event(let e) = o.item, e.transparency != .unspecified {
            c.addTransparency(opaque: e.transparency == .opaque)
        }
        if let me, let partstat = o.partstat {
            c.add(line: "ATTENDEE;PARTSTAT=\(partstat):" + (me.contains(":") ? me : "mailto:" + me))
        }
        for alarm in alarms { add(alarm, of: o, to: c) }
        if let r = reminder {
            if let priority = r.priority { c.add(.priority, priority) }
            if let percent = r.percentComplete { c.add(.percentComplete, percent) }
            if r.isCompleted && o.status != "COMPLETED" { c.add(.completed, TimeValue(wallSeconds: 0, zone: .utc)) }
            if !r.categories.isEmpty { c.add(.categories, r.categories.joined(separator: ",")) }
        }
        return c
    }

    /// A VALARM as read (`AlarmReader`): its trigger, action, repeats and
    /// acknowledgement; a DISPLAY or EMAIL alarm says its text (RFC 5545
    /// 3.6.6), its own or the title.
    private func add(_ alarm: Alarm, of o: Occurrence, to c: borrowing ComponentBuilder) {
        var lines = ["ACTION:" + alarm.action]
        switch alarm.trigger {
        case .absolute(let time):
            lines.append("TRIGGER;VALUE=DATE-TIME:" + ICSWriter.text(of: .instant(time)))
        case .relative(let days, let seconds, let toEnd):
            // Days on a zone's clock: its times are written in UTC, where a day is 24 hours; the
            // instance's own offset is written instead (floating and all-day times stay as they are).
            let exact = days != 0 && alarm.dayZone != nil ? AlarmSchedule.exactOffset(of: alarm, for: o,
                clock: clock) : nil
            lines.append("TRIGGER" + (toEnd ? ";RELATED=END:" : ":")
                + (exact.map { ICSWriter.offset(days: 0, seconds: $0) }
                ?? ICSWriter.offset(days: days, seconds: seconds)))
        }
        if alarm.repeatCount > 0 && alarm.repeatInterval > 0 {
            lines += ["REPEAT:\(alarm.repeatCount)", "DURATION:PT\(alarm.repeatInterval)S"]
        }
        if let acknowledged = alarm.acknowledged {
            lines.append("ACKNOWLEDGED:" + ICSWriter.text(of: .instant(acknowledged)))
        }
        let says = alarm.action == "DISPLAY" || alarm.action == "EMAIL"
        c.addAlarm(lines: lines, description: alarm.description ?? (says ? o.title : nil),
            summary: alarm.summary ?? (alarm.action == "EMAIL" ? o.title : nil), attendees: alarm.attendees)
    }

    /// A trigger's offset: `-P1DT600S`, `PT0S` (days and seconds of one sign).
    static func offset(days: Int, seconds: Int) -> String {
        guard days != 0 || seconds != 0 else { return "PT0S" }
        return (days < 0 || seconds < 0 ? "-" : "") + "P" + (days != 0 ? "\(abs(days))D" : "")
            + (seconds != 0 ? "T\(abs(seconds))S" : "")
    }

    /// A time property: through libical, which writes years up to 3000
    /// (and nothing but zeros after); later ones as text of our own.
    private func add(_ property: ComponentBuilder.TimeProperty, _ name: String, _ time: AgendaTime,
        to c: borrowing ComponentBuilder) {
        if ICSWriter.year(of: time) <= 3000 {
            c.add(property, value(time))
        } else {
            c.add(line: "\(name)\(time.kind == .date ? ";VALUE=DATE" : ""):" + ICSWriter.text(of: time))
        }
    }

    static func year(of time: AgendaTime) -> Int {
        time.wallDate.year
    }

    /// `20250308`, `20250308T090000` (floating) or `20250308T080000Z`.
    static func text(of time: AgendaTime) -> String {
        let seconds = Int(time.wall.timeIntervalSince1970.rounded(.down))
        let date = CivilDate(daysSinceEpoch: Int((Double(seconds) / 86400).rounded(.down)))
        let day = String(format: "%04d%02d%02d", date.year, date.month, date.day)
        if time.kind == .date { return day }
        let second = seconds - date.daysSinceEpoch * 86400
        return day + String(format: "T%02d%02d%02d", second / 3600, second / 60 % 60, second % 60)
            + (time.kind == .instant ? "Z" : "")
    }

    /// The span from `start` to `end` as a DURATION: whole days (`P400D`),
    /// or days and seconds (`P400DT3600S`).
    static func duration(from start: AgendaTime, to end: AgendaTime) -> String {
        let seconds = max(0, Int(end.wall.timeIntervalSince(start.wall).rounded(.down)))
        let days = seconds / 86400, rest = seconds % 86400
        return rest == 0 ? "P\(days)D" : "P\(days)DT\(rest)S"
    }

    /// A date, floating or zoned time as a property value: dates and
    /// floating times as they were, instants in UTC.
    private func value(_ time: AgendaTime) -> TimeValue {
        TimeValue(wallSeconds: Int(time.wall.timeIntervalSince1970.rounded(.down)), isDate: time.kind == .date,
            zone: time.kind == .instant ? .utc : nil)
    }
}
