/// A long command line made short before ArgumentParser reads it: the
/// input stage's last step.
///
/// ArgumentParser takes time that grows with the square of the words on the
/// command line (it removes each word it takes from an array, and copies
/// the set of places of a repeated option each time): 10,000 `--calendar`
/// options took 20 s, and `ics-agenda ~/calendar/*.ics` over a folder of
/// 10,000 files 6 s. So a line of more than `threshold` words is packed
/// first: the inputs become one word and each repeatable option's values
/// (`--calendar`, `--me`) one value, each list joined by NUL (which no word of a command line can hold, so the
/// join cannot be mistaken). `InputArguments` and `CommonOptions` split the
/// lists again. What ArgumentParser would judge is kept for it to judge:
/// - an option of one value given again keeps its last value, and an
///   earlier one only when `accepts` (the option alone on a command line)
///   refuses it: ArgumentParser checks them all and keeps the last, so
///   `--days abc --days 5` is still refused, saying why (the first
///   `maxJudged` earlier values of an option are judged);
/// - a flag given again is given once;
/// - an option followed by a word it would not take as its value
///   (`--format -x`) is kept as those two words, once, for ArgumentParser's
///   error;
/// - `help` keeps its first two words and each option once: what it prints
///   depends on no more.
/// A line this cannot read for sure (an empty `--calendar` name or `--me`) is left as it is.
/// Which options take a value, which take any word, and which are lists is
/// the parser's own definitions' (`OptionTable`), read for a long line only.
extension CommandLineInput {
    static let separator: Character = "\u{0}"
    /// Lines of at most this many words are parsed as they are.
    static let threshold = 32

    /// Earlier values of one option judged on their own (a parse each, about
    /// 2 ms): the first ones given; past them, values that are overridden
    /// anyway are dropped unjudged, or ten thousand would take 20 s.
    static let maxJudged = 16

    /// The list joined into one word, as `unpacked` splits it.
    static func packed(_ arguments: [String], accepts: ([String]) -> Bool = { _ in true }) -> [String] {
        guard arguments.count > threshold else { return arguments }
        var head: [String] = []
        var rest = arguments[...]
        if let first = rest.first, Subcommand.words.contains(first) {
            guard first != Subcommand.help else { return packedHelp(arguments) }
            head.append(first)
            rest = rest.dropFirst()
        }
        let options = OptionTable.current
        guard let words = Words(rest, options: options) else { return arguments }
        var packed = head + words.flags + kept(words.values, head: head, accepts: accepts)
        for name in options.listOptions {
            if let values = words.lists[name] {
                packed.append(name + "=" + values.joined(separator: String(separator)))
            }
        }
        if let missingValue = words.missingValue {
            // Last, as written, for ArgumentParser's "Missing value": the
            // inputs are left out (`--` would make the option one of them),
            // as the run ends at that error whatever they are.
            return packed + [missingValue]
        }
        if !words.inputs.isEmpty { packed += ["--", words.inputs.joined(separator: String(separator))] }
        return packed
    }

    /// The words of a long command line, sorted: flags (each once), the
    /// options' values by the place of their last use (or a word pair left
    /// for ArgumentParser to refuse), the values of each list option, and inputs.
    private struct Words {
        var flags: [String] = []
        var values: [(words: [String], last: Int)] = []
        var lists: [String: [String]] = [:]
        var inputs: [String] = []
        /// An option that is the last word: ArgumentParser says its value is missing.
        var missingValue: String? = nil
        private var seenFlags: Set<String> = []
        private var placeOfValue: [[String]: Int] = [:]

        /// nil when the line cannot be read for sure (a word with the separator, an empty `--calendar`).
        init?(_ rest: ArraySlice<String>, options: OptionTable) {
            var afterDashes = false
            var i = rest.startIndex
            while i < rest.endIndex {
                let word = rest[i]
                i += 1
                guard !word.contains(separator) else { return nil }
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
                guard options.valueOptions.contains(name) else {
                    if seenFlags.insert(word).inserted { flags.append(word) }
                    continue
                }
                let value: String
                // `--name=` with nothing after the `=` takes the next word, as `--name` does.
                if parts.count == 2, !parts[1].isEmpty {
                    value = String(parts[1])
                } else {
                    guard i < rest.endIndex else {
                        missingValue = name
                        continue
                    }
                    // The value is the next word; one that looks like an option is
                    // the option's only when it takes any word, else ArgumentParser refuses it.
                    guard rest[i] == "-" || !rest[i].hasPrefix("-") || options.unconditional.contains(name) else {
                        use([name, rest[i]], at: i)
                        i += 1
                        continue
                    }
                    value = rest[i]
                    i += 1
                }
                guard !value.contains(separator) else { return nil }
                if value.isEmpty {
                    // `--grep ''`: written `--grep=` it would take the next word; kept as two words.
                    guard !options.listOptions.contains(name) else { return nil }
                    use([name, value], at: i)
                    continue
                }
                if options.listOptions.contains(name) {
                    lists[name, default: []].append(value)
                } else {
                    use(["\(name)=\(value)"], at: i)
                }
            }
        }

        private mutating func use(_ words: [String], at i: Int) {
            if let earlier = placeOfValue[words] {
                values[earlier].last = i
            } else {
                placeOfValue[words] = values.count
                values.append((words, i))
            }
        }
    }

    /// Of each option's values the last is kept, and an earlier one that is
    /// refused on its own (the first is enough for the error), in the order
    /// of their last use. A value is one word `--name=value`; two words, or
    /// a name alone, are kept for ArgumentParser to refuse.
    private static func kept(_ values: [(words: [String], last: Int)], head: [String],
        accepts: ([String]) -> Bool) -> [String] {
        var lastOfOption: [String: Int] = [:]
        func isValue(_ words: [String]) -> Bool { words.count == 1 && words[0].contains("=") }
        for (index, value) in values.enumerated() where isValue(value.words) {
            let name = optionName(of: value.words[0])
            if let other = lastOfOption[name], values[other].last > value.last { continue }
            lastOfOption[name] = index
        }
        var refusedOne = false
        var judged: [String: Int] = [:]
        let kept = values.indices.filter { index in
            let words = values[index].words
            let name = optionName(of: words[0])
            guard isValue(words), lastOfOption[name] != index else { return true }
            guard !refusedOne, judged[name, default: 0] < maxJudged else { return false }
            judged[name, default: 0] += 1
            guard !accepts(head + words) else { return false }
            refusedOne = true
            return true
        }
        return kept.map { values[$0] }.sorted { $0.last < $1.last }.flatMap(\.words)
    }

    /// `--name` of `--name=value`.
    private static func optionName(of word: String) -> String {
        word.firstIndex(of: "=").map { String(word[..<$0]) } ?? word
    }

    /// `help` and what follows it: the first two words that name
    /// subcommands (or not) and each option once, in their order.
    private static func packedHelp(_ arguments: [String]) -> [String] {
        var packed = [Subcommand.help]
        var named = 0
        var seen: Set<String> = []
        for word in arguments.dropFirst() {
            if word.hasPrefix("-") && word != "-" {
                if seen.insert(word).inserted { packed.append(word) }
            } else if named < 2 {
                named += 1
                packed.append(word)
            }
            if packed.count > threshold { break }
        }
        return packed
    }

    /// The words `packed` joined, each again.
    static func unpacked(_ words: [String]) -> [String] {
        guard words.contains(where: { $0.contains(separator) }) else { return words }
        return words.flatMap { $0.split(separator: separator, omittingEmptySubsequences: false).map(String.init) }
    }
}
