/// A missing input that is a subcommand misspelled (`ics-agenda nxt`).
extension InputFiles {
    /// The subcommand a missing input's name is one or two edits away from:
    /// a bare word (no `/`, no `.`) of at least three letters (`ics-agenda
    /// nxt` is a file named `nxt` to the parser, which cannot tell a typo
    /// from a file name).
    static func subcommand(misspelledAs word: String) -> String? {
        guard word.count >= 3, !word.contains("/"), !word.contains(".") else { return nil }
        let lower = Array(word.lowercased())
        return Subcommand.words.map { ($0, editDistance(lower, Array($0))) }.filter { $0.1 <= 2 }
            .min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance of two short words.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
