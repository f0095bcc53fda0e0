import Foundation
import Testing

/// The fourth hostile round, on the command line: an address holding a
/// secret given where it does not belong is never printed whole, options
/// written before a subcommand are its own, and an `alarms` state that is
/// not a file holds no run.
@Suite struct HostileRound4CommandTests {
    /// The parts of an address that are secret: its password, its path's
    /// token and its query. None may reach any message.
    static let secrets = ["pa55w0rd", "S3CRET", "T0KEN"]

    /// Addresses of every shape a secret comes in, a typo'd scheme and no scheme among them.
    static let addresses = [
        "https://ana:pa55w0rd@calendar.example.com/private-S3CRET/basic.ics?token=T0KEN",
        "htps://ana:pa55w0rd@calendar.example.com/private-S3CRET/basic.ics",
        "webcal://calendar.example.com/S3CRET/T0KEN/basic.ics?pa55w0rd",
        "dav://ana:pa55w0rd@dav.example.com/S3CRET/calendars/",
        "ana:pa55w0rd@calendar.example.com/S3CRET/basic.ics",
        // Blanks inside: a message may quote the value whole.
        "webcal://calendar.example.com/S3CRET/a b/x.ics?T0KEN",
        "https://calendar.example.com/pa55w0rd/x.ics?a=1 T0KEN S3CRET",
    ]

    /// The addresses given to every option: the first two and those with blanks.
    static let given = Array(addresses.prefix(2) + addresses.suffix(2))

    static func leaked(_ text: String) -> [String] { secrets.filter { text.contains($0) } }

    /// The options of each subcommand that take a value, given an address
    /// by mistake: whatever the error or warning, no secret in it.
    static let optionsBySubcommand: [(words: [String], options: [String])] = [
        ([], ["--days", "--from", "--to", "--tz", "--now", "--locale", "--format", "--group-by", "--color", "--refresh",
            "--calendar", "--me", "--grep",
            "--rename", "--calendar-color"]),
        (["next"], ["--within", "--count", "--format", "--now", "--tz", "--calendar"]),
        (["join"], ["--within", "--now", "--tz"]),
        (["free"], ["--hours", "--weekdays", "--min", "--days", "--from"]),
        (["alarms"], ["--since", "--catch-up", "--default", "--now"]),
        (["calendars"], ["--format", "--refresh"]),
    ]

    @Test(arguments: optionsBySubcommand.indices)
    func anAddressGivenAsAnOptionsValueIsNeverPrintedWhole(_ index: Int) throws {
        let (words, options) = HostileRound4CommandTests.optionsBySubcommand[index]
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-r4-state-\(getpid())-\(index)")
        // Every option, address and form with the full checks; otherwise
        // each option with a third of the pairs of address and form, in turn.
        let shapes = HostileRound4CommandTests.given.flatMap { address in (0..<3).map { (address, $0) } }
        for (number, option) in options.enumerated() {
            for (address, form) in FullChecks.sample(shapes, every: 3, seed: number + index) {
                let arguments = [[option, address], ["\(option)=\(address)"], [option, "Work=" + address]][form]
                var line = words + ["--no-config"] + arguments
                if words == ["alarms"], option != "--state" { line += ["--state", state.path] }
                let run = try CLI.run(line + ["--now", "2025-03-01T08:00:00+01:00",
                    "Fixtures/sample.ics"].suffix(option == "--now" ? 1 : 3))
                #expect(HostileRound4CommandTests.leaked(run.stderr).isEmpty, "\(line): \(run.stderr)")
            }
        }
    }

