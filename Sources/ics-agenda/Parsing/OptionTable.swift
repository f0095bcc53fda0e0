import ArgumentParser
import Foundation

/// What the parser's own definitions say of the options of every
/// subcommand, as the input stage needs it to read words before the parser
/// does: which options take a value, which take any next word as it, which
/// are given once for each value. Any other word that starts with a dash
/// is a flag (or unknown, for the parser to refuse).
///
/// It is read from ArgumentParser's description of the commands, the
/// JSON of `--experimental-dump-help` (`ToolInfoV0` of its
/// ArgumentParserToolInfo module), so no list of names is kept by hand: an
/// option added to any command is in the table. Making it costs about
/// 10 ms, a third of a small run (ArgumentParser writes the description as
/// JSON, 140 KB): `current` is made only when a step needs it (a long line,
/// options before a subcommand's name), never for a plain run.
struct OptionTable {
    /// Every name (`--tz`, `-x`) of an option that takes a value, in any subcommand.
    let valueOptions: Set<String>
    /// Those parsed `.unconditional`: they take the next word whatever it
    /// is (`--from -1d`, `--grep -x`), in any subcommand.
    let unconditional: Set<String>
    /// The options given once for each value (`--calendar a --calendar b`),
    /// in the order the commands declare them.
    let listOptions: [String]

    /// The table of the root's subcommands (`Subcommand`), made at the first use.
    static let current: OptionTable = {
        do {
            let names = Subcommand.all.map(\.name)
            return OptionTable(try described().filter { names.contains($0.commandName) })
        } catch {
            preconditionFailure("ArgumentParser's description of the commands could not be read: \(error)")
        }
    }()

    /// The options of every one of `commands`; a name that takes a value in
    /// one takes it in all (`OptionTableTests` holds every help to that).
    init(_ commands: [Command]) {
        var valueOptions: Set<String> = [], unconditional: Set<String> = [], listOptions: [String] = []
        for argument in commands.flatMap({ $0.arguments ?? [] }) where argument.kind == "option" {
            let names = (argument.names ?? []).map(\.word)
            valueOptions.formUnion(names)
            if argument.parsingStrategy == "unconditional" { unconditional.formUnion(names) }
            if argument.isRepeating { listOptions += names.filter { !listOptions.contains($0) } }
        }
        self.valueOptions = valueOptions
        self.unconditional = unconditional
        self.listOptions = listOptions
    }

    /// The root's subcommands as ArgumentParser describes them: what it
    /// prints for `--experimental-dump-help`, asked of it as the command line would.
    static func described() throws -> [Command] {
        do {
            _ = try RootCommand.parseAsRoot(["--experimental-dump-help"])
        } catch {
            let text = RootCommand.fullMessage(for: error)
            return try JSONDecoder().decode(Description.self, from: Data(text.utf8)).command.subcommands ?? []
        }
        throw DescriptionMissing()
    }

    /// The parser parsed `--experimental-dump-help` instead of describing the commands.
    struct DescriptionMissing: Error {}

    /// The parts of `ToolInfoV0` read here; the rest is left out.
    struct Description: Decodable {
        let command: Command
    }

    struct Command: Decodable {
        let commandName: String
        let subcommands: [Command]?
        let arguments: [Argument]?
    }

    /// An argument: `kind` is option, flag or positional; `parsingStrategy`
    /// `unconditional` for `.unconditional` and `.unconditionalSingleValue`.
    struct Argument: Decodable {
        let kind: String
        let names: [Name]?
        let isRepeating: Bool
        let parsingStrategy: String
    }

    /// A name: `kind` is long, short or longWithSingleDash.
    struct Name: Decodable {
        let kind: String
        let name: String

        /// As written on the command line: `--tz`, `-v`, `-help`.
        var word: String { (kind == "long" ? "--" : "-") + name }
    }
}
