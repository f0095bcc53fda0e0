/// `--template STRING`: one line per occurrence (in agenda order, each
/// once, like JSON), with `{placeholders}` filled in. `{{` and `}}` are
/// literal braces; `\t` and `\n` are a tab and a newline. A value's own
/// line breaks and tabs are written `\n` and `\t`: each occurrence is one line.
package struct TemplateFormatter: OutputFormatter {
    /// The placeholders and what they hold, for `--help` and validation.
    package static let placeholders: [(name: String, meaning: String)] = [
        ("title", "SUMMARY"), ("start", "start, ISO 8601 (date for all-day)"), ("end", "end, ISO 8601"),
        ("date", "the day listed under, in the locale's medium style"), ("day", "the day listed under, YYYY-MM-DD"),
        ("time", "the time column: all day, 9:00 AM, due 5:00 PM, overdue"), ("location", "LOCATION"),
        ("description", "DESCRIPTION"), ("calendar", "calendar name"), ("calendar_color", "its colour, #rrggbb"),
        ("source", "the folder it came from"),
        ("uid", "UID"), ("recurrence_id", "RECURRENCE-ID, ISO 8601"), ("status", "STATUS"),
            ("kind", "event or reminder"),
        ("all_day", "true or false"), ("due", "reminder DUE, ISO 8601"), ("priority", "reminder PRIORITY"),
        ("completed", "reminder: true or false"), ("meeting_url", "the link to join the meeting online"),
        ("partstat", "with --me: my participation (ACCEPTED, TENTATIVE, DECLINED, ...)"),
    ]

    let template: Template
    let wording: RowWording
    let iso: ISOTime

    package init(template: Template, formats: LocaleFormats) {
        self.template = template
        wording = RowWording(formats: formats)
        iso = ISOTime(clock: formats.clock)
    }

    package init(template: String, formats: LocaleFormats) throws {
        self.init(template: try Template(template), formats: formats)
    }

    package func write(_ sections: [AgendaSection], to out: inout some ByteOutputStream) {
        for section in sections {
            for row in section.rows where row.isFirstListed {
                out.write(line(row, section.occurrences[row]) + "\n")
            }
        }
    }

    /// The line of one occurrence, without its line feed (`next` and `join` write theirs one by one).
    package func line(_ row: AgendaRow, _ occurrence: Occurrence) -> String {
        var line = ""
        for piece in template.pieces {
            switch piece {
            case .text(let t): line += t
            case .field(let name): line += TemplateFormatter.escaped(value(name, row, occurrence))
            case .time(let name, let format):
                guard let time = self.time(name, occurrence) else { continue }
                let instant = time.isDate || time.kind == .floating ? nil : time.instant(in: wording.formats.clock)
                let offset = instant.map(wording.formats.clock.offset(at:))
                let wall = instant.map(wording.formats.clock.wallClock(of:)) ?? time.wall
                line += TemplateFormatter.escaped(format.string(wall: wall, offset: offset, formats: wording.formats))
            }
        }
        return line
    }

    /// A value as one field of one line: a line break as `\n`, a tab as
    /// `\t` (the template's own separators), other control characters as `\xNN`.
    static func escaped(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            return value
        }
        return PrintableText.escaped(value).replacingOccurrences(of: "\t", with: "\\t")
    }

    /// The time a time placeholder holds.
    func time(_ name: String, _ o: Occurrence) -> AgendaTime? {
        switch name {
        case "start": o.shownStart
        case "end": o.shownEnd
        case "due": o.due
        default: o.recurrenceID
        }
    }

    func value(_ name: String, _ row: AgendaRow, _ o: Occurrence) -> String {
        let reminder: Reminder?  // what only reminders have: completion, priority
        switch o.item {
        case .event: reminder = nil
        case .reminder(let r): reminder = r
        }
        switch name {
        case "title": return o.title
        case "start": return o.shownStart.map(iso.string) ?? ""
        case "end": return o.shownEnd.map(iso.string) ?? ""
        case "date": return row.day.map(wording.formats.mediumDate) ?? ""
        case "day": return row.day?.iso ?? ""
        case "time": return wording.timeLabel(row)
        case "location": return o.location ?? ""
        case "description": return o.description ?? ""
        case "calendar": return o.calendar.name
        case "source": return o.calendar.source
        case "calendar_color": return o.calendar.color ?? ""
        case "uid": return o.uid
        case "recurrence_id": return o.recurrenceID.map(iso.string) ?? ""
        case "status": return o.status ?? ""
        case "kind": return o.kind.rawValue
        case "all_day": return o.isAllDay ? "true" : "false"
        case "due": return o.due.map(iso.string) ?? ""
        case "priority": return reminder?.priority.map(String.init) ?? ""
        case "completed": return reminder.map { $0.isCompleted ? "true" : "false" } ?? ""
        case "meeting_url": return o.meetingURL ?? ""
        case "partstat": return o.partstat ?? ""
        default: return ""
        }
    }
}

/// A `--template` read: its text and placeholders, checked once, when the
/// command line is read (before the locale and zone are known).
package struct Template: Sendable {
    package struct Invalid: Error, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }

    enum Piece: Sendable {
        case text(String)
        case field(String)
        /// A time placeholder with a strftime format: `{start:%H:%M}`.
        case time(String, TimeFormat)
    }

    /// The placeholders that take a strftime format.
    static let times: Set<String> = ["start", "end", "due", "recurrence_id"]

    let pieces: [Piece]

    package init(_ template: String) throws {
        var pieces: [Piece] = []
        var text = ""
        var chars = Array(template)[...]
        let known = Set(TemplateFormatter.placeholders.map(\.name))
        while let c = chars.popFirst() {
            if c == "{" && chars.first == "{" || c == "}" && chars.first == "}" {
                chars.removeFirst()
                text.append(c)
            } else if c == "\\" && (chars.first == "t" || chars.first == "n") {
                text.append(chars.removeFirst() == "t" ? "\t" : "\n")
            } else if c == "{" {
                guard let close = chars.firstIndex(of: "}") else {
                    throw Invalid(message: "an unclosed { in the template")
                }
                let inside = String(chars[..<close])
                let name = String(inside.prefix { $0 != ":" })
                guard known.contains(name) else {
                    throw Invalid(message: "unknown placeholder {\(name)}; known: "
                        + TemplateFormatter.placeholders.map { "{\($0.name)}" }.joined(separator: " "))
                }
                if !text.isEmpty { pieces.append(.text(text)) }
                text = ""
                if name.count < inside.count {
                    guard Template.times.contains(name) else {
                        throw Invalid(message: "{\(inside)}: only {start}, {end}, {due} and {recurrence_id} take a "
                            + "strftime format")
                    }
                    let format = String(inside.dropFirst(name.count + 1))
                    pieces.append(.time(name, try TimeFormat(format, placeholder: name)))
                } else {
                    pieces.append(.field(name))
                }
                chars = chars[chars.index(after: close)...]
            } else {
                text.append(c)
            }
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        self.pieces = pieces
    }
}