    /// Read as a file name (a scheme with a typo, none at all), on the
    /// command line and in the configuration: the error names the input
    /// as a URL is named, and every other input is still printed.
    @Test func anAddressReadAsAFileNameIsRedacted() throws {
        for address in HostileRound4CommandTests.addresses.dropFirst() {
            for words in [["--now", "2025-03-01T08:00:00+01:00"], ["next", "--within", "3d"], ["calendars"]] {
                let run = try CLI.run(words + ["--no-config", address])
                #expect(run.status != 0 && !run.stderr.isEmpty, "\(words) \(address): \(run)")
                #expect(HostileRound4CommandTests.leaked(run.stderr).isEmpty, "\(words) \(address): \(run.stderr)")
            }
        }
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-r4-config-\(getpid())")
        defer { try? FileManager.default.removeItem(at: config) }
        for line in ["--days \(HostileRound4CommandTests.addresses[0])", HostileRound4CommandTests.addresses[1],
            "--tz=\(HostileRound4CommandTests.addresses[4])"] {
            try (line + "\n").write(to: config, atomically: true, encoding: .utf8)
            let run = try CLI.run(["--now", "2025-03-01T08:00:00+01:00"],
                environment: ["ICS_AGENDA_CONFIG": config.path])
            #expect(!run.stderr.isEmpty && HostileRound4CommandTests.leaked(run.stderr).isEmpty,
                "\(line): \(run.stderr)")
        }
    }

    /// What is redacted still says where: the scheme, the host and the
    /// last segment, so that the user can tell which address was meant.
    @Test func theRedactedAddressStillNamesItsHostAndFile() throws {
        let run = try CLI.run(["--no-config", "--days", HostileRound4CommandTests.addresses[0], "Fixtures/sample.ics"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("https://calendar.example.com/…/basic.ics"), "\(run.stderr)")
        let typo = try CLI.run(["--no-config", HostileRound4CommandTests.addresses[1]])
        #expect(typo.stderr.contains("htps://calendar.example.com/…/basic.ics"), "\(typo.stderr)")
    }

    /// `ics-agenda -v next` is `ics-agenda next -v`: the options before the
    /// subcommand are its own, and a word that is an option's value, or
    /// that follows an input, is still what it was.
    @Test func optionsBeforeASubcommandAreTheSubcommands() throws {
        let clock = ["--now", "2025-03-03T09:00:00+01:00", "--tz", "Europe/Berlin", "--locale", "en_US"]
        let after = try CLI.run(["next"] + clock + ["-v", "--no-config", "Fixtures/sample.ics"])
        for before in [["-v", "next"], ["--no-config", "-v", "next"], ["--tz", "Europe/Berlin", "next"],
            ["--now=2025-03-03T09:00:00+01:00", "next"]] {
            let run = try CLI.run(before + clock + ["--no-config", "Fixtures/sample.ics"])
            #expect(run.stdout == after.stdout && run.status == 0 && run.stderr.isEmpty, "\(before): \(run)")
        }
        #expect(after.stdout == "in 30 min: Standup\n", "\(after.stdout)")
        let calendars = try CLI.run(["--no-config", "calendars", "Fixtures/sample.ics"])
        #expect(calendars.status == 0 && calendars.stdout.contains("sample"), "\(calendars)")
        // An option the subcommand does not have is refused in its words.
        let refused = try CLI.run(["--group-by", "week", "next", "Fixtures/sample.ics"])
        #expect(refused.status == 64 && refused.stderr.contains("--group-by"), "\(refused)")
        // `--calendar next`: a value; after an input: a file.
        let value = try CLI.run(["--no-config", "--calendar", "next"] + clock + ["Fixtures/sample.ics"])
        #expect(value.status == 0 && value.stderr.contains("--calendar \"next\": no such calendar"), "\(value)")
        let file = try CLI.run(["--no-config"] + clock + ["Fixtures/sample.ics", "next"])
        #expect(file.status == 66 && file.stderr.contains("next"), "\(file)")
        // `help` after options is help (it takes none): the subcommand's, not two files.
        let help = try CLI.run(["-v", "--no-config", "help", "next"])
        let plain = try CLI.run(["help", "next"])
        #expect(help.status == 0 && help.stderr.isEmpty && help.stdout == plain.stdout
            && help.stdout.contains("--within"), "\(help)")
    }

    /// A day in a TRIGGER is a day on the clock of the time it counts
    /// from (RFC 5545 3.3.6): New York's across New York's change of
    /// clocks, whatever the display zone; exactly 24 hours for a UTC time;
    /// the display zone's only for a floating time.
    @Test(arguments: [
        ("Europe/Berlin", [
            "New York, a day before its end 2025-03-08T14:00:00+01:00",
                "New York, a day before 2025-03-08T15:00:00+01:00",
            "UTC, a day before 2025-03-08T19:00:00+01:00", "Floating, a day before 2025-03-29T12:00:00+01:00",
        ]),
        ("America/New_York", [
            "New York, a day before its end 2025-03-08T08:00:00-05:00",
                "New York, a day before 2025-03-08T09:00:00-05:00",
            "UTC, a day before 2025-03-08T13:00:00-05:00", "Floating, a day before 2025-03-29T12:00:00-04:00",
        ]),
    ])
    func aTriggersDaysCountOnTheClockOfTheTimeTheyCountFrom(_ zone: String, _ expected: [String]) throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-r4-days-\(getpid())-\(zone.count)")
        defer { try? FileManager.default.removeItem(at: state) }
        let run = try CLI.run(["alarms", "--no-config", "--state", state.path, "--tz", zone, "--format", "json",
            "--since", "2025-03-07T00:00:00Z", "--now", "2025-03-31T00:00:00Z",
                "Fixtures/alarms/day_in_event_zone.ics"])
        let rows = run.stdout.split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let rung = rows.map { "\($0["title"] as? String ?? "?") \($0["alarm"] as? String ?? "?")" }
        #expect(rung == expected && run.status == 0 && run.stderr.isEmpty, "\(run)")
    }

    /// Zones named the Outlook way (a Windows name with its VTIMEZONE), with
    /// a vendor's prefix, or by their display name count days on the same
    /// New York clock as its IANA name does.
    @Test func triggerDaysCountOnZonesOfEveryName() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-r4-named-\(getpid())")
        defer { try? FileManager.default.removeItem(at: state) }
        let run = try CLI.run(["alarms", "--no-config", "-q", "--state", state.path, "--tz", "Europe/Berlin",
            "--format", "json",
            "--since", "2025-03-07T00:00:00Z", "--now", "2025-03-10T00:00:00Z",
                "Fixtures/alarms/day_in_named_zones.ics"])
        let rows = run.stdout.split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(rows.count == 3 && rows.allSatisfy { $0["alarm"] as? String == "2025-03-08T15:00:00+01:00" },
            "\(rows.map { "\($0["title"]!) \($0["alarm"]!)" })")
    }

    /// `REPEAT:1000000000` rings at most a hundred times, and says so
    /// when the first rings, not in silence.
    @Test func aRepeatCountCutToAHundredIsTold() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-r4-repeat-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["alarms", "--no-config", "--state", folder.appendingPathComponent("alarms").path, "--tz",
            "UTC",
            "--since", "2025-03-03T08:59:00Z", "--now", "2025-03-03T09:00:30Z", "Fixtures/alarms/repeat_billion.ics"])
        #expect(run.stdout.split(separator: "\n").count == 1 && run.status == 0, "\(run)")
        #expect(run.stderr == "ics-agenda: warning: Fixtures/alarms/repeat_billion.ics: alarm of \"Kettle\": REPEAT:1000000000 is more than "
            + "100 repeats; 100 ring\n", "\(run.stderr)")
        let later = try CLI.run(["alarms", "--no-config", "--state", folder.appendingPathComponent("alarms").path,
            "--tz", "UTC",
            "--now", "2025-03-03T09:01:30Z", "Fixtures/alarms/repeat_billion.ics"])
        #expect(later.stdout.split(separator: "\n").count == 1 && later.stderr.isEmpty,
            "told once, when the first rings: \(later)")
    }

    /// A REPEAT that is no number of repeats, and one without the DURATION
    /// between them (RFC 5545 3.6.6 asks for both or neither): the alarm
    /// rings once, and the run that rings it says why, once each.
    @Test func aRepeatThatCannotRepeatIsToldAndRingsOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-r4-repeat-bad-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["alarms", "--no-config", "--state", folder.appendingPathComponent("alarms").path, "--tz",
            "UTC"]
        let run = try CLI.run(arguments + ["--since", "2025-03-03T08:59:00Z", "--now", "2025-03-03T09:00:30Z",
            "Fixtures/alarms/repeat_unreadable.ics"])
        #expect(run.status == 0 && run.stdout.split(separator: "\n").count == 2, "\(run)")
        // In the order they ring (at one time, by title).
        #expect(run.stderr == "ics-agenda: warning: Fixtures/alarms/repeat_unreadable.ics: alarm of \"Oven\": REPEAT:2 has no DURATION between "
            + "the repeats; it rings once\nics-agenda: warning: Fixtures/alarms/repeat_unreadable.ics: alarm of \"Tea\": REPEAT:-5 is not a number "
            + "of repeats; it rings once\n", "\(run.stderr)")
        let later = try CLI.run(arguments + ["--now", "2025-03-03T09:10:00Z", "Fixtures/alarms/repeat_unreadable.ics"])
        #expect(later.stdout.isEmpty && later.stderr.isEmpty, "rings once, told once: \(later)")
    }

    /// An input missing for one `alarms` run loses none of its alarms: the
    /// run ends (66) before anything rings or its time is kept, and the
    /// next run that reads it rings what went off meanwhile, once.
    @Test func anInputMissingForOneAlarmsRunLosesNoAlarm() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-r4-missing-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("a.ics")
        try FileManager.default.copyItem(atPath: CLI.root.appendingPathComponent("Fixtures/alarms/alarms.ics").path,
            toPath: input.path)
        func run(_ now: String) throws -> CLI.Result {
            try CLI.run(["alarms", "--no-config", "--state", folder.appendingPathComponent("state").path, "--tz", "UTC",
                "--now", now,
                input.path, "Fixtures/sample.ics"])
        }
        #expect(try run("2025-03-28T07:40:00Z").stdout.isEmpty)
        try FileManager.default.moveItem(at: input, to: folder.appendingPathComponent("away.ics"))
        let missing = try run("2025-03-28T07:55:00Z")
        #expect(missing.status == 66 && missing.stdout.isEmpty, "\(missing)")
        try FileManager.default.moveItem(at: folder.appendingPathComponent("away.ics"), to: input)
        let back = try run("2025-03-28T08:00:00Z")
        #expect(back.stdout.contains("Standup"), "the 07:50 alarm rings once its input is back: \(back)")
    }

    /// A FIFO (or another special file) where the `alarms` state belongs:
    /// read, it would wait for a writer while the run holds the lock, and
    /// every later cron run would queue behind it. It is told once and read
    /// as the first run; the run's time is then kept in a file.
    @Test func anAlarmStateThatIsNotAFileHoldsNoRun() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-r4-fifo-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("alarms")
        #expect(mkfifo(state.path, 0o600) == 0)
        let arguments = ["alarms", "--no-config", "--state", state.path, "--tz", "Europe/Berlin", "--locale", "en_US",
            "--now", "2025-03-29T08:50:30+01:00", "Fixtures/alarms/alarms.ics"]
        let run = try CLI.runWithin(seconds: 20, arguments)
        #expect(run.status == 0 && run.stdout == "8:50 AM  in 10 min: Standup (Room 4)\n", "\(run)")
        #expect(run.stderr == "ics-agenda: warning: \(state.path): the state is a FIFO, not a file; read as the first run, "
            + "and this run's time is not kept\n", "\(run.stderr)")
        var info = stat()
        #expect(lstat(state.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO,
            "what is not a file is never replaced")
        // A symbolic link (to a device, as root could be given) is neither followed nor replaced; nor is a lock that is
        // not a file.
        try FileManager.default.removeItem(at: state)
        let device = folder.appendingPathComponent("device")
        try FileManager.default.createSymbolicLink(atPath: device.path, withDestinationPath: "/dev/null")
        try FileManager.default.createSymbolicLink(atPath: state.path, withDestinationPath: device.path)
        let linked = try CLI.runWithin(seconds: 20, arguments)
        #expect(linked.status == 0 && linked.stderr.contains("the state is a symbolic link, not a file"), "\(linked)")
        #expect(lstat(state.path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        try FileManager.default.removeItem(at: state)
        try FileManager.default.createDirectory(atPath: state.path + ".lock", withIntermediateDirectories: true)
        let locked = try CLI.runWithin(seconds: 20, arguments)
        #expect(locked.status == 0 && locked.stderr.contains("its lock is a folder, not a file"), "\(locked)")
        #expect(!FileManager.default.fileExists(atPath: state.path), "nothing written beside a lock that is not a file")
    }
}

extension CLI {
    /// `run` under coreutils' `timeout`: a hang is a failure (status 124), not a stalled suite.
    static func runWithin(seconds: Int, _ arguments: [String]) throws -> Result {
        try run(["--kill-after=5", "\(seconds)", binary.path] + arguments,
            executable: URL(fileURLWithPath: "/usr/bin/timeout"))
    }
}
