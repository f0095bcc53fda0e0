import Foundation
import Testing

/// Hostile input, round 4, through the built binary: a zero-filled tail of
/// 100 MB (listed whole, in little memory), a `displayname` that is huge or
/// a FIFO, and control characters in every text field HTML writes.
@Suite(.serialized) struct HostileRound4Tests {
    static let fixed = ["--now", "2025-03-01T08:00:00Z", "--tz", "UTC", "--locale", "en_US", "--days", "10"]

    /// Peak resident memory of a run in KB, from `/usr/bin/time -v`, and the run.
    static func peakKB(_ arguments: [String], stdin: String? = nil) throws -> (Int, CLI.Result) {
        let command = stdin.map { _ in #"/usr/bin/time -v "$@" < "$STDIN_FILE""# } ?? #"/usr/bin/time -v "$@""#
        let run = try CLI.run(["-c", command, "sh", CLI.binary.path] + arguments,
            environment: stdin.map { ["STDIN_FILE": $0] } ?? [:],
            executable: URL(fileURLWithPath: "/bin/sh"))
        let line = run.stderr.split(separator: "\n").first { $0.contains("Maximum resident set size") } ?? ""
        return (Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? -1, run)
    }

    @Test(arguments: ["file", "stdin"])
    func aCalendarWithAHundredMegabytesOfZerosIsListedInLittleMemory(_ how: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/time"),
            "/usr/bin/time (Debian's time) reads the peak memory")
        let dir = try HostileCLITests.temporaryDirectory()
        let path = dir.appendingPathComponent("preallocated.ics").path
        let text = try Data(contentsOf: CLI.root.appendingPathComponent("Fixtures/hostile4/nul_tail_after_calendar.ics")).prefix { $0 != 0 }
        #expect(FileManager.default.createFile(atPath: path, contents: text))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        let zeros = Data(repeating: 0, count: 1 << 20)
        for _ in 0..<100 { try handle.write(contentsOf: zeros) }
        try handle.close()
        let (kb, run) = try HostileRound4Tests.peakKB(HostileRound4Tests.fixed + [how == "file" ? path : "-"],
            stdin: how == "file" ? nil : path)
        #expect(run.status == 0)
        #expect(run.stdout.contains("Listed: before the zero-filled tail")
            && run.stdout.contains("Listed: also before it"))
        let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("ics-agenda: warning") }
        #expect(warnings.count == 1 && warnings[0].contains(":17: the input ends in 104857600 NUL bytes"),
            "\(warnings)")
        // It was 320 MB: the zeros framed as one component.
        #expect(kb > 0 && kb < 120_000, "\(kb) KB")
    }

    @Test func aHugeDisplaynameIsReadAsItsFirstLineCut() throws {
        let dir = try HostileCLITests.temporaryDirectory().appendingPathComponent("cal")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.root.appendingPathComponent("Fixtures/hostile4/sequence_signed.ics"),
            to: dir.appendingPathComponent("a.ics"))
        try Data(String(repeating: "Ä", count: 5_000_000).utf8).write(to: dir.appendingPathComponent("displayname"))
        let run = try CLI.run(HostileRound4Tests.fixed + ["--format", "json", dir.path])
        #expect(run.status == 0)
        #expect(run.stdout.contains("\"" + String(repeating: "Ä", count: 256) + "\""))
        #expect(!run.stdout.contains(String(repeating: "Ä", count: 257)))
        let told = run.stderr.split(separator: "\n")
            .filter { $0.contains("displayname:1: displayname: a calendar name is one line") }
        #expect(told.count == 1, "\(run.stderr)")
    }

    @Test func aFIFONamedDisplaynameDoesNotStopTheRun() throws {
        let dir = try HostileCLITests.temporaryDirectory().appendingPathComponent("cal")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.root.appendingPathComponent("Fixtures/hostile4/sequence_signed.ics"),
            to: dir.appendingPathComponent("a.ics"))
        #expect(mkfifo(dir.appendingPathComponent("displayname").path, 0o600) == 0)
        let run = try CLI.run(["-c", #"timeout 20 "$@""#, "sh", CLI.binary.path] + HostileRound4Tests.fixed + [dir.path],
            executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.status == 0)
        #expect(run.stdout.contains("Listed: SEQUENCE 0, the newer revision"))
    }

    /// C0 and C1 controls in every text field HTML writes (title, location,
    /// calendar name, the page's title and headers): none reaches the page raw.
    @Test(arguments: ["html", "markdown"])
    func noControlCharacterReachesHTMLOrMarkdown(_ format: String) throws {
        let run = try CLI.run(HostileRound4Tests.fixed + ["--format", format, "--show-calendar",
            "Fixtures/hostile4/html_control_characters.ics"])
        #expect(run.status == 0)
        let controls = run.stdout.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n"
            && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
        #expect(controls.isEmpty, "\(controls.map(\.value))")
        // Shown as the terminal formats show them; Markdown escapes the backslash itself.
        let slash = format == "html" ? "\\" : "\\\\"
        for shown in ["Title\(slash)x85with\(slash)x9BC1", "Room\(slash)x90 4",
            "TeamCal"] { #expect(run.stdout.contains(shown), "\(shown)") }
    }
}
