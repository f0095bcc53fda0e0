/// `ics-agenda -v next` and `ics-agenda --no-config alarms`: options written
/// before the subcommand that they are meant for.
///
/// ArgumentParser chooses a subcommand by the first word only, so these
/// read `next` as the agenda's file, "next: no such file or directory".
/// A subcommand's name that follows nothing but options (and their
/// values) is put first, and the options after it: the subcommand then
/// takes them or refuses them as its own, in its own words. A name after
/// an input or after `--` stays a file, and so does an option's value
/// (`--calendar next`), as it always was. `help` after options is help:
/// the options are left out.
enum SubcommandFirst {
    static func reordered(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, first.hasPrefix("-"), first != "-", first != "--" else { return arguments }
        var i = 0
        while i < arguments.count {
            let word = arguments[i]
            if word == "--" { return arguments }
            guard word.hasPrefix("-"), word != "-" else {
                guard RootCommand.subcommandWords.contains(word) else { return arguments }
                // `ics-agenda -v help next`: help takes no options; those before it are left out.
                if word == "help" { return Array(arguments[i...]) }
                return [word] + arguments[..<i] + arguments[(i + 1)...]
            }
            i += !word.contains("=") && ArgumentPacking.valueOptions.contains(word) ? 2 : 1
        }
        return arguments
    }
}
