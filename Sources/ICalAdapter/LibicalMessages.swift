/// Turns libical's X-LIC-ERROR texts into the words of a warning.
enum LibicalMessages {
    /// The property a libical message is about, when it names one
    /// ("No value for DTSTART property", "Parse error in property name: FOO").
    static func propertyName(in message: String) -> String? {
        let words = message.split(whereSeparator: { !$0.isLetter && $0 != "-" })
        for (i, word) in words.enumerated() where word == "property" || word == "Property" {
            if i > 0, isPropertyName(words[i - 1]) { return String(words[i - 1]) }
        }
        return words.first(where: isPropertyName).map(String.init)
    }

    private static func isPropertyName(_ word: Substring) -> Bool {
        word.count >= 2 && word.allSatisfy { $0.isUppercase || $0 == "-" } && word != "TZID" && word != "VALUE"
    }

    static let maxLength = 160

    /// libical ends some messages with "Removing entire property:" and the raw line.
    static func clean(_ message: String) -> String {
        var m = message.trimmingWhitespace()
        if let range = m.range(of: "Removing entire property:") { m = String(m[..<range.lowerBound]).trimmingWhitespace() }
        while m.hasSuffix(".") || m.hasSuffix(":") { m.removeLast() }
        // Some messages quote the line they could not read, which may be megabytes long.
        if m.count > maxLength { m = String(m.prefix(maxLength)) + "…" }
        return m
    }
}
