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
    /// starts, seen from the run, in `next`'s words.
    package func when(_ entry: AlarmSchedule.Entry) -> String {
        let minutes = minutesUntil(entry)
        if entry.occurrence.isAllDay {
            return wording.dayWords(wording.formats.clock.civilDate(of: entry.start)) ?? "today"
        }
        return minutes == 0 ? "now" : wording.starts(entry.start, inMinutes: minutes)
    }

    package func line(_ entry: AlarmSchedule.Entry) -> String {
        let title = UpcomingWording.marked(entry.occurrence)
        let place = entry.occurrence.location.flatMap { $0.isEmpty ? nil : " (" + RowWording.singleLine($0) + ")" } ?? ""
        return "\(wording.formats.shortTime(entry.time))  \(when(entry)): \(title)\(place)\(entry.late ? " (late)" : "")"
    }
}
