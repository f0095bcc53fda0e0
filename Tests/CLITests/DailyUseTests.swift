import Foundation
import Testing

/// Issue 42, a day's use: days named as people name them, an impossible
/// date told why, a missing input told beside the others (which are still
/// printed), and `join` failing when there is nothing to join.
@Suite struct DailyUseTests {
    /// Saturday, 2025-03-01, 08:00 in Berlin.
    static let clock = ["--no-config", "--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin", "--format",
        "json"]

    /// The days of the agenda a `--from`/`--to` pair gives.
    static func days(_ extra: [String], locale: String = "en_US") throws -> [String] {
        let run = try CLI.run(clock + ["--locale", locale] + extra + ["Fixtures/sample.ics"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(extra): \(run)")
        let days = run.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["day"] as? String
        }
        return days.enumerated().filter { $0.offset == 0 || days[$0.offset - 1] != $0.element }.map(\.element)
    }

    @Test func weekdaysAndNextWeekNameDays() throws {
        // A weekday is the next one, today when today is one: Saturday is today.
        #expect(try DailyUseTests.days(["--from", "saturday", "--days", "1"]) == ["2025-03-01"])
        #expect(try DailyUseTests.days(["--from", "Monday", "--days", "1"]) == ["2025-03-03"])
        #expect(try DailyUseTests.days(["--from", "tue", "--to", "tue"]) == ["2025-03-04"])
        #expect(try DailyUseTests.days(["--from", "fri", "--days", "1"]) == ["2025-03-07"])
        // Next week starts on the locale's first weekday: Monday in Germany, Sunday in the US.
        let german = try DailyUseTests.days(["--from", "next week", "--days", "1"], locale: "de_DE")
        #expect(german == ["2025-03-03"], "\(german)")
        let american = try DailyUseTests.days(["--from", "next-week", "--days", "2"], locale: "en_US")
        #expect(american == ["2025-03-03"], "Sunday the 2nd is empty, Monday the 3rd has the standup: \(american)")
    }

    @Test(arguments: [
        ("2026-11-31", "November has 30 days"), ("2025-02-29", "February 2025 has 28 days"),
        ("2025-13-01", "a year has 12 months, not 13"), ("2025-04-00", "days are numbered from 1"),
    ])
    func anImpossibleDateSaysWhy(_ date: String, _ why: String) throws {
        for option in ["--from", "--to"] {
            let run = try CLI.run(DailyUseTests.clock + [option, date, "Fixtures/sample.ics"])
            #expect(run.status == 64 && run.stderr.hasPrefix("ics-agenda: \"\(date)\" is not a day: \(why)\n"),
                "\(option) \(date): \(run.stderr)")
        }
    }

