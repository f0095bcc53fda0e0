import Foundation
import Testing

/// The command line under hostile conditions: stderr that cannot be
/// written, arguments that look like options, zones from `$TZ`, file names
/// that are not text.
@Suite struct HostileCLITests {
    static let fixed = ["--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin", "--locale", "en_US"]

    /// Runs `script` in bash with the binary as $0, in `directory` (the package root by default).
    func bash(_ script: String, _ args: [String] = [], in directory: URL = CLI.root,
        environment: [String: String] = [:]) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, CLI.binary.path] + args
        process.currentDirectoryURL = directory
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"]
            .merging(ProcessInfo.processInfo.environment.filter { $0.key == "ASAN_OPTIONS"
                || $0.key == "LSAN_OPTIONS" }) { $1 }.merging(environment) { $1 }
        return try CLI.collect(process)
    }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    // MARK: stderr that cannot be written

    /// The agenda of a damaged file, whatever stderr is: the status is the
    /// contract's, reported on stdout after the agenda.
    @Test(arguments: ["2>&-", "2>/dev/full", "2>&1 | head -c 0"])
    func aWarningThatCannotBeWrittenStopsNothing(redirection: String) throws {
        let script: String
        if redirection.contains("|") {
            // stderr is a pipe whose reader has gone; stdout still goes to the test.
            script = #"exec 3>&1; { "$0" "$@" 2>&1 1>&3 3>&- | head -c 0; } ; echo "status=${PIPESTATUS[0]}""#
        } else {
            script = #""$0" "$@" "# + redirection + #"; echo "status=$?""#
        }
        let result = try bash(script, HostileCLITests.fixed
            + ["Fixtures/broken_dtstart.ics", "Fixtures/broken_bad_rrule.ics"])
        let expected = try CLI.run(HostileCLITests.fixed + ["Fixtures/broken_dtstart.ics",
            "Fixtures/broken_bad_rrule.ics"])
        #expect(!expected.stderr.isEmpty, "the fixtures warn")
        #expect(result.stdout == expected.stdout + "status=0\n", "\(redirection): \(result.stdout)")
    }

    /// The report's own shape: warnings and agenda into one pipe that `head` closes early.
    @Test func warningsAndAgendaIntoAClosedPipeEndQuietly() throws {
        let big = try UnixBehaviourTests.bigCalendar(20000)
        defer { try? FileManager.default.removeItem(at: big) }
        let result = try bash(#"cat "$1" Fixtures/broken_dtstart.ics > "$1.damaged.ics"; "$0" "${@:2}" "$1.damaged.ics" 2>&1 | head -3; echo "status=${PIPESTATUS[0]}"; rm -f "$1.damaged.ics""#,
            [big.path] + HostileCLITests.fixed)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4 && lines.last == "status=0", "\(result.stdout)")
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: [(["nowhere.ics"], 66), (["Fixtures/not_calendar.html"], 65), (["--frobnicate"], 64),
        (["--days", "0"], 64),
        (["--strict", "Fixtures/broken_dtstart.ics"], 65)])
    func errorsKeepTheirStatusWhenStderrFails(arguments: [String], status: Int) throws {
        for redirection in ["2>&-", "2>/dev/full"] {
            let result = try bash(#""$0" "$@" "# + redirection, HostileCLITests.fixed + arguments)
            #expect(Int(result.status) == status, "\(arguments) \(redirection)")
        }
    }

    /// Found by the command-line fuzz target: a calendar keyword Foundation
    /// cannot make crashed its date formatters (signal 11). Given with
    /// --locale it is a usage error naming it, for every command that
    /// formats dates; from the environment it is left out.
    @Test(arguments: [["--locale", "th_TH@calendar=buddstih", "--group-by", "month"],
        ["--locale", "ko_KR@calendar=dangi"],
        ["next", "--locale", "am_ET@calendar=ethioaa"], ["free", "--locale", "ar_SA@calendar=islamic-rgsa"],
        ["--locale", "en_US@calendar="]])
    func aCalendarFoundationCannotMakeIsAUsageError(arguments: [String]) throws {
        let result = try CLI.run(arguments + ["--no-config", "--now", "2025-03-01T08:00:00Z", "Fixtures/sample.ics"])
        #expect(result.status == 64, "\(arguments)")
        #expect(result.stderr.contains("no calendar"), "\(arguments): \(result.stderr)")
    }

    /// Also found by the fuzz target: Foundation traps on a locale name
    /// with a character that is not ASCII.
    @Test(arguments: ["é", "ü_DE", "\u{FFFD}\u{FFFD}fa_IR@-", "de_DE\u{0301}", ""])
    func aLocaleNameThatIsNotOneIsAUsageError(locale: String) throws {
        let result = try CLI.run(["--no-config", "--now", "2025-03-01T08:00:00Z", "--locale", locale,
            "Fixtures/sample.ics"])
        #expect(result.status == 64, "\(locale)")
        #expect(result.stderr.contains("not a locale name"), "\(locale): \(result.stderr)")
    }

    @Test(arguments: ["th_TH.UTF-8@calendar=buddstih", "ko_KR.UTF-8@calendar=dangi", "ü_DE.UTF-8", "é"])
    func aCalendarFoundationCannotMakeInTheEnvironmentIsLeftOut(lang: String) throws {
        let result = try CLI.run(["--no-config", "--now", "2025-03-01T08:00:00Z", "--days", "2", "--group-by", "month",
            "Fixtures/sample.ics"],
            environment: ["LANG": lang])
        #expect(result.status == 0)
        #expect(result.stdout.contains("2025"), "\(result.stdout)")
    }

    @Test func helpIsCheckedForWriteErrors() throws {
        #expect(try bash(#""$0" --help > /dev/full"#).status == 74)
        #expect(try bash(#""$0" calendars --help > /dev/full"#).status == 74)
        let piped = try bash(#""$0" --help | head -1; echo "status=${PIPESTATUS[0]}""#)
        #expect(piped.stdout.hasSuffix("status=0\n") && piped.stderr.isEmpty, "\(piped)")
        #expect(try bash(#""$0" --help"#).status == 0)
        // A closed stdout is an output error too, not a crash or a silent 0.
        #expect(try bash(#""$0" "$@" >&-"#, HostileCLITests.fixed + ["Fixtures/sample.ics"]).status == 74)
    }

    // MARK: arguments that look like options

    @Test(arguments: [["--from", "-1d"], ["--from", "-7d", "--to", "-3d"], ["--to", "-0d"],
        ["--from", "-2d", "--days", "3"]])
    func negativeDaysAreValues(arguments: [String]) throws {
        let result = try CLI.run(HostileCLITests.fixed + arguments + ["--format", "json", "Fixtures/todo_due.ics"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
    }

    @Test(arguments: [["--days", "-1"], ["--days", "--to"], ["--from", "--days"], ["--now", "-2025-03-01"]])
    func aDashValueIsReadAndJudged(arguments: [String]) throws {
        let result = try CLI.run(HostileCLITests.fixed + arguments + ["Fixtures/sample.ics"])
        #expect(result.status == 64 && !result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
    }

    @Test(arguments: ["-dash.ics", "-h.ics", "-x"])
    func aFileNamedLikeAnOptionIsAnErrorWithAHint(name: String) throws {
        let dir = try HostileCLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: CLI.root.appendingPathComponent("Fixtures/sample.ics"),
            to: dir.appendingPathComponent(name))
        let wrong = try bash(#""$0" "$@""#, HostileCLITests.fixed + [name], in: dir)
        #expect(wrong.status == 64 && wrong.stdout.isEmpty, "\(name): \(wrong)")
        #expect(wrong.stderr.contains("./\(name)") && wrong.stderr.contains("--"), "\(wrong.stderr)")
        let expected = try CLI.run(HostileCLITests.fixed + ["Fixtures/sample.ics"]).stdout
        for arguments in [["./\(name)"], ["--", name]] {
            let right = try bash(#""$0" "$@""#, HostileCLITests.fixed + arguments, in: dir)
            #expect(right.status == 0 && right.stdout == expected, "\(arguments): \(right.stderr)")
        }
    }

    @Test func standardInputNamedTwiceIsReadOnce() throws {
        let once = try CLI.run(HostileCLITests.fixed + ["-"], stdinFile: "Fixtures/sample.ics")
        for arguments in [["-", "-"], ["-", "Fixtures/todo_due.ics", "-"]] {
            let result = try CLI.run(HostileCLITests.fixed + arguments, stdinFile: "Fixtures/sample.ics")
            #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
            #expect(result.stdout.contains(once.stdout.split(separator: "\n")[1]))
        }
    }

    // MARK: zones from $TZ

    /// `$TZ` as POSIX reads it: the offset is west of UTC; rules change it.
    /// (Breakfast with Ana is at 06:30 UTC.)
    @Test(arguments: [("UTC+3", "2025-03-01T03:30:00-03:00"), ("GMT-2", "2025-03-01T08:30:00+02:00"),
        ("Etc/GMT+5", "2025-03-01T01:30:00-05:00"), (":Europe/Berlin", "2025-03-01T07:30:00+01:00"),
        ("/usr/share/zoneinfo/Asia/Tokyo", "2025-03-01T15:30:00+09:00"),
            ("EST5EDT,M3.2.0,M11.1.0", "2025-03-01T01:30:00-05:00"),
        ("CET-1CEST,M3.5.0,M10.5.0/3", "2025-03-01T07:30:00+01:00")])
    func environmentZonesReadAsPOSIX(tz: String, start: String) throws {
        let result = try CLI.run(["--now", "2025-03-01T08:00:00Z", "--locale", "en_US", "--format", "json", "--days",
            "2", "Fixtures/sample.ics"],
            environment: ["TZ": tz])
        #expect(result.status == 0, "\(tz): \(result.stderr)")
        #expect(result.stdout.contains("\"start\":\"\(start)\""), "\(tz): \(result.stdout)")
    }

    @Test func summerTimeFollowsTheRulesOfATZString() throws {
        let arguments = ["--now", "2025-03-01T08:00:00Z", "--from", "2025-03-29", "--days", "3", "--format", "json",
            "Fixtures/event_dt_dst.ics"]
        let posix = try CLI.run(arguments, environment: ["TZ": "CET-1CEST,M3.5.0,M10.5.0/3"])
        let iana = try CLI.run(arguments, environment: ["TZ": "Europe/Berlin"])
        #expect(posix.status == 0 && !posix.stdout.isEmpty && posix.stdout == iana.stdout, "\(posix.stderr)")
        #expect(posix.stdout.contains("+02:00"))
    }

    @Test(arguments: ["Nowhere/Bogus", "CET-1CEST,M3.5.0", "UTC+99", ":Nowhere"])
    func anUnreadableTZIsAUsageError(tz: String) throws {
        let result = try CLI.run(["--now", "2025-03-01T08:00:00Z", "Fixtures/sample.ics"], environment: ["TZ": tz])
        #expect(result.status == 64 && result.stderr.contains("TZ"), "\(tz): \(result)")
    }

    // MARK: file names that are not text

    @Test func fileNamesAreReadByTheirBytesAndPrintedEscaped() throws {
        let dir = try HostileCLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // bash makes the names: Foundation cannot spell a name that is not UTF-8.
        let setup = try bash(#"mkdir sub && cp "$1" "$(printf 'bad\377.ics')" && cp "$1" "$(printf 'esc\033[2Jname.ics')" && cp "$1" "sub/$(printf 'line\nbreak.ics')" && cp "$1" "sub/$(printf 'lat\351.ics')""#,
            [CLI.root.appendingPathComponent("Fixtures/broken_dtstart.ics").path], in: dir)
        #expect(setup.status == 0, "\(setup.stderr)")
        let named = try bash(#""$0" "$@" --show-calendar "$(printf 'bad\377.ics')" "$(printf 'esc\033[2Jname.ics')""#, HostileCLITests.fixed, in: dir)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stderr.contains("bad\\xFF.ics:13:") && named.stderr.contains("esc\\x1B[2Jname.ics:13:"),
            "\(named.stderr)")
        #expect(named.stdout.contains("[bad\\xFF]") && named.stdout.contains("[esc\\x1B[2Jname]"), "\(named.stdout)")
        let folder = try bash(#""$0" "$@" sub"#, HostileCLITests.fixed, in: dir)
        #expect(folder.status == 0 && folder.stderr.split(separator: "\n").count == 2, "\(folder.stderr)")
        #expect(folder.stderr.contains("sub/line\\nbreak.ics:13:") && folder.stderr.contains("sub/lat\\xE9.ics:13:"),
            "\(folder.stderr)")
        let listed = try bash(#""$0" calendars . 2>/dev/null"#, in: dir)
        #expect(listed.stdout.split(separator: "\n").count == 6, "\(listed.stdout)")
        for text in [named.stdout, named.stderr, folder.stderr, listed.stdout] {
            #expect(!text.contains("\u{1B}") && !text.contains("\u{FFFD}"))
        }
        let missing = try bash(#""$0" "$@" "$(printf 'gone\377.ics')""#, HostileCLITests.fixed, in: dir)
        #expect(missing.status == 66 && missing.stderr.contains("gone\\xFF.ics"), "\(missing.stderr)")
    }
}
