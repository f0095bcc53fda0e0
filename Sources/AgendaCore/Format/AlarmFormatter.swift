import Foundation

/// `ics-agenda alarms`' output: a line per alarm (text), or JSON Lines with
/// the agenda's keys and `alarm`, `action`, `minutes_until` and `late`.
///
/// Text: the alarm's time, then when the occurrence starts as `next` words
/// it, its title and its location: `9:50 AM  in 10 min: Standup (Room 4)`;
/// an alarm that rang while no run was made ends with `(late)`.
package struct AlarmFormatter: OutputFormatter {
    package enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    package let wording: UpcomingWording
    package let format: Format

    package init(formats: LocaleFormats, now: Date, format: Format) {
        wording = UpcomingWording(formats: formats, now: now)
        self.format = format
    }

    package func write(_ schedule: AlarmSchedule, to out: inout some ByteOutputStream) {
        switch format {
        case .text:
            for entry in schedule.entries { out.write(line(entry) + "\n") }
        case .json:
            let iso = ISOTime(clock: wording.formats.clock)
            JSONLinesFormatter(clock: wording.formats.clock).write(
                schedule.entries.map(\.row), occurrences: schedule.occurrences, overlaps: schedule.overlaps,
                extras: schedule.entries.map { entry in
                    ",\"alarm\":\"\(iso.string(instant: entry.time))\",\"action\":\(JSONText.quote(entry.alarm.action))"
                        + ",\"minutes_until\":\(minutesUntil(entry)),\"late\":\(entry.late)"
                }, to: &out)
        }
    }

    /// Whole minutes from the run to the occurrence's start, rounded up; 0 once it has begun.
    package func minutesUntil(_ entry: AlarmSchedule.Entry) -> Int {
        max(0, Int((entry.start.timeIntervalSince(wording.now) / 60).rounded(.up)))
    }

    /// `in 10 min`, `now`, `today 2:00 PM`, `tomorrow`: when the occurrence
    /// starts, seen from the run, in `next`'s words; `until Mon 31` for a
    /// day-long one under way, `ended Mar 24, 2025 11:00 AM` for one that is
    /// over (an alarm after it); a reminder as `pastReminder` words it.
    package func when(_ entry: AlarmSchedule.Entry) -> String {
        let formats = wording.formats
        if case .reminder = entry.occurrence.item, let past = pastReminder(entry.occurrence) { return past }
        if entry.end < wording.now {
            let allDay = entry.occurrence.isAllDay
            guard allDay else { return "ended " + wording.moment(entry.end) }
            return "ended " + wording.dayName(formats.clock.civilDate(of: entry.end > entry.start
                ? entry.end - 1 : entry.end))
        }
        let minutes = minutesUntil(entry)
        if entry.occurrence.isAllDay && entry.start <= wording.now {
            let last = formats.clock.civilDate(of: entry.end > entry.start ? entry.end - 1 : entry.end)
            return last == formats.clock.civilDate(of: wording.now) ? "today" : "until " + wording.dayName(last)
        }
        if entry.occurrence.isAllDay {
            return wording.dayWords(wording.formats.clock.civilDate(of: entry.start)) ?? "today"
        }
        return minutes == 0 ? "now" : wording.starts(entry.start, inMinutes: minutes)
    }

    /// A reminder is not over when its time has passed: `was due Mar 28,
    /// 2025 9:00 AM`, `since 9:00 AM` (DTSTART only), `due today` (a date
    /// still today), `due Apr 20, 2025` (begun, due later), `no date`; nil
    /// when it has not begun.
    func pastReminder(_ o: Occurrence) -> String? {
        let clock = wording.formats.clock
        guard let anchor = o.anchor else { return "no date" }
        let today = clock.civilDate(of: wording.now)
        func words(_ t: AgendaTime) -> String {
            t.isDate ? wording.dayName(t.wallDate) : wording.moment(t.instant(in: clock))
        }
        // A date is due all day long.
        let passed = anchor.isDate ? anchor.wallDate < today : anchor.instant(in: clock) < wording.now
        if passed { return (o.due != nil ? "was due " : "since ") + words(anchor) }
        guard let due = o.due, let start = o.start, start.start(in: clock) <= wording.now
        else { return anchor.isDate && anchor.wallDate == today ? "due today" : nil }
        return "due " + words(due)
    }

    package func line(_ entry: AlarmSchedule.Entry) -> String {
        let title = UpcomingWording.marked(entry.occurrence)
        let place = entry.occurrence.location.flatMap { $0.isEmpty ? nil : " (" + RowWording.singleLine($0) + ")" }
            ?? ""
        return "\(wording.moment(entry.time))  \(when(entry)): \(title)\(place)\(entry.late ? " (late)" : "")"
    }
}