    /// One moved file must not blank the cron mail: it is told, on one
    /// line, and the other inputs are printed; the status is 66. With
    /// `--strict`, nothing is printed.
    @Test func aMissingInputIsToldBesideTheOthers() throws {
        let text = ["--no-config", "--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin", "--locale", "en_US",
            "--days", "3"]
        let alone = try CLI.run(text + ["Fixtures/sample.ics"])
        for order in [["Fixtures/gone.ics", "Fixtures/sample.ics"],
            ["Fixtures/sample.ics", "Fixtures/gone.ics", "Fixtures/gone-folder/"]] {
            let run = try CLI.run(text + order)
            #expect(run.stdout == alone.stdout && !alone.stdout.isEmpty, "\(order): \(run.stdout)")
            #expect(run.status == 66, "\(order)")
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == order.count - 1 && lines.allSatisfy { $0.hasSuffix(": no such file or directory") },
                "\(run.stderr)")
        }
        let strict = try CLI.run(text + ["--strict", "Fixtures/gone.ics", "Fixtures/sample.ics"])
        #expect(strict.stdout.isEmpty && strict.status == 66, "\(strict)")
        // In the configuration, the same.
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-daily-config-\(getpid())")
        defer { try? FileManager.default.removeItem(at: config) }
        try "\(CLI.root.path)/Fixtures/gone.ics\n\(CLI.root.path)/Fixtures/sample.ics\n".write(to: config,
            atomically: true, encoding: .utf8)
        let configured = try CLI.run(Array(text.dropFirst()), environment: ["ICS_AGENDA_CONFIG": config.path])
        #expect(configured.stdout == alone.stdout && configured.status == 66
            && configured.stderr.hasSuffix("gone.ics: no such file or directory\n"),
            "\(configured)")
        // next and free too.
        let next = try CLI.run(["next", "--no-config", "--now", "2025-03-03T09:20:00+01:00", "--tz", "Europe/Berlin",
            "--locale", "en_US",
            "Fixtures/gone.ics", "Fixtures/sample.ics"])
        #expect(next.stdout == "in 10 min: Standup\n" && next.status == 66, "\(next)")
    }

    /// A configuration with options for one subcommand: before any
    /// section, for every subcommand that has them; in `[next]`, for next
    /// only. An option no subcommand has, or one its section's subcommand
    /// lacks, is a bad line naming its place.
    @Test func configurationSectionsHoldEachSubcommandsOptions() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-sections-\(getpid())")
        defer { try? FileManager.default.removeItem(at: config) }
        let clock = ["--now", "2025-03-03T08:00:00+01:00", "--tz", "Europe/Berlin", "--locale", "en_US"]
        func run(_ words: [String], _ text: String) throws -> CLI.Result {
            try text.write(to: config, atomically: true, encoding: .utf8)
            return try CLI.run(words + clock + ["Fixtures/sample.ics"], environment: ["ICS_AGENDA_CONFIG": config.path])
        }
        let text = "# every subcommand that has them\n--hours 09:00-12:00\n--within 2h\n--days 2\n[next]\n--count 2\n[free]\n--min 1h\n"
        let agenda = try run([], text)
        #expect(agenda.status == 0 && agenda.stderr.isEmpty
            && agenda.stdout.hasPrefix("Monday, March 3, 2025 (Today)\n"), "\(agenda)")
        #expect(!agenda.stdout.contains("March 5"), "--days 2 reached the agenda: \(agenda.stdout)")
        let next = try run(["next"], text)
        #expect(next.status == 0 && next.stdout == "today 9:30 AM: Standup\n", "--within 2h reached next: \(next)")
        let free = try run(["free"], text)
        #expect(free.status == 0
            && free.stdout == "Monday, March 3, 2025\n  9:45 AM - 12:00 PM (2 h 15 min)\n\nTuesday, March 4, 2025\n"
            + "  9:00 AM - 12:00 PM (3 h)\n", "--hours and --days 2 reached free: \(free)")
        // [free]'s --min is free's alone: the agenda and next, which lack it, do not fail on it.
        let short = try run(["free"], text.replacingOccurrences(of: "--min 1h", with: "--min 3h"))
        #expect(short.stdout == "Tuesday, March 4, 2025\n  9:00 AM - 12:00 PM (3 h)\n", "\(short)")
        // The command line wins over both.
        #expect(try run(["next", "--within", "10m"], text).stdout.isEmpty)
        for (bad, line, says) in [
            ("--days 1\n--bogus 3\n", 2, "Unknown option '--bogus'"),
                ("[next]\n--hours 09:00-17:00\n", 2, "Unknown option '--hours'"),
            ("[nope]\n--days 1\n", 1, "[nope] is no section"), ("--count 0\n", 1, "--count takes a whole number"),
                ("[free]\nFixtures/sample.ics\n", 2, "input paths go before any section"),
        ] {
            let refused = try run([], bad)
            #expect(refused.status == 64 && refused.stderr.hasPrefix("ics-agenda: \(config.path):\(line): ")
                && refused.stderr.contains(says),
                "\(bad): \(refused.stderr)")
        }
    }
}

/// `free` says why it printed nothing when no day asked for is a weekday
/// it looks at; `next` and `join` take `--template`; the usage names every
/// subcommand.
@Suite struct DailyUseMoreTests {
    @Test func freeSaysWhenEveryDayIsOutsideItsWeekdays() throws {
        // Saturday, 2025-03-01: tomorrow is a Sunday.
        let run = try CLI.run(["free", "--no-config", "--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin",
            "--locale", "en_US",
            "--from", "tomorrow", "--days", "1", "Fixtures/sample.ics"])
        #expect(run.stdout.isEmpty && run.status == 0)
        #expect(run.stderr == "ics-agenda: 2025-03-02 is outside --weekdays mon-fri: nothing to look at (--weekdays all takes every day)\n",
            "\(run.stderr)")
        let weekend = try CLI.run(["free", "--no-config", "--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin",
            "--locale", "en_US",
            "--days", "2", "--weekdays", "all", "Fixtures/sample.ics"])
        #expect(weekend.stderr.isEmpty && !weekend.stdout.isEmpty)
    }

    @Test func nextAndJoinTakeATemplate() throws {
        let clock = ["--no-config", "--now", "2025-03-03T09:20:00+01:00", "--tz", "Europe/Berlin", "--locale", "en_US"]
        let next = try CLI.run(["next"] + clock + ["--template", "{time}|{title}|{calendar}", "Fixtures/sample.ics"])
        #expect(next.stdout == "9:30 AM|Standup|Work\n", "\(next)")
        let join = try CLI.run(["join", "--no-config", "--now", "2025-03-03T08:50:00Z", "--template",
            "{title} <{meeting_url}>", "Fixtures/meetings"])
        #expect(join.status == 0 && join.stdout.hasSuffix(">\n")
            && join.stdout.contains("<https://teams.microsoft.com/"), "\(join)")
        let nothing = try CLI.run(["join", "--no-config", "--now", "2025-03-04T12:00:00Z", "--template", "{title}",
            "Fixtures/meetings"])
        #expect(nothing.status == 1 && nothing.stdout.isEmpty)
    }

    @Test func theUsageNamesEverySubcommand() throws {
        let help = try CLI.run(["--help"]).stdout
        for subcommand in ["next", "join", "alarms", "free", "calendars", "help"] {
            #expect(help.contains("ics-agenda \(subcommand) "), "\(subcommand) missing from the usage")
        }
    }
}
