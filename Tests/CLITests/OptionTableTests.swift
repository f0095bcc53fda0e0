import Foundation
import Testing

/// The command line's input stage reads words before ArgumentParser does: a
/// subcommand's name written after options (`ics-agenda -v next`), and a
/// long line, which it packs. For that it must know, of every option of
/// every subcommand, whether it takes a value, as the parser knows it: its
/// table is made from the parser's own description of the commands. Here
/// each subcommand's help is the measure (an option that takes a value is
/// shown `--name <value>`, a flag `--name`), and every option shown is read
/// both ways the stage reads it, against the parser reading the same words
/// given plainly.
@Suite struct OptionTableTests {
    struct Option: CustomStringConvertible {
        let name: String
        let takesValue: Bool
        var description: String { name }
    }

    /// The subcommands as the root's help lists them, the default first.
    static let subcommands: [String] = {
        let help = (try? CLI.run(["help"]).stdout) ?? ""
        return subcommands(inHelp: help)
    }()

    /// The names of a `SUBCOMMANDS:` section.
    static func subcommands(inHelp help: String) -> [String] {
        guard let section = help.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first else { return [] }
        return section.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^  ([a-z]+)( \(default\))?[ ]{2}/).map { String($0.1) }
        }
    }

    /// The options a help text shows, each once.
    static func options(inHelp help: String) -> [Option] {
        var seen: Set<String> = []
        return help.split(separator: "\n").flatMap { line -> [Option] in
            guard let match = line.firstMatch(of: /^  (?:(-[a-z]), )?(--[a-z-]+)( <[^>]+>)?(?:  |$)/) else {
                return []
            }
            return [match.1, match.2].compactMap { $0 }.map { Option(name: String($0), takesValue: match.3 != nil) }
        }.filter { seen.insert($0.name).inserted }
    }

    static func options(of subcommand: String) throws -> [Option] {
        options(inHelp: try CLI.run([subcommand, "--help"]).stdout)
    }

    /// The measure finds what the help shows, and can tell a flag from an option.
    @Test func theHelpShowsWhichOptionsTakeAValue() throws {
        #expect(OptionTableTests.subcommands.count >= 8 && OptionTableTests.subcommands.contains("week"))
        let next = try OptionTableTests.options(of: "next")
        #expect(next.contains { $0.name == "--within" && $0.takesValue })
        #expect(next.contains { $0.name == "--all-day" && !$0.takesValue })
        #expect(next.contains { $0.name == "-v" && !$0.takesValue })
        let probe = OptionTableTests.options(inHelp: "  --a <n>   x\n  -b, --bee   y\n  --c-d <x=y>\n   --e\nf --g\n  --h <i> j\n")
        #expect(probe.map(\.name) == ["--a", "-b", "--bee", "--c-d"])
        #expect(probe.map(\.takesValue) == [true, false, false, true])
    }

    /// No name is a flag in one subcommand and takes a value in another:
    /// the stage reads options before it knows the subcommand.
    @Test func everyNameIsAFlagEverywhereOrAnOptionEverywhere() throws {
        var takes: [String: Set<Bool>] = [:]
        for subcommand in OptionTableTests.subcommands {
            for option in try OptionTableTests.options(of: subcommand) {
                takes[option.name, default: []].insert(option.takesValue)
            }
        }
        #expect(takes.count > 40)
        #expect(takes.filter { $0.value.count > 1 }.isEmpty, "\(takes.filter { $0.value.count > 1 })")
    }

    /// Every option of every subcommand, written before a subcommand's
    /// name, is read as written after it: the stage skips an option's value
    /// (`--tz UTC next`), and a flag's next word is the subcommand.
    @Test func everyOptionBeforeASubcommandIsReadAsAfterIt() throws {
        let others = Array(OptionTableTests.subcommands.dropFirst())
        var options: [String: Option] = [:]
        for subcommand in OptionTableTests.subcommands {
            for option in try OptionTableTests.options(of: subcommand) { options[option.name] = option }
        }
        let all = options.values.sorted { $0.name < $1.name }
        for (index, option) in all.enumerated() {
            for subcommand in FullChecks.sample(others, every: others.count, seed: index) {
                let forms = option.takesValue ? [[option.name, "x"], ["\(option.name)=x"]] : [[option.name]]
                for words in forms {
                    #expect(try OptionTableTests.readAlike(words + [subcommand], [subcommand] + words),
                        "\(words) \(subcommand)")
                }
            }
        }
    }

    /// The measure can fail: an option that takes a value, written as a
    /// flag, takes the subcommand's name as its value; a flag followed by a
    /// word makes that word an input, and the name after it a file.
    @Test func aWordReadTheOtherWayIsToldApart() throws {
        #expect(try !OptionTableTests.readAlike(["--tz", "next"], ["next", "--tz"]))
        #expect(try !OptionTableTests.readAlike(["--strict", "x", "next"], ["next", "--strict", "x"]))
    }

    /// Whether two command lines, each with `--help`, print the same.
    static func readAlike(_ first: [String], _ second: [String]) throws -> Bool {
        let one = try CLI.run(first + ["--help"]), other = try CLI.run(second + ["--help"])
        return one.stdout == other.stdout && one.stderr == other.stderr && one.status == other.status
    }

    /// Every option of every subcommand, in a line long enough to be
    /// packed, is read as in a short line: its value stays its own (the
    /// last of two, or both of a list), and a flag takes no word.
    @Test(arguments: subcommands)
    func everyOptionInALongLineIsReadAsInAShortOne(_ subcommand: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-table-\(getpid())-\(subcommand)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = try OptionTableTests.options(of: subcommand)
        #expect(options.count > 8)
        for (index, option) in FullChecks.sample(options, every: 3, seed: subcommand.count).enumerated() {
            // Values that no option's run can write beside the sources (`--state`): in a fresh folder each run.
            let values = [folder.appendingPathComponent("x").path, folder.appendingPathComponent("y").path]
            let words = option.takesValue ? [option.name, values[0], option.name, values[1]] : [option.name, option.name]
            func run(_ padding: Int) throws -> CLI.Result {
                try? FileManager.default.removeItem(at: folder)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                return try CLI.run([subcommand] + Array(repeating: "--no-config", count: padding) + words
                    + ["Fixtures/sample.ics"], environment: ["ICS_AGENDA_NOW": "2025-03-01T08:00:00+01:00",
                    "XDG_STATE_HOME": folder.path, "XDG_CACHE_HOME": folder.path, "COLUMNS": "100"])
            }
            let short = try run(1), long = try run(40)
            #expect(short.stdout == long.stdout && short.stderr == long.stderr && short.status == long.status,
                "\(subcommand) \(option) (\(index)): \(short) / \(long)")
        }
    }

    /// The measure can fail: a value read as an input, or an input read as
    /// a flag's value, is not read alike in a long line.
    @Test func aLongLineReadTheOtherWayIsToldApart() throws {
        let padding = Array(repeating: "--no-config", count: 40)
        let plain = try CLI.run(["--no-config", "--tz", "UTC", "Fixtures/sample.ics"])
        let valueAsInput = try CLI.run(padding + ["--tz", "--", "UTC", "Fixtures/sample.ics"])
        #expect(plain.status != valueAsInput.status || plain.stderr != valueAsInput.stderr)
        let flag = try CLI.run(["--no-config", "--strict", "Fixtures/sample.ics"])
        let inputAsValue = try CLI.run(padding + ["--strict=Fixtures/sample.ics"])
        #expect(flag.status != inputAsValue.status || flag.stdout != inputAsValue.stdout)
    }
}
