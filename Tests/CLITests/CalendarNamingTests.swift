import Foundation
import Testing

/// Issue 42, calendars as the user calls them: `--rename`, `--calendar` by
/// a vdir folder's name or in any case, and each calendar's colour from
/// `--calendar-color`, a vdir `color` file, `X-APPLE-CALENDAR-COLOR` or
/// RFC 7986 `COLOR`: in JSON (`calendar_color`), text on a colour terminal
/// and HTML; never when piped plain.
@Suite struct CalendarNamingTests {
    static let clock = ["--no-config", "--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin", "--locale",
        "en_US", "--days", "14"]

    static func rows(_ extra: [String], _ inputs: [String] = ["Fixtures/vdir"]) throws -> [[String: Any]] {
        let run = try CLI.run(clock + ["--format", "json", "-q"] + extra + inputs)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(extra): \(run.stderr)")
        return run.stdout.split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func calendars(_ rows: [[String: Any]]) -> Set<String> { Set(rows.compactMap { $0["calendar"] as? String }) }

    @Test func calendarMatchesANameThenAFolderThenEitherInAnyCase() throws {
        // The collection's displayname is "Work (synced)", its folder `work`.
        #expect(CalendarNamingTests.calendars(try CalendarNamingTests.rows(["--calendar",
            "work"])) == ["Work (synced)"])
        #expect(CalendarNamingTests.calendars(try CalendarNamingTests.rows(["--calendar",
            "WORK (SYNCED)"])) == ["Work (synced)"])
        #expect(CalendarNamingTests.calendars(try CalendarNamingTests.rows(["--calendar", "Family"])) == ["family"])
        // A name that is a calendar's wins over another's folder: no mixing.
        let exact = try CalendarNamingTests.rows(["--calendar", "family", "--calendar", "Holidays"])
        #expect(CalendarNamingTests.calendars(exact) == ["family", "Holidays"])
        let unknown = try CLI.run(CalendarNamingTests.clock + ["--calendar", "nope", "Fixtures/vdir"])
        #expect(unknown.stderr.contains("warning: --calendar \"nope\": no such calendar; the calendars are"),
            "\(unknown.stderr)")
    }

    @Test func renameNamesACalendarEverywhere() throws {
        let renamed = try CalendarNamingTests.rows(["--rename", "Work (synced)=Job", "--rename", "family=Home",
            "--calendar", "Job"])
        #expect(CalendarNamingTests.calendars(renamed) == ["Job"] && !renamed.isEmpty)
        // Each OLD names a calendar as read: two renames swap two names, not make one of both.
        let swapped = try CalendarNamingTests.rows(["--rename", "family=Holidays", "--rename", "Holidays=family"])
        #expect(CalendarNamingTests.calendars(swapped).isSuperset(of: ["family", "Holidays"]),
            "\(CalendarNamingTests.calendars(swapped))")
        let text = try CLI.run(CalendarNamingTests.clock + ["--rename", "work=Job", "--show-calendar", "-q",
            "Fixtures/vdir"])
        #expect(text.stdout.contains("[Job]") && !text.stdout.contains("[Work (synced)]"), "\(text.stdout)")
        let listed = try CLI.run(["calendars", "--no-config", "--rename", "Holidays=Public holidays", "-q",
            "Fixtures/vdir"])
        #expect(listed.stdout.contains("Public holidays") && !listed.stdout.contains("Holidays "), "\(listed.stdout)")
        for bad in [["--rename", "Work"], ["--rename", "=Job"], ["--calendar-color", "Work=blue-ish"],
            ["--calendar-color", "Work"]] {
            let refused = try CLI.run(CalendarNamingTests.clock + bad + ["Fixtures/vdir"])
            #expect(refused.status == 64 && refused.stderr.contains(bad[0]), "\(bad): \(refused.stderr)")
        }
    }

    @Test func eachCalendarHasItsColourInJSON() throws {
        let rows = try CalendarNamingTests.rows(["--calendar-color", "family=#FF8800"],
            ["Fixtures/vdir", "Fixtures/colors"])
        var colours: [String: String] = [:]
        for row in rows { colours[row["calendar"] as! String] = (row["calendar_color"] as? String) ?? "null" }
        #expect(colours == [
            "Work (synced)": "#3465a4",  // its vdir color file
            "family": "#ff8800",  // --calendar-color, lower case
            "Holidays": "null", "party": "null",
            "Gym": "#1badf8",  // X-APPLE-CALENDAR-COLOR, its alpha dropped, over COLOR
            "Choir": "#40e0d0",  // RFC 7986 COLOR, a CSS name; the event's own COLOR is not the calendar's
        ], "\(colours)")
        #expect(rows.allSatisfy { $0.keys.contains("calendar_color") })
        // --calendar-color wins over the file's own colour.
        let over = try CalendarNamingTests.rows(["--calendar-color", "Gym=#000000"], ["Fixtures/colors"])
        #expect(over.first { $0["calendar"] as? String == "Gym" }?["calendar_color"] as? String == "#000000")
        // --format ics keeps each calendar's colour, one calendar or several.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-colours-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for inputs in [["Fixtures/colors/apple.ics"], ["Fixtures/vdir", "Fixtures/colors"]] {
            let ics = try CLI.run(CalendarNamingTests.clock + ["--format", "ics", "-q"] + inputs)
            let file = dir.appendingPathComponent("back.ics")
            try ics.stdout.write(to: file, atomically: true, encoding: .utf8)
            let back = try CalendarNamingTests.rows([], [file.path])
                .map { "\($0["calendar"]!) \($0["calendar_color"]!)" }
            let direct = try CalendarNamingTests.rows([], inputs).map { "\($0["calendar"]!) \($0["calendar_color"]!)" }
            #expect(back == direct, "\(inputs)")
        }
    }

    @Test func coloursShowOnAColourTerminalAndInHTMLButNotWhenPlain() throws {
        let input = ["Fixtures/colors/apple.ics"]
        let plain = try CLI.run(CalendarNamingTests.clock + input)
        #expect(plain.stdout.contains("  Climbing\n") && !plain.stdout.contains("\u{1B}"))
        let palette = try CLI.run(CalendarNamingTests.clock + ["--color", "always"] + input)
        #expect(palette.stdout.contains("\u{1B}[38;5;39mClimbing\u{1B}[0m"),
            "the nearest of 256: \(plain.stdout.debugDescription)")
        let truecolor = try CLI.run(CalendarNamingTests.clock + ["--color", "always"] + input,
            environment: ["COLORTERM": "truecolor"])
        #expect(truecolor.stdout.contains("\u{1B}[38;2;27;173;248mClimbing\u{1B}[0m"),
            "\(truecolor.stdout.debugDescription)")
        let noColor = try CLI.run(CalendarNamingTests.clock + input,
            environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"])
        #expect(!noColor.stdout.contains("\u{1B}"))
        let html = try CLI.run(CalendarNamingTests.clock + ["--format", "html"] + input)
        #expect(html.stdout.contains("border-left:4px solid #1badf8"), "\(html.stdout)")
    }
}
