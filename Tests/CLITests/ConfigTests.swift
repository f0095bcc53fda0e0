import Foundation
import Testing

/// The configuration file through a shell, as cron and pipelines meet it:
/// a pipe with data is read instead of the configured inputs, an empty one
/// (cron) is not; `$XDG_CONFIG_HOME` is found; quotes and comments.
@Suite struct ConfigTests {
    static let fixed = "--now 2025-03-01T08:00:00+01:00 --tz Europe/Berlin --locale en_US"

    /// Runs `script` in bash from the package root, `$0` being the binary.
    func shell(_ script: String, environment: [String: String]) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, CLI.binary.path]
        process.currentDirectoryURL = CLI.root
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
            .merging(ProcessInfo.processInfo.environment.filter { $0.key == "ASAN_OPTIONS"
                || $0.key == "LSAN_OPTIONS" }) { $1 }
            .merging(environment) { $1 }
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        return try CLI.collect(process)
    }

    func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The `source` of every JSON line.
    func sources(_ output: String) -> Set<String> {
        Set(output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["source"] as? String
        })
    }

    @Test func aPipeWithDataIsReadInsteadOfTheConfiguredInputs() throws {
        let result = try shell(
            "cat Fixtures/sample.ics | \"$0\" \(ConfigTests.fixed) --days 14",
            environment: ["HOME": "Fixtures", "ICS_AGENDA_CONFIG": "Fixtures/config/home_paths.conf"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(sources(result.stdout) == ["stdin"])
    }

    @Test func aPipeThatEndsAtOnceReadsTheConfiguredInputs() throws {
        let result = try shell(
            "sleep 0.2 | \"$0\" \(ConfigTests.fixed) --days 14",
            environment: ["HOME": "Fixtures", "ICS_AGENDA_CONFIG": "Fixtures/config/home_paths.conf"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(sources(result.stdout) == ["Fixtures/accounts/work"])
    }

    /// By hand: standard input is a terminal (script(1) gives the command one).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func onATerminalTheConfiguredInputsAreRead() throws {
        let command = "'$0' \(ConfigTests.fixed) --days 14 --color never"
        let withConfig = try shell(
            "script -qec \"\(command)\" /dev/null",
            environment: ["HOME": "\(CLI.root.path)/Fixtures", "ICS_AGENDA_CONFIG": "Fixtures/config/home_paths.conf"])
        #expect(withConfig.status == 0, "\(withConfig.stdout)")
        #expect(withConfig.stdout.contains("\"source\":\"\(CLI.root.path)/Fixtures/accounts/work\""),
            "\(withConfig.stdout)")
        // Without configured inputs a terminal is still a usage error.
        let without = try shell("script -qec \"\(command) --no-config\" /dev/null",
            environment: ["ICS_AGENDA_CONFIG": "Fixtures/config/home_paths.conf"])
        #expect(without.stdout.contains("standard input is a terminal"), "\(without.stdout)")
    }

    @Test func aClosedStandardInputReadsTheConfiguredInputs() throws {
        let result = try shell(
            "\"$0\" \(ConfigTests.fixed) --days 14 <&-",
            environment: ["HOME": "Fixtures", "ICS_AGENDA_CONFIG": "Fixtures/config/home_paths.conf"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(sources(result.stdout) == ["Fixtures/accounts/work"])
    }

    @Test func theConfigurationIsFoundUnderXDGConfigHome() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("ics-agenda"),
            withIntermediateDirectories: true)
        // Quotes keep blanks in a value; `#` begins a comment only at the start of a word.
        let config = """
            --grep "with Ana"   # the breakfast only
            --format 'json'
            \(CLI.root.path)/Fixtures/sample.ics
            """
        try config.write(to: dir.appendingPathComponent("ics-agenda/config"), atomically: true, encoding: .utf8)
        let result = try shell("\"$0\" \(ConfigTests.fixed)",
            environment: ["XDG_CONFIG_HOME": dir.path, "HOME": "/nonexistent"])
        #expect(result.status == 0, "\(result.stderr)")
        let titles = result.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["title"] as? String
        }
        #expect(titles == ["Breakfast with Ana"])
    }

    /// A file written on Windows: a byte-order mark and CRLF lines; line numbers stay right.
    @Test func aByteOrderMarkAndCRLFLinesAreRead() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("config").path
        try "\u{FEFF}--days 1\r\n--show-calendar\r\n\(CLI.root.path)/Fixtures/sample.ics\r\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let good = try shell("\"$0\" \(ConfigTests.fixed)", environment: ["ICS_AGENDA_CONFIG": path])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout == "Saturday, March 1, 2025 (Today)\n  7:30 AM  Breakfast with Ana  [Work]\n")
        try "\u{FEFF}--days 1\r\n\r\n--dayz 2\r\n".write(toFile: path, atomically: true, encoding: .utf8)
        let bad = try shell("\"$0\" \(ConfigTests.fixed)", environment: ["ICS_AGENDA_CONFIG": path])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("ics-agenda: \(path):3: Unknown option '--dayz'"), "\(bad.stderr)")
    }

    /// A bad line is told as every message that reaches the terminal is:
    /// escaped (ESC, BEL), and with its file and line (a bad --locale too).
    @Test func aBadLineIsToldEscapedWithItsPlace() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-escconfig-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        for (line, words) in [("--tz Bad\u{1B}[31mZone\u{07}", "Bad\\x1B[31mZone\\x07"),
            ("--locale !!bad", "--locale !!bad: not a locale name")] {
            try "# calendars\n\(line)\n".write(toFile: path, atomically: true, encoding: .utf8)
            let result = try shell("\"$0\" Fixtures/sample.ics", environment: ["ICS_AGENDA_CONFIG": path])
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("ics-agenda: \(path):2: "), "\(result.stderr)")
            #expect(result.stderr.contains(words), "\(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{07}"))
        }
    }

    /// --no-config reads no configuration, not even to find it bad: in
    /// every subcommand.
    @Test(arguments: ["", "next", "free", "calendars"])
    func noConfigReadsNoneInAnySubcommand(_ subcommand: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-badconfig-\(UUID().uuidString)").path
        try "bogus --nope\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let words = subcommand.isEmpty ? "" : subcommand + " "
        let result = try shell("\"$0\" \(words)--no-config Fixtures/sample.ics",
            environment: ["ICS_AGENDA_CONFIG": path])
        #expect(result.status == 0, "\(subcommand): \(result.stderr)")
        #expect(!result.stderr.contains("nope"))
    }

    /// No file at the default location is no configuration; a file that
    /// ICS_AGENDA_CONFIG names must be there (66, naming it).
    @Test func noConfigurationFileIsNoConfiguration() throws {
        let result = try shell(
            "\"$0\" \(ConfigTests.fixed) --days 1 Fixtures/sample.ics",
            environment: ["XDG_CONFIG_HOME": "/nonexistent", "HOME": "/nonexistent"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("Breakfast with Ana"))
        let named = try shell(
            "\"$0\" \(ConfigTests.fixed) --days 1 Fixtures/sample.ics",
            environment: ["ICS_AGENDA_CONFIG": "/nonexistent/config"])
        #expect(named.status == 66)
        #expect(named.stderr == "ics-agenda: /nonexistent/config: no such configuration file (named by ICS_AGENDA_CONFIG)\n", "\(named.stderr)")
        #expect(named.stdout.isEmpty)
    }

    @Test(arguments: [
        ("--days 0", "--days takes a whole number"),
        ("--tz Mars/Olympus", "unknown time zone"),
        ("--from someday", "cannot read \"someday\" as a day"),
        ("--grep \"open", "quote is not closed"),
        ("--no-config", "no place in the configuration"),
        ("--help", "no place in the configuration"),
        ("--days 3 Fixtures/sample.ics", "lines of their own"),
    ])
    func aBadLineIsAUsageErrorNamingFileAndLine(line: String, message: String) throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("config").path
        try "# first\n\n\(line)\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try shell("\"$0\" \(ConfigTests.fixed) Fixtures/sample.ics",
            environment: ["ICS_AGENDA_CONFIG": path])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("ics-agenda: \(path):3: "), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
