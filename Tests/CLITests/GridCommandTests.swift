import Foundation
import Testing

/// `week` and `month` as a user runs them: configured per section, with
/// the agenda's selection, and in every width without a line too long.
@Suite struct GridCommandTests {
    static let fixed = ["--now", "2025-03-26T10:20:00+01:00", "--tz", "Europe/Berlin", "--locale", "en_US"]

    /// `[week]` and `[month]` hold their own options, a line before any
    /// section reaches every subcommand that takes it, and the agenda,
    /// which has no --week-start, runs as before.
    @Test func theConfigurationHasSectionsForTheGrids() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-grid-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        try "--week-start monday\n[week]\n--hours 09:00-10:00\n[month]\n--months 2\n".write(to: config,
            atomically: true, encoding: .utf8)
        let environment = ["ICS_AGENDA_CONFIG": config.path, "COLUMNS": "80"]
        let week = try CLI.run(["week"] + GridCommandTests.fixed + ["Fixtures/grid/week.ics"], environment: environment)
        #expect(week.status == 0 && week.stderr.isEmpty, "\(week.stderr)")
        let lines = week.stdout.split(separator: "\n")
        #expect(lines.count > 1 && lines[1].contains("│Mon 24"), "the title, then the days")
        #expect(lines.contains { $0.hasPrefix("9:00 AM") } && !lines.contains { $0.hasPrefix("10:00 AM")
            || $0.contains("8:00 AM") })
        let month = try CLI.run(["month"] + GridCommandTests.fixed + ["Fixtures/grid/week.ics"],
            environment: environment)
        #expect(month.stdout.contains("March 2025") && month.stdout.contains("April 2025"))
        #expect(month.stdout.contains("│Mon       │Tue"))
        let agenda = try CLI.run(GridCommandTests.fixed + ["--days", "1", "Fixtures/grid/week.ics"],
            environment: environment)
        #expect(agenda.status == 0 && agenda.stdout.contains("Standup"), "\(agenda.stderr)")
    }

    /// The selection options choose the items as in the agenda.
    @Test func theAgendasSelectionChoosesTheItems() throws {
        let all = try CLI.run(["week"] + GridCommandTests.fixed + ["Fixtures/grid/week.ics", "Fixtures/sample.ics"],
            environment: ["COLUMNS": "200"])
        #expect(all.stdout.contains("Standup") && all.stdout.contains("Budget sync"))
        let chosen = try CLI.run(["week"] + GridCommandTests.fixed
            + ["--calendar", "week", "--no-reminders", "--me", "ana@example.com",
            "Fixtures/grid/week.ics", "Fixtures/sample.ics"], environment: ["COLUMNS": "200"])
        #expect(chosen.status == 0)
        #expect(chosen.stdout.contains("Standup") && !chosen.stdout.contains("Budget sync")
            && !chosen.stdout.contains("Send the slides"))
        let grep = try CLI.run(["month"] + GridCommandTests.fixed + ["--grep", "concert", "Fixtures/grid/week.ics"],
            environment: ["COLUMNS": "120"])
        #expect(grep.stdout.contains("Concert") && !grep.stdout.contains("Standup"))
    }

    /// At any width from the narrowest grid up, no line is wider than the
    /// terminal; below it, the agenda is printed with one line on stderr.
    @Test(arguments: ["week", "month"])
    func noLineIsWiderThanTheTerminal(_ command: String) throws {
        for columns in FullChecks.sample(Array(30...140), every: 7) {
            let run = try CLI.run([command] + GridCommandTests.fixed + ["Fixtures/grid/week.ics"],
                environment: ["COLUMNS": "\(columns)"])
            #expect(run.status == 0)
            if run.stderr.isEmpty {
                for line in run.stdout.split(separator: "\n") {
                    // Box drawing takes one column, the fixture's CJK and emoji two.
                    let width = line.unicodeScalars.reduce(0) { $0 + (($1.value >= 0x2E80 && $1.value <= 0xA4CF)
                        || $1.value >= 0x1F300 ? 2 : 1) }
                    #expect(width <= columns, "\(command) at \(columns): \(line)")
                }
            } else {
                #expect(run.stderr.hasSuffix("the agenda is printed instead\n") && run.stderr.split(separator: "\n")
                    .count == 1)
                #expect(run.stdout.contains("Wednesday, March 26, 2025"))
            }
        }
    }

    /// What the hostile review found, each a class: a title's tab or line
    /// separator is a blank (a cell is one line of known width); what says
    /// an item does not count as usual comes first, where no cut takes it;
    /// `--show-calendar` names the calendar; a band of many all-day items
    /// is cut to its lanes and counts the rest.
    @Test func cellsKeepTheirWidthAndWhatMatters() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-grid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func event(_ uid: String, _ start: String, _ lines: String) -> String {
            "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:\(start)\r\n\(lines)END:VEVENT\r\n"
        }
        var body = event("tab", "20250326T090000Z", "DURATION:PT1H\r\nSUMMARY:A\tB\tC\tD\u{2028}E\r\n")
        body += event("gone", "20250327T090000Z",
            "DURATION:PT1H\r\nSTATUS:CANCELLED\r\nSUMMARY:A very long title that a cell cuts\r\n")
        for i in 0..<24 { body += event("day\(i)", "2025032\(4 + i % 3)", "SUMMARY:All day \(i)\r\n")
            .replacingOccurrences(of: "DTSTART:", with: "DTSTART;VALUE=DATE:") }
        let file = folder.appendingPathComponent("cells.ics")
        try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\nX-WR-CALNAME:Cells\r\n" + body
            + "END:VCALENDAR\r\n").write(to: file, atomically: true, encoding: .utf8)
        let run = try CLI.run(["week"] + GridCommandTests.fixed
            + ["--show-cancelled", "--show-calendar", "--week-start", "monday", file.path],
            environment: ["COLUMNS": "200"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(!run.stdout.contains("\t") && !run.stdout.contains("\u{2028}"))
        #expect(run.stdout.contains("A B C D E [Cells]"), "\(run.stdout)")
        #expect(run.stdout.contains("▎(x) A very"), "the cancelled mark before the cut: \(run.stdout)")
        let lines = run.stdout.split(separator: "\n")
        // Six lanes of the band at most: five drawn and one line of counts.
        #expect(lines.contains { $0.contains("│+") }, "\(run.stdout)")
        #expect(lines.filter { $0.contains("All day") }.count == 5, "\(run.stdout)")
    }

    /// A page in a language written from the right says so (`dir="rtl"`),
    /// the agenda's as the grids'; one from the left does not.
    @Test(arguments: [("ar_EG", true), ("he_IL", true), ("fa_IR", true), ("de_DE", false), ("ja_JP", false)])
    func anHTMLPageKnowsItsDirection(_ locale: String, _ rightToLeft: Bool) throws {
        for command in [["week"], ["month"], []] {
            let run = try CLI.run(command + GridCommandTests.fixed.dropLast(2)
                + ["--locale", locale, "--format", "html", "Fixtures/grid/week.ics"])
            #expect(run.status == 0)
            #expect(run.stdout.contains(" dir=\"rtl\">") == rightToLeft, "\(command) \(locale)")
        }
    }
}
