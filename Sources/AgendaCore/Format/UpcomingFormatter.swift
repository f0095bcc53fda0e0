import Foundation

/// `ics-agenda next`'s output: a line per entry (text), JSON Lines with the
/// agenda's keys and `minutes_until` (json), or Waybar's one object (waybar).
package struct UpcomingFormatter: OutputFormatter {
    package enum Format: String, Sendable, CaseIterable {
        case text, json, waybar
    }

    package let wording: UpcomingWording
    package let format: Format

    package init(formats: LocaleFormats, now: Date, format: Format) {
        wording = UpcomingWording(formats: formats, now: now)
        self.format = format
    }

    package func write(_ upcoming: Upcoming, to out: inout some ByteOutputStream) {
        switch format {
        case .text:
            for entry in upcoming.entries { out.write(wording.line(entry) + "\n") }
        case .json:
            JSONLinesFormatter(clock: wording.formats.clock).write(
                upcoming.entries.map(\.row), occurrences: upcoming.occurrences, overlaps: upcoming.overlaps,
                extras: upcoming.entries.map { ",\"minutes_until\":\($0.minutesUntil)" }, to: &out)
        case .waybar:
            out.write(wording.waybar(upcoming.entries))
        }
    }
}

/// The words of `next`: `now: Standup (until 10:00 AM)`, `in 25 min: Standup`,
/// `today 2:00 PM: Review`, `tomorrow 9:00 AM: Review`, `Wed 5 9:00 AM: Review`,
/// times and dates in the locale's styles.
package struct UpcomingWording {
    package let formats: LocaleFormats
    package let now: Date

    package init(formats: LocaleFormats, now: Date) {
        self.formats = formats
        self.now = now
    }

    /// `tomorrow`, `Wed 5`, `Mar 14, 2025`: a later day as `next` names it
    /// (nil for today).
    func dayWords(_ day: CivilDate) -> String? {
        let today = formats.clock.civilDate(of: now)
        let ahead = day.daysSinceEpoch - today.daysSinceEpoch
        switch ahead {
        case ...0: return nil
        case 1: return "tomorrow"
        case 2...6: return formats.weekdayAndDay(day)
        default: return formats.mediumDate(day)
        }
    }

    /// A day by name: `today`, `tomorrow`, `Wed 5`, else its date (an earlier day too).
    func dayName(_ day: CivilDate) -> String {
        day == formats.clock.civilDate(of: now) ? "today" : dayWords(day) ?? formats.mediumDate(day)
    }

    /// A time, with its day when that is not today (`dayName`).
    func moment(_ instant: Date) -> String {
        let time = formats.shortTime(instant), day = formats.clock.civilDate(of: instant)
        return day == formats.clock.civilDate(of: now) ? time : dayName(day) + " " + time
    }

    package func line(_ entry: Upcoming.Entry) -> String {
        let clock = formats.clock
        let title = UpcomingWording.marked(entry.occurrence)
        if entry.isAllDay {
            if entry.isNow {
                let last = clock.civilDate(of: entry.end - 1)
                return last == clock.civilDate(of: now) ? "today: \(title)" : "now: \(title) (until " +
                    "\(dayWords(last) ?? formats.mediumDate(last)))"
            }
            return "\(dayWords(clock.civilDate(of: entry.start)) ?? "today"): \(title)"
        }
        if entry.isNow {
            return entry.end > entry.start ? "now: \(title) (until \(moment(entry.end)))" : "now: \(title)"
        }
        return "\(starts(entry.start, inMinutes: entry.minutesUntil)): \(title)"
    }

    /// When a timed occurrence that has not begun starts: `in 25 min`
    /// within the hour, else `today 2:00 PM`, `tomorrow 9:00 AM`, `Wed 5 9:00 AM`.
    func starts(_ start: Date, inMinutes minutes: Int) -> String {
        if minutes < 60 { return "in \(minutes) min" }
        return "\(dayWords(formats.clock.civilDate(of: start)) ?? "today") \(formats.shortTime(start))"
    }

    /// The title with the agenda's marks of my answer (`--me`): `?` not accepted, `(declined)`.
    static func marked(_ o: Occurrence) -> String {
        let title = Overlaps.oneLine(o)
        guard case .event(let e) = o.item else { return title }
        return e.isDeclined ? title + " (declined)" : e.isUnconfirmed ? title + " ?" : title
    }

    /// Waybar's custom module (`return-type: json`): the first line as
    /// `text`, every line as `tooltip` (each meeting's link on the line
    /// after it), and `class` `now`, `soon` (starts within 15 minutes) or `later`.
    package func waybar(_ entries: [Upcoming.Entry]) -> String {
        guard let first = entries.first else { return "" }
        let kind = first.isNow ? "now" : first.minutesUntil <= 15 ? "soon" : "later"
        let tooltip = entries.map { entry in
            line(entry) + (entry.occurrence.meetingURL.map { "\n  " + PrintableText.escaped($0) } ?? "")
        }.joined(separator: "\n")
        let text = JSONText.quote(line(first))
        return "{\"text\":\(text),\"tooltip\":\(JSONText.quote(tooltip)),\"class\":\"\(kind)\"}\n"
    }
}
