import Synchronization

/// Words of a message that may hold a secret, shown without it.
///
/// A private calendar address is a password, and so is `user:pass@` in
/// any address. Such a word can reach a message by any path: given by
/// mistake as another option's value (`--days https://…`), with a typo in
/// its scheme (`htps://…`, read as a file name), in a configuration line.
/// Every message on standard error goes through `redacted`, so that none of
/// them depends on its writer remembering to hide it.
///
/// A word with `://` is shown as its scheme, host and last path segment
/// (`https://calendar.example.com/…/basic.ics`), as the contract names a
/// URL; a word with `user:password@` and no scheme loses what comes before
/// the `@`. A word is what lies between blanks: quotes and brackets around
/// it (`'--days=https://…'`) stay where they are.
package enum SecretText {
    /// The words of this run's command line and configuration that may hold
    /// a secret (`register`): a message may quote one whole, blanks and all
    /// (`--calendar 'webcal://h/dir/a b/x.ics?token'`), where a word-by-word
    /// look would show what follows the blank.
    private static let given = Mutex<[String]>([])

    /// Whether a word may hold a secret: it has `://` or `user:password@`.
    package static func mayHoldSecret(_ word: String) -> Bool {
        word.contains("://") || credentialsEnd(in: Substring(word)) != nil
    }

    /// Keeps `word` (and, for `--option=value`, its value), as given and as
    /// messages escape it, so that `redacted` finds it whole.
    package static func register(_ word: String) {
        guard mayHoldSecret(word) else { return }
        var forms = [word]
        if word.hasPrefix("-"), let equals = word.firstIndex(of: "=") {
            forms.append(String(word[word.index(after: equals)...]))
        }
        forms += forms.map(PrintableText.escaped)
        given.withLock { list in
            for form in forms where mayHoldSecret(form) && !list.contains(form) { list.append(form) }
            list.sort { $0.count > $1.count }
        }
    }

    /// `text` with every word that may hold a secret redacted. A text
    /// already redacted comes back unchanged.
    package static func redacted(_ text: String) -> String {
        guard text.contains("://") || text.contains("@") else { return text }
        var text = text
        for form in given.withLock({ $0 }) where text.contains(form) {
            // Blanks inside stand for themselves in the address shown: it ends at its last segment or query.
            text = text.replacingOccurrences(of: form, with: redactedWord(Substring(form.replacingOccurrences(of: " ",
                with: "%20"))))
        }
        var result = ""
        var word = Substring()
        var start = text.startIndex
        for index in text.indices where text[index].isWhitespace {
            word = text[start..<index]
            result += redactedWord(word)
            result.append(text[index])
            start = text.index(after: index)
        }
        word = text[start...]
        result += redactedWord(word)
        return result
    }

    /// Punctuation that a message puts after a word, kept outside what is redacted.
    private static let closing: Set<Character> = ["'", "\"", ")", ">", "]", ".", ",", ":", ";", "`"]

    private static func redactedWord(_ word: Substring) -> String {
        var body = word
        var tail = Substring()
        while let last = body.last, closing.contains(last) {
            tail = body[body.index(before: body.endIndex)...] + tail
            body = body.dropLast()
        }
        if let marker = body.range(of: "://") {
            var schemeStart = marker.lowerBound
            while schemeStart > body.startIndex, isSchemeCharacter(body[body.index(before: schemeStart)]) {
                schemeStart = body.index(before: schemeStart)
            }
            let lead = body[..<schemeStart]
            let scheme = body[schemeStart..<marker.lowerBound]
            return String(lead) + scheme + "://" + shownAddress(body[marker.upperBound...]) + tail
        }
        if let userEnd = credentialsEnd(in: body) {
            // `user:pass@host/…`: what comes before the credentials (a quote, `--me=`) stays.
            let userStart = body[..<userEnd].lastIndex {
                $0 == "=" || $0 == "'" || $0 == "\"" || $0 == "(" || $0 == "<"
            }
                .map { body.index(after: $0) } ?? body.startIndex
            return String(body[..<userStart]) + "…@" + shownAddress(body[body.index(after: userEnd)...]) + tail
        }
        return String(word)
    }

    /// The `@` that ends `user:password@` in a word without a scheme, or
    /// nil: an e-mail address (`ana@example.com`, `mailto:ana@…`) has none.
    private static func credentialsEnd(in word: Substring) -> Substring.Index? {
        guard let at = word.lastIndex(of: "@") else { return nil }
        let before = word[..<at]
        guard let colon = before.lastIndex(of: ":") else { return nil }
        let user = before[..<colon].drop { $0 == "=" || $0 == "'" || $0 == "\"" || $0 == "(" || $0 == "<" }
        let lowered = user.lowercased()
        if lowered.hasSuffix("mailto") || lowered.hasSuffix("tel") { return nil }
        return at
    }

    /// `user:pass@host:port/a/b/last?query#part` shown as `host:port/…/last`.
    private static func shownAddress(_ rest: Substring) -> String {
        let withoutFragment = rest[..<(rest.firstIndex { $0 == "#" || $0 == "?" } ?? rest.endIndex)]
        let authorityEnd = withoutFragment.firstIndex(of: "/") ?? withoutFragment.endIndex
        let authority = withoutFragment[..<authorityEnd]
        let host = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        let segments = withoutFragment[authorityEnd...].split(separator: "/")
        switch segments.count {
        case 0: return String(host) + (authorityEnd < withoutFragment.endIndex ? "/" : "")
        case 1: return "\(host)/\(segments[0])"
        default: return "\(host)/…/\(segments[segments.count - 1])"
        }
    }

    private static func isSchemeCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || c == "+" || c == "-" || c == ".")
    }
}
