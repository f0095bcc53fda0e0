import ArgumentParser

/// The root's subcommands, as ArgumentParser holds them
/// (`RootCommand.configuration.subcommands`): for each, its name (the word
/// that chooses it, and its section of the configuration file) and its type.
/// Dispatch, the configuration's sections, the usage, bash completion and
/// the option table all read this one table: a new subcommand is named in
/// the root's list and nowhere else.
struct Subcommand {
    let name: String
    let type: any ParsableCommand.Type

    /// The root's, in their order; the default (the agenda) among them.
    static let all: [Subcommand] = RootCommand.configuration.subcommands.compactMap { type in
        type.configuration.commandName.map { Subcommand(name: $0, type: type) }
    }

    /// The one chosen when the first word names none: the agenda.
    static let byDefault: Subcommand = {
        guard let type = RootCommand.configuration.defaultSubcommand,
            let chosen = all.first(where: { $0.type == type }) else {
            preconditionFailure("the root command has no default subcommand among its subcommands")
        }
        return chosen
    }()

    /// Every subcommand but the default.
    static var others: [Subcommand] { all.filter { !$0.isDefault } }

    /// ArgumentParser's own subcommand, which takes no options.
    static let help = "help"

    /// The words that choose a subcommand when they come first: each name, and `help`.
    static let words = all.map(\.name) + [help]

    var isDefault: Bool { type == Subcommand.byDefault.type }

    /// The subcommand a word names, nil for any other word (`help` too).
    static func named(_ word: String) -> Subcommand? {
        all.first { $0.name == word }
    }

    /// The default's arguments when `arguments` choose it (no subcommand
    /// named, or its name first: without it); nil for another subcommand or `help`.
    static func defaultArguments(of arguments: [String]) -> [String]? {
        guard let first = arguments.first else { return arguments }
        if first == byDefault.name { return Array(arguments.dropFirst()) }
        return words.contains(first) ? nil : arguments
    }

    /// The root's usage: one line for each of `types`, the default's name
    /// in brackets (it may be left out), then help. Made from the list the
    /// root's configuration is made of, before there is a configuration to read.
    static func usage(of types: [any ParsableCommand.Type], default chosen: any ParsableCommand.Type) -> String {
        let lines = types.compactMap { type in
            type.configuration.commandName.map { name in
                "ics-agenda \(type == chosen ? "[\(name)]" : name) [OPTIONS] [INPUT ...]"
            }
        }
        return (lines + ["ics-agenda \(help) [SUBCOMMAND]"]).joined(separator: "\n")
    }
}
