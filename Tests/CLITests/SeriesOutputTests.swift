import Foundation
import Testing

/// `--format ics --series` (issue 42): each component with a listed
/// occurrence is written whole, as the input wrote it (RFC 5545 3.8.5:
/// RRULE, RDATE, EXDATE; 3.8.4.4: its RECURRENCE-ID overrides; 3.6.6: its
/// VALARMs; 3.6.5: the VTIMEZONEs it names), each UID once per calendar; read
/// back over the same window it prints the same agenda.
@Suite struct SeriesOutputTests {
    static let base = ["--no-config", "--tz", "Europe/Berlin", "--locale", "en_US", "--now",
        "2025-03-01T08:00:00+01:00"]
    static let work = "Fixtures/series/event_dt_rr_exdate_override.ics"
    static let home = "Fixtures/series/event_dt_rr_home.ics"

    static func series(_ arguments: [String]) throws -> CLI.Result {
        try CLI.run(base + ["--format", "ics", "--series"] + arguments)
    }

    static func count(_ text: String, _ line: String) -> Int {
        text.components(separatedBy: "\r\n").filter { $0 == line }.count
    }

    /// Lines of libical's output unfolded (RFC 5545 3.1), CRLF taken off.
    static func unfolded(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
    }

    @Test func twoCalendarsMergedKeepTheRuleTheExdateAndTheOverride() throws {
        let out = try SeriesOutputTests.series([SeriesOutputTests.work, SeriesOutputTests.home])
        #expect(out.status == 0, "\(out.stderr)")
        let lines = SeriesOutputTests.unfolded(out.stdout)
        #expect(lines.first == "BEGIN:VCALENDAR" && lines.contains("END:VCALENDAR"))
        #expect(lines.contains("RRULE:FREQ=WEEKLY;UNTIL=20250630T220000Z;BYDAY=MO,WE"))
        #expect(lines.contains("EXDATE;TZID=Europe/Berlin:20250305T093000"))
        #expect(lines.contains("RECURRENCE-ID;TZID=Europe/Berlin:20250310T093000"))
        #expect(lines.contains("X-CUSTOM-NOTE:kept as written"))
        #expect(lines.contains("RRULE:FREQ=WEEKLY;COUNT=10"))
        // Each component once, not once per instance (the instance output writes 35).
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 3)
        #expect(lines.filter { $0 == "UID:standup@example.com" }.count == 2)
        // An event with no occurrence in the window is not written.
        #expect(!out.stdout.contains("far-away@example.com"))
        // Two calendars: each component says its own.
        #expect(lines.contains("X-ICS-AGENDA-CALENDAR:Work") && lines.contains("X-ICS-AGENDA-CALENDAR:Home"))
    }

    @Test func alarmsAreKeptAsWritten() throws {
        let out = try SeriesOutputTests.series(["Fixtures/series/event_dt_rr_alarms.ics"])
        let lines = SeriesOutputTests.unfolded(out.stdout)
        #expect(lines.filter { $0 == "BEGIN:VALARM" }.count == 2)
        #expect(lines.contains("TRIGGER:-PT15M") && lines.contains("TRIGGER;RELATED=END:PT0S"))
        #expect(lines.contains("DESCRIPTION:Review in 15 minutes"))
        #expect(lines.contains("X-WR-CALNAME:Alarms"))
    }

    @Test func theTimeZoneIsWrittenOnceBeforeTheComponents() throws {
        let out = try SeriesOutputTests.series([SeriesOutputTests.work, SeriesOutputTests.work])
        let lines = SeriesOutputTests.unfolded(out.stdout)
        #expect(lines.filter { $0 == "BEGIN:VTIMEZONE" }.count == 1)
        #expect(lines.contains("TZID:Europe/Berlin"))
        let zone = try #require(lines.firstIndex(of: "BEGIN:VTIMEZONE")),
            event = try #require(lines.firstIndex(of: "BEGIN:VEVENT"))
        #expect(zone < event)
        // Without a zone named, none is written.
        let home = try SeriesOutputTests.series([SeriesOutputTests.home])
        #expect(!home.stdout.contains("BEGIN:VTIMEZONE"))
    }

    /// RFC 5545 3.8.4.7: one UID names one component; two calendars'
    /// series of one UID stay two series (`X-ICS-AGENDA-SCOPE`).
    @Test func aUIDSharedByTwoCalendarsStaysApart() throws {
        let inputs = ["Fixtures/series/event_dt_shared_uid_a.ics", "Fixtures/series/event_dt_shared_uid_b.ics"]
        let out = try SeriesOutputTests.series(inputs)
        let lines = SeriesOutputTests.unfolded(out.stdout)
        #expect(lines.filter { $0 == "UID:shared@example.com" }.count == 3)
        // B's master and its override carry B's scope; A's are written plain.
        #expect(lines.filter { $0 == "X-ICS-AGENDA-SCOPE:1" }.count == 2)
        try SeriesOutputTests.expectSameAgenda(inputs, window: [])
    }

    @Test func calendarFilteringKeepsOnlyThatCalendarsSeries() throws {
        let out = try SeriesOutputTests.series(["--calendar", "Work", SeriesOutputTests.work, SeriesOutputTests.home])
        #expect(out.status == 0)
        let lines = SeriesOutputTests.unfolded(out.stdout)
        #expect(lines.contains("UID:standup@example.com") && !lines.contains("UID:gym@example.com"))
        #expect(lines.contains("X-WR-CALNAME:Work") && !lines.contains { $0.hasPrefix("X-ICS-AGENDA-CALENDAR") })
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 2)
    }

    @Test func anAllDaySeriesKeepsItsDates() throws {
        let out = try SeriesOutputTests.series(["Fixtures/series/event_d_rr_monthly.ics"])
        let lines = SeriesOutputTests.unfolded(out.stdout)
        #expect(lines.contains("DTSTART;VALUE=DATE:20250301"))
        #expect(lines.contains("RRULE:FREQ=MONTHLY;BYMONTHDAY=1"))
        #expect(lines.contains("EXDATE;VALUE=DATE:20250501"))
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 1)
    }

    static let windows: [[String]] = [
        [],
        ["--from", "2025-03-01", "--to", "2025-03-31"],
        ["--from", "2025-03-09", "--to", "2025-03-12"],
        ["--from", "2025-03-24", "--to", "2025-04-02"],
        ["--from", "2025-10-20", "--to", "2025-11-05"],
    ]

    /// The JSON of the `--series` output read back over the same window is the JSON of the inputs (but `source`).
    static func expectSameAgenda(_ inputs: [String], window: [String]) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-series-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let options = base + window + ["--show-cancelled", "--completed"]
        let direct = try CLI.run(options + ["--format", "json"] + inputs)
        let ics = try CLI.run(options + ["--format", "ics", "--series"] + inputs)
        #expect(ics.status == 0)
        // Nothing listed: nothing written (an empty agenda prints nothing in any format).
        guard !direct.stdout.isEmpty else {
            #expect(ics.stdout.isEmpty)
            return
        }
        let file = dir.appendingPathComponent("out.ics")
        try ics.stdout.write(to: file, atomically: true, encoding: .utf8)
        let back = try CLI.run(options + ["--format", "json", file.path])
        #expect(back.stderr.isEmpty, "\(inputs) \(window): \(back.stderr)")
        #expect(RoundTripTests.withoutSource(back.stdout) == RoundTripTests.withoutSource(direct.stdout),
            "\(inputs) \(window)")
    }

    @Test(arguments: [
        [work, home],
        ["Fixtures/series/event_dt_rr_alarms.ics", "Fixtures/series/event_d_rr_monthly.ics"],
        ["Fixtures/series/event_dt_shared_uid_a.ics", "Fixtures/series/event_dt_shared_uid_b.ics", work],
        ["Fixtures/event_dt_rr_recuid.ics", "Fixtures/event_dt_thisandfuture.ics", "Fixtures/todo_due.ics"],
        ["Fixtures/sample.ics", "Fixtures/event_dt_simple.ics", "Fixtures/sample.ics"],
        ["Fixtures/event_dt_dst.ics", "Fixtures/event_dt_fall_back_hour.ics", "Fixtures/event_dt_shared_uid.ics"],
        // Floating times read in the calendar's X-WR-TIMEZONE, merged with a calendar that has none.
        ["Fixtures/event_dt_x_wr_timezone.ics", "Fixtures/real_google_export.ics", home],
        // UTC series kept on the wall clock of X-WR-TIMEZONE (Google's exports): the header says it again.
        ["Fixtures/event_dt_x_wr_timezone_utc.ics"],
    ])
    func theRoundTripHoldsOverSeveralWindows(_ inputs: [String]) throws {
        for window in SeriesOutputTests.windows { try SeriesOutputTests.expectSameAgenda(inputs, window: window) }
    }

    /// Reading the output again and writing it again gives the same text: nothing of ours piles up.
    @Test func writingTheOutputAgainGivesTheSameText() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-series-again-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try SeriesOutputTests.series(["Fixtures/series/event_dt_shared_uid_a.ics",
            "Fixtures/series/event_dt_shared_uid_b.ics",
            SeriesOutputTests.work])
        let file = dir.appendingPathComponent("out.ics")
        try first.stdout.write(to: file, atomically: true, encoding: .utf8)
        let second = try SeriesOutputTests.series([file.path])
        #expect(second.stdout == first.stdout)
    }

    @Test(arguments: [[String](), ["--format", "json"], ["--format", "ics", "--template", "{title}"]])
    func seriesWithoutFormatICSIsAUsageError(_ options: [String]) throws {
        let out = try CLI.run(SeriesOutputTests.base + options + ["--series", SeriesOutputTests.work])
        #expect(out.status == 64)
        #expect(out.stderr.contains("--series needs --format ics"), "\(out.stderr)")
        #expect(out.stdout.isEmpty)
    }
}
