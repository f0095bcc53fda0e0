import Foundation
import Testing

/// The man page (docs/ics-agenda.1) is written by hand: it must list every
/// option and subcommand the parser has, and every exit status.
@Suite struct ManualTests {
    static let manual = (try? String(contentsOf: CLI.root.appendingPathComponent("docs/ics-agenda.1"), encoding: .utf8))
        ?? ""

    /// Every command of the parser's own description, with its subcommands.
    static func commands(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try CLI.run(arguments + ["--experimental-dump-help"])
        let dump = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        var pending = [dump?["command"] as? [String: Any] ?? [:]]
        var all: [[String: Any]] = []
        while let command = pending.popLast() {
            all.append(command)
            pending += command["subcommands"] as? [[String: Any]] ?? []
        }
        return all
    }

    @Test func everyOptionAndSubcommandIsInTheManual() throws {
        let commands = try ManualTests.commands([]) + ManualTests.commands(["calendars"])
        var missing: [String] = []
        for command in commands {
            if let name = command["commandName"] as? String, let word = name.split(separator: " ").last,
                word != "ics-agenda", !ManualTests.manual.contains("Cm \(word)")
            {
                missing.append("subcommand \(word)")
            }
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool
                ?? true {
                for name in argument["names"] as? [[String: Any]] ?? [] {
                    guard let text = name["name"] as? String else { continue }
                    let flag = (name["kind"] as? String) == "short" ? "Fl \(text)" : "Fl -\(text)"
                    if !ManualTests.manual.contains(flag) { missing.append(flag) }
                }
            }
        }
        #expect(commands.count >= 2)
        #expect(missing.isEmpty, "not in docs/ics-agenda.1: \(Set(missing).sorted())")
    }

    @Test func theManualHasItsSections() {
        for section in ["SYNOPSIS", "OPTIONS", "CONFIGURATION", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"] {
            #expect(ManualTests.manual.contains(".Sh \(section)\n"), "no \(section)")
        }
        let exitStatus = ManualTests.manual.components(separatedBy: ".Sh EXIT STATUS").last ?? ""
        for status in [0, 64, 65, 66, 74] {
            #expect(exitStatus.contains(".It \(status)\n"), "exit status \(status) missing")
        }
        for word in ["ICS_AGENDA_CONFIG", "XDG_CONFIG_HOME", "ics-agenda/config", "ICS_AGENDA_NOW", "NO_COLOR"] {
            #expect(ManualTests.manual.contains(word), "\(word) missing")
        }
    }

    /// The completion scripts `make install` writes offer every subcommand and option of the parser.
    @Test(arguments: ["bash", "zsh", "fish"])
    func theCompletionsOfferEverySubcommand(shell: String) throws {
        let script = try CLI.run(["--generate-completion-script", shell]).stdout
        let root = try ManualTests.commands([]).first ?? [:]
        let subcommands = (root["subcommands"] as? [[String: Any]] ?? []).compactMap { $0["commandName"] as? String }
        #expect(!subcommands.isEmpty)
        for name in subcommands + ["no-config", "calendar", "group-by"] {
            #expect(script.contains(name), "the \(shell) completions lack \(name)")
        }
    }

