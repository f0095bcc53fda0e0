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
        try "--week-start monday\n[week]\n--hours 09:00-10:00\n[month]\n--months 2\n".write(to: config, atomically: true, encoding: .utf8)
        let environment = ["ICS_AGENDA_CONFIG": config.path, "COLUMNS": "80"]
        let week = try CLI.run(["week"] + GridCommandTests.fixed + ["Fixtures/grid/week.ics"], environment: environment)
        #expect(week.status == 0 && week.stderr.isEmpty, "\(week.stderr)")
        let lines = week.stdout.split(separator: "\n")
        #expect(lines.first?.contains("│Mon 24") == true)
        #expect(lines.contains { $0.hasPrefix("9:00 AM") } && !lines.contains { $0.hasPrefix("10:00 AM") || $0.contains("8:00 AM") })
        let month = try CLI.run(["month"] + GridCommandTests.fixed + ["Fixtures/grid/week.ics"], environment: environment)
        #expect(month.stdout.contains("March 2025") && month.stdout.contains("April 2025"))
        #expect(month.stdout.contains("│Mon       │Tue"))
        let agenda = try CLI.run(GridCommandTests.fixed + ["--days", "1", "Fixtures/grid/week.ics"], environment: environment)
        #expect(agenda.status == 0 && agenda.stdout.contains("Standup"), "\(agenda.stderr)")
    }

    /// The selection options choose the items as in the agenda.
    @Test func theAgendasSelectionChoosesTheItems() throws {
        let all = try CLI.run(["week"] + GridCommandTests.fixed + ["Fixtures/grid/week.ics", "Fixtures/sample.ics"], environment: ["COLUMNS": "200"])
        #expect(all.stdout.contains("Standup") && all.stdout.contains("Budget sync"))
        let chosen = try CLI.run(["week"] + GridCommandTests.fixed + ["--calendar", "week", "--no-reminders", "--me", "ana@example.com",
            "Fixtures/grid/week.ics", "Fixtures/sample.ics"], environment: ["COLUMNS": "200"])
        #expect(chosen.status == 0)
        #expect(chosen.stdout.contains("Standup") && !chosen.stdout.contains("Budget sync") && !chosen.stdout.contains("Send the slides"))
        let grep = try CLI.run(["month"] + GridCommandTests.fixed + ["--grep", "concert", "Fixtures/grid/week.ics"], environment: ["COLUMNS": "120"])
        #expect(grep.stdout.contains("Concert") && !grep.stdout.contains("Standup"))
    }

    /// At any width from the narrowest grid up, no line is wider than the
    /// terminal; below it, the agenda is printed with one line on stderr.
    @Test(arguments: ["week", "month"])
    func noLineIsWiderThanTheTerminal(_ command: String) throws {
        for columns in FullChecks.sample(Array(30...140), every: 7) {
            let run = try CLI.run([command] + GridCommandTests.fixed + ["Fixtures/grid/week.ics"], environment: ["COLUMNS": "\(columns)"])
            #expect(run.status == 0)
            if run.stderr.isEmpty {
                for line in run.stdout.split(separator: "\n") {
                    // Box drawing takes one column, the fixture's CJK and emoji two.
                    let width = line.unicodeScalars.reduce(0) { $0 + (($1.value >= 0x2E80 && $1.value <= 0xA4CF) || $1.value >= 0x1F300 ? 2 : 1) }
                    #expect(width <= columns, "\(command) at \(columns): \(line)")
                }
            } else {
                #expect(run.stderr.hasSuffix("the agenda is printed instead\n") && run.stderr.split(separator: "\n").count == 1)
                #expect(run.stdout.contains("Wednesday, March 26, 2025"))
            }
        }
    }
}
