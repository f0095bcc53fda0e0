/// `ics-agenda -v next` and `ics-agenda --no-config alarms`: options written
/// before the subcommand that they are meant for.
///
/// ArgumentParser chooses a subcommand by the first word only, so these
/// read `next` as the agenda's file, "next: no such file or directory".
/// A subcommand's name that follows nothing but options (and their
/// values) is put first, and the options after it: the subcommand then
/// takes them or refuses them as its own, in its own words. A name after
/// an input or after `--` stays a file, and so does an option's value
/// (`--calendar next`), as it always was.
enum SubcommandFirst {
    static func reordered(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, first.hasPrefix("-"), first != "-", first != "--" else { return arguments }
        var i = 0
        while i < arguments.count {
            let word = arguments[i]
            if word == "--" { return arguments }
            guard word.hasPrefix("-"), word != "-" else {
                guard word != "help", RootCommand.subcommandWords.contains(word) else { return arguments }
                return [word] + arguments[..<i] + arguments[(i + 1)...]
            }
            i += !word.contains("=") && ArgumentPacking.valueOptions.contains(word) ? 2 : 1
        }
        return arguments
    }
}
