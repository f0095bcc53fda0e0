/// A long command line made short before ArgumentParser reads it.
///
/// ArgumentParser takes time that grows with the square of the words on the
/// command line (it removes each word it takes from an array, and copies
/// the set of places of a repeated option each time): 10,000 `--calendar`
/// options took 20 s, and `ics-agenda ~/calendar/*.ics` over a folder of
/// 10,000 files 6 s. So a line of more than `threshold` words is packed
/// first: the inputs become one word and the calendars one value, each
/// list joined by NUL (which no word of a command line can hold, so the
/// join cannot be mistaken). An option of one value given again is given
/// once, with its last value (the one ArgumentParser keeps; an earlier value
/// it would refuse is not judged), and a flag given again once. `InputArguments` and `CommonOptions` split the
/// lists again. A line this cannot read for sure (an empty value, a value
/// that looks like an option for an option that would not take it,
/// `help`) is left as it is.
enum ArgumentPacking {
    static let separator: Character = "\u{0}"
    /// Lines of at most this many words are parsed as they are.
    static let threshold = 32

    /// Those that take the next word whatever it is (`--from -1d`, `--grep -x`).
    static let unconditional: Set<String> = ["--calendar", "--days", "--from", "--grep", "--now", "--template", "--to", "--tz"]

    /// The long options that take a value (`--tz <zone>`), of every
    /// command; `ArgumentPackingTests` checks the list against their help.
    static let valueOptions: Set<String> = [
        "--calendar", "--color", "--count", "--days", "--format", "--from", "--grep", "--group-by", "--hours",
        "--locale", "--min", "--now", "--refresh", "--template", "--to", "--tz", "--weekdays", "--within",
    ]

    /// The list joined into one word, as `unpacked` splits it.
    static func packed(_ arguments: [String]) -> [String] {
        guard arguments.count > threshold else { return arguments }
        var head: [String] = []
        var rest = arguments[...]
        if let first = rest.first, RootCommand.subcommandWords.contains(first) {
            guard first != "help" else { return arguments }
            head.append(first)
            rest = rest.dropFirst()
        }
        var flags: [String] = []
        var seenFlags: Set<String> = []
        var values: [(name: String, value: String)] = []
        var calendars: [String] = []
        var inputs: [String] = []
        var afterDashes = false
        var i = rest.startIndex
        while i < rest.endIndex {
            let word = rest[i]
            i += 1
            guard !word.contains(separator) else { return arguments }
            if afterDashes || word == "-" || !word.hasPrefix("-") {
                inputs.append(word)
                continue
            }
            if word == "--" {
                afterDashes = true
                continue
            }
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard valueOptions.contains(name) else {
                if seenFlags.insert(word).inserted { flags.append(word) }
                continue
            }
            let value: String
            if parts.count == 2 {
                value = String(parts[1])
            } else {
                // The value is the next word; one that looks like an option is
                // the option's only when it takes any word, else ArgumentParser judges it.
                guard i < rest.endIndex, rest[i] == "-" || !rest[i].hasPrefix("-") || unconditional.contains(name) else { return arguments }
                value = rest[i]
                i += 1
            }
            // An empty value written `--name=` would take the next word instead.
            guard !value.isEmpty, !value.contains(separator) else { return arguments }
            if name == "--calendar" {
                calendars.append(value)
            } else {
                values.append((name, value))
            }
        }
        var packed = head + flags
        // An option's last value is the one ArgumentParser keeps: the earlier
        // ones are left out (unjudged: `--days abc --days 5` passes here).
        var last: [String: String] = [:]
        for (name, value) in values { last[name] = value }
        var given: Set<String> = []
        packed += values.filter { last[$0.name] == $0.value && given.insert($0.name).inserted }.map { "\($0.name)=\($0.value)" }
        if !calendars.isEmpty { packed.append("--calendar=" + calendars.joined(separator: String(separator))) }
        if !inputs.isEmpty { packed += ["--", inputs.joined(separator: String(separator))] }
        return packed
    }

    /// The words `packed` joined, each again.
    static func unpacked(_ words: [String]) -> [String] {
        guard words.contains(where: { $0.contains(separator) }) else { return words }
        return words.flatMap { $0.split(separator: separator, omittingEmptySubsequences: false).map(String.init) }
    }
}
