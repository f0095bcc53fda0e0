import Foundation
import Testing

/// What cron jobs and pipelines rely on: exit status, quiet closed pipes,
/// nothing but the agenda on stdout, a reproducible clock, a round trip
/// through `--format ics`.
@Suite struct UnixBehaviourTests {
    static let fixed = ["--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin", "--locale", "en_US"]

    /// A calendar with `count` daily events, written to a temporary file.
    static func bigCalendar(_ count: Int) throws -> URL {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
        for i in 0..<count {
            text += "BEGIN:VEVENT\r\nUID:e\(i)\r\nSUMMARY:Event \(i)\r\nDTSTART:2025\(String(format: "%02d", 3 + i % 9))\(String(format: "%02d", 1 + i % 28))T\(String(format: "%02d", i % 24))0000Z\r\nEND:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-big-\(UUID().uuidString).ics")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func bash(_ script: String, _ args: [String]) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, CLI.binary.path] + args
        process.currentDirectoryURL = CLI.root
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "ICS_AGENDA_CONFIG": "/dev/null"]
            .merging(ProcessInfo.processInfo.environment.filter { $0.key == "ASAN_OPTIONS"
                || $0.key == "LSAN_OPTIONS" }) { $1 }
        return try CLI.collect(process)
    }

    @Test(arguments: ["text", "json"])
    func closedPipeEndsQuietlyWithStatusZero(_ format: String) throws {
        let big = try UnixBehaviourTests.bigCalendar(20000)
        defer { try? FileManager.default.removeItem(at: big) }
        // $0 is the binary; the agenda's exit status is reported on stdout after head's line.
        let result = try bash(#""$0" "$@" 2>/tmp/ics-agenda-pipe-stderr | head -1; echo "status=${PIPESTATUS[0]}"; cat /tmp/ics-agenda-pipe-stderr"#,
            UnixBehaviourTests.fixed + ["--format", format, big.path])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2, "head's one line, then the status, and no stderr: \(result.stdout)")
        #expect(lines.last == "status=0")
    }

    @Test func outputErrorIsStatus74() throws {
        let result = try bash(#""$0" "$@" > /dev/full"#, UnixBehaviourTests.fixed + ["Fixtures/sample.ics"])
        #expect(result.status == 74)
        #expect(result.stderr.contains("cannot write the agenda"))
    }

    @Test func emptyAgendaPrintsNothingInEveryFormat() throws {
        for format in ["text", "json", "markdown", "html", "ics"] {
            let result = try CLI.run(UnixBehaviourTests.fixed
                + ["--from", "2030-01-01", "--days", "1", "--format", format, "Fixtures/sample.ics"])
            #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(format): \(result)")
        }
    }

    @Test func environmentClockEqualsNowOption() throws {
        let withOption = try CLI.run(UnixBehaviourTests.fixed + ["Fixtures/sample.ics"])
        let arguments = ["--tz", "Europe/Berlin", "--locale", "en_US", "Fixtures/sample.ics"]
        let withEnvironment = try CLI.run(arguments, environment: ["ICS_AGENDA_NOW": "2025-03-01T08:00:00+01:00"])
        #expect(!withOption.stdout.isEmpty)
        #expect(withOption.stdout == withEnvironment.stdout)
    }

    @Test func colourOnlyWhenAskedOffATerminal() throws {
        let auto = try CLI.run(UnixBehaviourTests.fixed + ["Fixtures/sample.ics"])
        #expect(!auto.stdout.contains("\u{1B}["))
        let always = try CLI.run(UnixBehaviourTests.fixed + ["--color", "always", "Fixtures/sample.ics"],
            environment: ["NO_COLOR": "1"])
        #expect(always.stdout.contains("\u{1B}[1m"))
    }

    @Test func noInputAndAnEmptyStandardInputIsAUsageError() throws {
        // No INPUT, nothing configured and nothing on standard input (cron before any set-up): say how to name inputs.
        let result = try CLI.run(UnixBehaviourTests.fixed)
        #expect(result.status == 64)
        #expect(result.stderr == "ics-agenda: nothing to read: name .ics files, folders or - (standard input gave nothing), or list inputs in /dev/null\n", "\(result.stderr)")
        // Standard input named, and empty: read, and not iCalendar.
        let named = try CLI.run(UnixBehaviourTests.fixed + ["-"])
        #expect(named.status == 65)
        #expect(named.stderr.contains("stdin: not an iCalendar file: it is empty"))
    }

    @Test(arguments: ["Europe/Berlin", "America/New_York", "UTC", "Asia/Kolkata"])
    func icsOutputRoundTripsToTheSameJSON(_ zone: String) throws {
        let base = ["--now", "2025-03-01T08:00:00+01:00", "--tz", zone, "--completed", "--show-cancelled"]
        let inputs = ["Fixtures/sample.ics", "Fixtures/accounts", "Fixtures/event_dt_floating.ics",
            "Fixtures/event_dt_rr_recuid.ics",
            "Fixtures/event_dt_multiday.ics", "Fixtures/event_dt_no_uid.ics"]
        let direct = try CLI.run(base + ["--format", "json"] + inputs)
        let ics = try CLI.run(base + ["--format", "ics"] + inputs)
        #expect(ics.status == 0 && ics.stdout.hasPrefix("BEGIN:VCALENDAR\r\n"))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-roundtrip-\(UUID().uuidString).ics")
        try ics.stdout.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let again = try CLI.run(base + ["--format", "json", url.path])
        // Calendar and source name the input, which is now one file: compare the rest.
        func strip(_ s: String) -> [String] { s.split(separator: "\n")
            .map { String($0.prefix { $0 != "," }) + ($0.components(separatedBy: ",\"calendar\"").first ?? "") } }
        #expect(strip(again.stdout) == strip(direct.stdout))
        #expect(strip(direct.stdout).count > 20)
    }

    static let oraclePython = CLI.root.appendingPathComponent(".venv-oracle/bin/python")

    /// The `ics` output must parse with an independent parser: the oracle's
    /// Python icalendar, in .venv-oracle (.ci/run sets it up; without it the
    /// test is skipped, and says so).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: oraclePython.path),
        "needs .venv-oracle (../shared/tools/README.md)"))
    func icsOutputParsesWithPythonIcalendar() throws {
        let python = UnixBehaviourTests.oraclePython
        let ics = try CLI.run(UnixBehaviourTests.fixed + ["--format", "ics", "--completed", "Fixtures/sample.ics",
            "Fixtures/accounts"])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-py-\(UUID().uuidString).ics")
        try ics.stdout.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", """
            import sys, icalendar
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            items = [c for c in cal.walk() if c.name in ('VEVENT', 'VTODO')]
            assert all(c.get('UID') for c in items), 'every item has a UID'
            print(len(items))
            """, url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let json = try CLI.run(UnixBehaviourTests.fixed + ["--format", "json", "--completed", "Fixtures/sample.ics",
            "Fixtures/accounts"])
        #expect(Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) == json.stdout.split(separator: "\n").count)
    }

    /// A signal that ends programs ends this one at once, quietly, by that
    /// signal: SIGQUIT printed a crash backtrace and the run went on, and a
    /// SIGPIPE sent by another process was ignored (the run's own broken
    /// pipes are still errors it handles). Every signal whose default is to
    /// end the program, those the Swift runtime watches for crashes too.
    @Test(arguments: [
        SIGQUIT, SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
        SIGSYS, SIGABRT, SIGBUS, SIGSEGV, SIGILL, SIGFPE, SIGTRAP,
    ])
    func aSignalEndsTheRunQuietly(_ signal: Int32) throws {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["--no-config", "-"]
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let input = Pipe(), err = Pipe()
        process.standardInput = input  // kept open: the run waits for standard input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        input.fileHandleForWriting.write(Data("BEGIN:VCALENDAR\r\n".utf8))
        // Sent once the run waits in read(2) on standard input (/proc/PID/syscall
        // starts "0 0x0"), past the runtime's start-up: not after a guessed pause.
        let syscall = "/proc/\(process.processIdentifier)/syscall"
        for _ in 0..<1000 {
            if let now = try? String(contentsOfFile: syscall, encoding: .utf8), now.hasPrefix("0 0x0 ") { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        kill(process.processIdentifier, signal)
        // A run the signal did not end is killed after 10 s, and fails below.
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) { if process.isRunning { kill(pid, SIGKILL) } }
        let said = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
            "status \(process.terminationStatus)")
        #expect(said.isEmpty, "\(String(decoding: said, as: UTF8.self).prefix(300))")
    }
}