    /// In a real bash, the completion script completes file names where an
    /// input goes (it offered nothing: the inputs had no completion kind).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")), arguments: [
        ("agenda Fixtures/sam", "Fixtures/sample.ics"), ("next Fixtures/acc", "Fixtures/accounts"),
        ("calendars Fixtures/sam", "Fixtures/sample.ics"), ("agenda --format ", "markdown"),
        // Without the word agenda, the agenda's completions, and the subcommands for the first word.
        ("Fixtures/sam", "Fixtures/sample.ics"), ("--format ", "markdown"),
            ("--tz Europe/Berlin Fixtures/acc", "Fixtures/accounts"),
        ("ne", "next"), ("--no-ev", "--no-events"),
    ])
    func bashCompletesInputFileNames(_ line: String, _ wanted: String) throws {
        let script = try CLI.run(["--generate-completion-script", "bash"]).stdout
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-completion-\(UUID().uuidString).bash")
        try script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        // What bash does on TAB: COMP_WORDS and COMP_CWORD set, the function that `complete` names called.
        let driver = """
            source "$1"; shift
            COMP_WORDS=(ics-agenda "$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
            f=$(complete -p ics-agenda | sed -E 's/.* -F ([^ ]+) .*/\\1/')
            "$f" ics-agenda "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if line.hasSuffix(" ") { words.append("") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", driver, "bash", file.path] + words
        process.currentDirectoryURL = CLI.root
        let result = try CLI.collect(process)
        let offered = result.stdout.split(separator: "\n")
        #expect(offered.contains { $0 == wanted }, "\(line)<TAB>: \(result.stdout) \(result.stderr)")
        // An option's value is completed with values only, not with the root's flags.
        if line.hasSuffix("--format ") { #expect(!offered.contains { $0.hasPrefix("-") },
            "\(line)<TAB>: \(result.stdout)") }
        // The same script, with the shell taken from $SHELL.
        #expect(try CLI.run(["--generate-completion-script"], environment: ["SHELL": "/bin/bash"]).stdout == script)
    }

    /// `--version` prints the name and the version, alone or after other
    /// options, and the man page names the same version.
    @Test(arguments: [["--version"], ["--no-config", "--version"], ["agenda", "--version"], ["next", "--version"]])
    func versionIsPrintedAndTheManualNamesIt(_ arguments: [String]) throws {
        let result = try CLI.run(arguments)
        let printed = result.stdout.trimmingCharacters(in: .newlines)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
        #expect(printed.wholeMatch(of: /ics-agenda [0-9]+\.[0-9]+\.[0-9]+/) != nil, "\(arguments): \(printed)")
        #expect(ManualTests.manual.contains(".Dq \(printed) ,\n"), "the man page's --version does not name \(printed)")
    }

    /// What the man page shows as rendered: the Waybar object and the tab
    /// escape as typed, the POSIX TZ forms --help has, and cron lines (in it
    /// and in the README) that name the binary by a full path, since cron's
    /// PATH (/usr/bin:/bin) does not hold /usr/local/bin.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc")))
    func theManualRendersWhatItMeans() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mandoc")
        process.arguments = ["-T", "ascii", CLI.root.appendingPathComponent("docs/ics-agenda.1").path]
        // Bold is a character, a backspace and the character again.
        let plain = try CLI.collect(process).stdout.replacingOccurrences(of: #".\x{08}"#, with: "", options: .regularExpression)
        let rendered = plain.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        for wanted in [#"{"text": ..., "tooltip": ..., "class": ...}"#, #"`\t' a tab"#, "POSIX TZ string", "CET-1CEST,M3.5.0,M10.5.0/3"] {
            #expect(rendered.contains(wanted), "the rendered man page lacks \(wanted)")
        }
        let readme = try String(contentsOf: CLI.root.appendingPathComponent("README.md"), encoding: .utf8)
        let recipes = try String(contentsOf: CLI.root.appendingPathComponent("docs/RECIPES.md"), encoding: .utf8)
        for text in [ManualTests.manual, readme, recipes] {
            let cronLines = text.split(separator: "\n").filter { $0.range(of: #"^[0-9*@][^ ]* .*ics-agenda"#, options: .regularExpression) != nil }
            #expect(!cronLines.isEmpty)
            for line in cronLines {
                #expect(line.contains(" /"), "a cron line names ics-agenda without a full path: \(line)")
            }
        }
    }

    /// mandoc's lint, where mandoc is installed: no warning at any level.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc")))
    func theManualHasNoMdocWarnings() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mandoc")
        process.arguments = ["-T", "lint", "-W", "all", CLI.root.appendingPathComponent("docs/ics-agenda.1").path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && text.isEmpty, "\(text)")
    }
}
