/// One warning about a file, as the adapter finds it: the line, the kind of
/// damage and the words. Warnings of one kind are told once a file unless
/// `--verbose` asks for every place (`Diagnostic.kind`), so the kind names
/// what is wrong, not where: `value DTSTART` for every unreadable DTSTART,
/// `unknown zone` for every value in a zone the file does not define,
/// whichever zone it names (3,000 unknown zones are one line, not 3,000).
package struct Warning: Sendable {
    package var line: Int
    /// Its row in the one table of damage (`DamageKind`).
    package var damage: DamageKind
    package var kind: String
    package var message: String

    package init(_ line: Int, _ damage: DamageKind, _ kind: String, _ message: String) {
        self.line = line
        self.damage = damage
        self.kind = kind
        self.message = message
    }
}

extension Warning {
    /// A warning whose kind is its wording less what names one place: quoted
    /// values, parenthesised asides (`(in VEVENT "Standup")`) and words with
    /// digits (a count, a date); a word with `=` keeps only the name before
    /// it (a rule's part). "RRULE: FREQ=SECONDLY;BYDAY=MO would make libical
    /// test about 604800 candidate times…" is of the kind "RRULE: FREQ=
    /// would make libical test about candidate times…".
    package init(_ line: Int, _ damage: DamageKind, _ message: String) {
        self.init(line, damage, Warning.kind(describing: message), message)
    }

    package static func kind(describing message: String) -> String {
        var plain = ""
        var depth = 0
        var quoted = false
        for c in message {
            if c == "\"" { quoted.toggle(); continue }
            if quoted { continue }
            if c == "(" { depth += 1; continue }
            if c == ")" { depth = max(0, depth - 1); continue }
            if depth == 0 { plain.append(c) }
        }
        // A rule's part keeps its name (`BYDAY=XX` is of the kind `BYDAY=`):
        // an unreadable BYDAY and an INTERVAL out of range are two kinds.
        return plain.split(separator: " ")
            .compactMap { word -> Substring? in
                if let equals = word.firstIndex(of: "="), word[..<equals].allSatisfy({ $0.isLetter || $0 == "-" }),
                    equals > word.startIndex {
                    return word[...equals]
                }
                return word.contains(where: { $0.isNumber || $0 == "=" }) ? nil : word
            }
            .joined(separator: " ")
    }
}
