import Foundation
import Testing

/// `ics-agenda` as a root command: the agenda by default, the subcommands,
/// `help`, and the completions and man page that list them.
@Suite struct SubcommandTests {
    static let defaults = ["--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin", "--locale", "en_US"]

    @Test func helpListsEverySubcommand() throws {
        let help = try CLI.run(["help"])
        #expect(help.status == 0 && help.stderr.isEmpty)
        for name in ["agenda (default)", "next", "free", "calendars"] { #expect(help.stdout.contains(name), "\(name)") }
        for name in ["agenda", "next", "free", "calendars"] {
            let sub = try CLI.run(["help", name])
            #expect(sub.status == 0 && sub.stdout.contains("USAGE: ics-agenda \(name)"), "help \(name)")
        }
        #expect(try CLI.run(["help", "agenda"]).stdout.contains("--group-by"))
        #expect(try CLI.run(["next", "--help"]).stdout.contains("--within"))
        #expect(try CLI.run(["free", "--help"]).stdout.contains("--weekdays"))
    }

    @Test func completionsKnowTheSubcommands() throws {
        let bash = try CLI.run(["--generate-completion-script", "bash"])
        #expect(bash.status == 0)
        for name in ["next", "free", "calendars", "--within",
            "--weekdays"] { #expect(bash.stdout.contains(name), "\(name)") }
    }

    /// The agenda is the same with or without its name, options before or after the files.
    @Test func theAgendaIsTheDefault() throws {
        let plain = try CLI.run(SubcommandTests.defaults + ["--days", "7", "Fixtures/sample.ics"])
        #expect(plain.status == 0 && !plain.stdout.isEmpty)
        #expect(try CLI.run(["agenda"] + SubcommandTests.defaults + ["--days", "7", "Fixtures/sample.ics"])
            .stdout == plain.stdout)
        #expect(try CLI.run(["Fixtures/sample.ics"] + SubcommandTests.defaults + ["--days", "7"])
            .stdout == plain.stdout)
        #expect(try CLI.run(SubcommandTests.defaults + ["--days", "7", "-"], stdinFile: "Fixtures/sample.ics")
            .stdout == plain.stdout)
        #expect(try CLI.run(SubcommandTests.defaults + ["--days", "7"], stdinFile: "Fixtures/sample.ics")
            .stdout == plain.stdout)
    }

    /// A file named like a subcommand is read as ./NAME; its bare name is the subcommand.
    @Test func aFileNamedLikeASubcommandIsReadAsDotSlashName() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-subcommand-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("next")
        try FileManager.default.copyItem(at: CLI.root.appendingPathComponent("Fixtures/sample.ics"), to: file)
        let asFile = try CLI.run(SubcommandTests.defaults + ["--days", "7", file.path])
        #expect(asFile.status == 0 && asFile.stdout.contains("Standup"))
        // The bare word is the subcommand: here `next` of standard input, nothing within reach.
        let bare = try CLI.run(["next", "--now", "2030-01-01T00:00:00Z"], stdinFile: "Fixtures/sample.ics")
        #expect(bare.status == 0 && bare.stdout.isEmpty && bare.stderr.isEmpty)
    }

    /// However many unknown names `--calendar` is given, the warning is one
    /// line of a readable length: ten names, then how many more.
    @Test func manyUnknownCalendarsAreToldInOneShortLine() throws {
        let names = (0..<500).flatMap { ["--calendar", "nope\($0)"] }
        let result = try CLI.run(["--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin"] + names
            + ["Fixtures/sample.ics"])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr.prefix(300))")
        #expect(result.stderr.contains("\"nope9\" and 490 more: no such calendars"), "\(result.stderr.prefix(300))")
        #expect(result.stderr.count < 400)
    }
}
