import ArgumentParser

/// The command line as ArgumentParser is given it: the one stage between
/// the words the system gives and the parser, in three steps.
///
/// 1. A subcommand's name written after options (`ics-agenda -v next`) is
///    put first: ArgumentParser chooses a subcommand by the first word only.
/// 2. The configuration file's options are put before the command line's,
///    those of the chosen subcommand's section among them (`ConfigFile`).
/// 3. A long line is packed (`packed`): ArgumentParser's time grows with
///    the square of its words.
///
/// Which words are subcommands is the root's table (`Subcommand`); which
/// options take a value, the parser's own definitions (`OptionTable`),
/// read only when a step needs them: most lines need neither.
enum CommandLineInput {
    /// `arguments` made ready for the root command to parse.
    static func prepared(_ arguments: [String]) -> [String] {
        let configured = withConfiguration(subcommandFirst(arguments))
        // The error path parses again to word its message: the packed line
        // too, or a long line that ends in an error is quadratic after all.
        return packed(configured) { (try? RootCommand.parseAsRoot($0)) != nil }
    }

    /// `ics-agenda -v next` and `ics-agenda --no-config alarms`: options
    /// written before the subcommand that they are meant for.
    ///
    /// ArgumentParser would read `next` as the agenda's file, "next: no
    /// such file or directory". A subcommand's name that follows nothing
    /// but options (and their values) is put first, and the options after
    /// it: the subcommand then takes them or refuses them as its own, in
    /// its own words. A name after an input or after `--` stays a file, and
    /// so does an option's value (`--calendar next`), as it always was.
    /// `help` after options is help: the options are left out.
    static func subcommandFirst(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, first.hasPrefix("-"), first != "-", first != "--",
            arguments.prefix(while: { $0 != "--" }).contains(where: Subcommand.words.contains) else {
            return arguments
        }
        let valueOptions = OptionTable.current.valueOptions
        var i = 0
        while i < arguments.count {
            let word = arguments[i]
            if word == "--" { return arguments }
            guard word.hasPrefix("-"), word != "-" else {
                guard Subcommand.words.contains(word) else { return arguments }
                // `ics-agenda -v help next`: help takes no options; those before it are left out.
                if word == Subcommand.help { return Array(arguments[i...]) }
                return [word] + arguments[..<i] + arguments[(i + 1)...]
            }
            i += !word.contains("=") && valueOptions.contains(word) ? 2 : 1
        }
        return arguments
    }

    /// The configured options put before the command line's (which win):
    /// all of them for the agenda, for the other subcommands the lines
    /// before any section that they take (`--tz`, `--locale`, `--calendar`,
    /// ...) and those of their own section; `help` none.
    static func withConfiguration(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, let chosen = Subcommand.named(first) else {
            return Subcommand.defaultArguments(of: arguments) == nil ? arguments : withAgendaConfiguration(arguments)
        }
        let rest = Array(arguments.dropFirst())
        return [first] + (chosen.isDefault ? withAgendaConfiguration(rest) : withConfiguration(rest, for: chosen))
    }

    /// For a subcommand other than the agenda: the configured option lines
    /// it can parse (the options it shares with the agenda) and those of
    /// its section, before the command line's, the words after its name.
    private static func withConfiguration(_ arguments: [String], for chosen: Subcommand) -> [String] {
        // --no-config first: it reads no configuration, not even to find it bad.
        guard !arguments.contains("--no-config"), let config = ConfigFile.current else { return arguments }
        let lines = config.optionLines.filter { line in
            line.section == chosen.name || (line.section == nil && (try? chosen.type.parse(line.words)) != nil)
        }
        return lines.flatMap(\.words) + arguments
    }

    /// The agenda's arguments (without its name) with the configured
    /// options in front of them. A command line that does not parse, or
    /// that says `--no-config`, is left as it is (the command reports its
    /// errors itself). A configured `--calendar` (or `--to`, `--days`) is
    /// left out when the command line gives its own.
    private static func withAgendaConfiguration(_ arguments: [String]) -> [String] {
        // Nothing configured, nothing to put in front: the command line is
        // not parsed an extra time for it (parsing is most of a small run's cost).
        if ConfigFile.holdsNothing { return arguments }
        guard let given = try? ConfigLine.parse(arguments), !given.input.noConfig, let config = ConfigFile.current
        else { return arguments }
        var words: [String] = []
        let section = Subcommand.byDefault.name
        for line in config.optionLines where line.agendaTakes && (line.section == nil || line.section == section) {
            if line.setsCalendar && !given.common.calendar.isEmpty { continue }
            if line.setsLastDay && (given.range.to != nil || given.range.days != nil) { continue }
            words += line.words
        }
        return words + arguments
    }
}
