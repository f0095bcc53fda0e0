import Foundation
import Testing

/// The speed and memory work must not change a byte of output. The agenda
/// of the benchmark's generated calendars is pinned by the SHA-256 of what
/// the build before that work (commit f7ea03d) printed, with the overlaps
/// since added (the JSON key, the text marks: output that is the earlier
/// one byte for byte once they are taken out); and reading components on
/// one thread or several prints the same bytes.
@Suite(.serialized) struct OutputIdentityTests {
    static let generator = CLI.root.appendingPathComponent("../shared/bench/gencal.py").standardized
    static let hasGenerator = FileManager.default.fileExists(atPath: generator.path)
    static let arguments = ["--now", "2025-03-01T00:00:00+01:00", "--tz", "Europe/Berlin", "--locale", "en_US"]

    /// `gencal.py N 7` as `bench-out/cal-N.ics` (git-ignored; `make bench`
    /// writes the same files), named by that relative path: the JSON's
    /// `calendar` and `source` come from it.
    static func calendar(_ size: Int) throws -> String {
        let relative = "bench-out/cal-\(size).ics"
        let url = CLI.root.appendingPathComponent(relative)
        if FileManager.default.fileExists(atPath: url.path) { return relative }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", generator.path, String(size), "7"]
        _ = FileManager.default.createFile(atPath: url.path + ".part", contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: url.path + ".part"))
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "gencal.py failed")
        try FileManager.default.moveItem(atPath: url.path + ".part", toPath: url.path)
        return relative
    }

    static func sha256(_ text: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = input.fileHandleForWriting
        DispatchQueue.global().async {
            writer.write(Data(text.utf8))
            try? writer.close()
        }
        let digest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(digest.prefix(64))
    }

    // Recorded again for issue 25 (overdue reminders first of the day): the
    // same lines, only all-day rows after the overdue ones (`sort` of both outputs equal).
    // JSON recorded again for the cap of `overlaps` at 10 UIDs and `overlap_count`:
    // every line of the build before, its list cut to 10 and its length added, is
    // the line now (checked on all 24,988 and 251,750 lines). And again for
    // `meeting_url` and `partstat`: every line of the build before with
    // `,"meeting_url":null,"partstat":null` before its `}` is the line now.
    // And again for `calendar_color` (issue 42): every line now, with
    // `,"calendar_color":null` taken out, is the line before (checked on both).
    @Test(.enabled(if: hasGenerator, "needs ../shared/bench/gencal.py"), arguments: [
        (10000, "json", "f03423030fedc085ea2de5aebfba2f1afdfc51cd1e3c062790de8ced49460317"),
        (10000, "text", "f6a534157e0cb691ee4fa0019c651cd14c9201e46fff79b3ec17863e5fb36270"),
    ])
    func generatedCalendarPrintsWhatTheBuildBeforeOptimisingPrinted(_ size: Int, _ format: String,
        _ digest: String) throws {
        let result = try CLI.run(OutputIdentityTests.arguments
            + ["--format", format, try OutputIdentityTests.calendar(size)])
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(try OutputIdentityTests.sha256(result.stdout) == digest)
    }

    /// The same at 100,000 components (a third of make test's time alone: make check-all).
    @Test(.enabled(if: hasGenerator && FullChecks.enabled,
        "make check-all (ICS_AGENDA_FULL_CHECKS=1), with ../shared/bench/gencal.py"), arguments: [
        (100000, "json", "e880c177a5147f6a4eef1886f3fc92e5ec1a48520f9a5ba92e649fa8e3b109a6"),
        (100000, "text", "0b10f707e34fef699a1df4fc2ad0738a5ac0de65461f6d61e9d49259d2f40231"),
    ])
    func largeGeneratedCalendarPrintsWhatTheBuildBeforeOptimisingPrinted(_ size: Int, _ format: String,
        _ digest: String) throws {
        try generatedCalendarPrintsWhatTheBuildBeforeOptimisingPrinted(size, format, digest)
    }

    /// Text is written on several threads too (every other format on one).
    @Test(.enabled(if: hasGenerator, "needs ../shared/bench/gencal.py"), arguments: [
        ["--format", "json"], ["--format", "text", "--show-calendar", "--color", "always"],
            ["--format", "text", "--group-by", "week"],
    ])
    func oneThreadOrSeveralPrintTheSame(_ format: [String]) throws {
        let file = try OutputIdentityTests.calendar(10000)
        let args = OutputIdentityTests.arguments + format + ["--completed", "--show-cancelled", file]
        let one = try CLI.run(args, environment: ["ICS_AGENDA_THREADS": "1"])
        for threads in ["2", "3", "8"] {
            let several = try CLI.run(args, environment: ["ICS_AGENDA_THREADS": threads])
            #expect(several.stdout == one.stdout && several.stderr == one.stderr, "\(threads) threads")
        }
        #expect(one.stdout.split(separator: "\n").count > 20000)
    }
}

/// Warnings come in file order, and every fixture lists the same, whatever
/// the threads: one case a fixture, so that the cases run side by side
/// (the suite above runs its cases one at a time, for its shared files).
@Suite struct FixtureThreadTests {
    static let fixtures: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: CLI.root.appendingPathComponent("Fixtures")
            .path)) ?? []
        return names.filter { $0.hasSuffix(".ics") }.sorted()
    }()

    @Test func thereAreFixtures() {
        #expect(FixtureThreadTests.fixtures.count > 20)
    }

    @Test(arguments: fixtures)
    func fixtureDoesNotDependOnThreads(_ name: String) throws {
        let args = ["--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin", "--format", "json", "--completed",
            "--show-cancelled", "--from", "2024-01-01", "--to", "2027-12-31", "Fixtures/\(name)"]
        let one = try CLI.run(args, environment: ["ICS_AGENDA_THREADS": "1"])
        let three = try CLI.run(args, environment: ["ICS_AGENDA_THREADS": "3"])
        #expect(one.stdout == three.stdout && one.stderr == three.stderr && one.status == three.status, "\(name)")
    }
}
