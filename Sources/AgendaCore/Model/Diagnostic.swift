/// A problem found in an input, printed on stderr as `file:line: message`.
package struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    package let path: String
    package let line: Int?
    package let message: String
    /// What is wrong, without where: warnings of one kind about one file are
    /// told once, with how often (`WarningReport`). Defaults to the message.
    package let kind: String
    /// Its row in the adapter's table of damage (`DamageKind`'s name), or
    /// nil for a line that tells of other lines (how many were not kept).
    package let damage: String?
    /// Places of the same kind in the same file past the warnings a file
    /// may keep (10,000): counted here, not kept one by one.
    package var morePlaces = 0
    /// The line past 10,000 kinds, "N more warnings not shown", stands for N.
    package var standsFor: Int? = nil
    /// The line number of the first place counted in `morePlaces`.
    package var morePlacesFrom: Int? = nil

    /// How many problems this warning tells of (`--strict` counts them).
    package var problems: Int { standsFor ?? 1 + morePlaces }

    package init(path: String, line: Int?, message: String, kind: String? = nil, damage: String? = nil) {
        self.path = path
        self.line = line
        self.message = message
        self.kind = kind ?? message
        self.damage = damage
    }

    /// One line, whatever the message quotes: a title or value with line
    /// breaks (`SUMMARY:a\nb`) shows them as `\n`, so that every warning
    /// stays one line for grep and for cron's mail.
    package var description: String {
        let text = Diagnostic.oneLine(message)
        let place = PrintableText.escaped(path)
        if let line { return "\(place):\(line): \(text)" }
        return "\(place): \(text)"
    }

    static func oneLine(_ s: String) -> String { PrintableText.escaped(s) }
}
