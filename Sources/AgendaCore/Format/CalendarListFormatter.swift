/// One calendar in the `calendars` listing.
package struct CalendarSummary: Sendable {
    package let calendar: CalendarInfo
    package let events: Int
    package let reminders: Int
    /// A URL's calendar: how old the copy read is, in seconds (nil when
    /// its time is in the future: unknown).
    package let copyAge: Double?
    /// It was read from a copy (a URL's), whose age may be unknown.
    package let isCopy: Bool

    package init(calendar: CalendarInfo, events: Int, reminders: Int, copyAge: Double? = nil, isCopy: Bool? = nil) {
        self.calendar = calendar
        self.events = events
        self.reminders = reminders
        self.copyAge = copyAge
        self.isCopy = isCopy ?? (copyAge != nil)
    }
}

/// `ics-agenda calendars`: the calendars grouped by source (the folder that
/// holds them), the way reminder apps group lists by account.
package struct CalendarListFormatter: OutputFormatter, Sendable {
    package let style: TerminalStyle
    package let format: ListingFormat

    package init(style: TerminalStyle, format: ListingFormat) {
        self.style = style
        self.format = format
    }

    package func write(_ summaries: [CalendarSummary], to out: inout some ByteOutputStream) {
        switch format {
        case .text: writeText(summaries, to: &out)
        case .json: writeJSON(summaries, to: &out)
        }
    }

    /// Sources in order, calendars by name inside each.
    package static func grouped(_ summaries: [CalendarSummary]) -> [(source: String, calendars: [CalendarSummary])] {
        let bySource = Dictionary(grouping: summaries, by: \.calendar.source)
        return bySource.keys.sorted().map { source in
            (source, bySource[source]!.sorted {
                ($0.calendar.name, $0.calendar.path) < ($1.calendar.name, $1.calendar.path)
            })
        }
    }

    private func writeText(_ summaries: [CalendarSummary], to out: inout some ByteOutputStream) {
        let groups = CalendarListFormatter.grouped(summaries)
        let nameWidth = summaries.map { displayWidth($0.calendar.name) }.max() ?? 0
        let eventTexts = summaries.map { count($0.events, "event") }
        let eventWidth = eventTexts.map(\.count).max() ?? 0
        let reminderWidth = summaries.map { count($0.reminders, "reminder").count }.max() ?? 0
        for (index, group) in groups.enumerated() {
            if index > 0 { out.write("\n") }
            out.write(style.bold(group.source) + "\n")
            for summary in group.calendars {
                let name = summary.calendar.name
                let events = count(summary.events, "event")
                out.write("  \(name)\(spaces(nameWidth - displayWidth(name)))  " +
                    "\(events)\(spaces(eventWidth - events.count))  ")
                let place = summary.copyAge.map { "copy \(CalendarListFormatter.describe(age: $0)) old" }
                    ?? (summary.isCopy ? "copy of unknown age" : summary.calendar.path)
                let reminders = count(summary.reminders, "reminder")
                out.write("\(reminders)\(spaces(reminderWidth - reminders.count))  \(style.dim(place))\n")
            }
        }
    }

    private func writeJSON(_ summaries: [CalendarSummary], to out: inout some ByteOutputStream) {
        for group in CalendarListFormatter.grouped(summaries) {
            for s in group.calendars {
                let fields = [
                    ("calendar", JSONText.quote(s.calendar.name)), ("source", JSONText.quote(s.calendar.source)),
                    ("calendar_color", s.calendar.color.map(JSONText.quote) ?? "null"),
                    ("path", JSONText.quote(s.calendar.path)), ("events", String(s.events)),
                        ("reminders", String(s.reminders)),
                    ("copy_age_seconds", s.copyAge.map { String(Int($0)) } ?? "null"),
                ]
                out.write("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n")
            }
        }
    }

    /// `less than a minute`, `12 min`, `3 h`, `2 days`: how old a copy is.
    package static func describe(age: Double) -> String {
        let minutes = Int(age / 60)
        if minutes < 1 { return "less than a minute" }
        if minutes < 120 { return "\(minutes) min" }
        let hours = minutes / 60
        return hours < 48 ? "\(hours) h" : "\(hours / 24) days"
    }

    private func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
    private func spaces(_ n: Int) -> String { String(repeating: " ", count: max(n, 0)) }
}
