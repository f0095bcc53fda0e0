/// Splits one line of the configuration file into words, as a shell would
/// split a command line: blanks separate words, `'...'` keeps everything
/// inside, `"..."` keeps everything but `\"` and `\\`, a backslash outside
/// quotes keeps the next character, and `#` at the start of a word begins a
/// comment. Only the words are found here; what they mean is the argument
/// parser's to say.
enum ConfigWords {
    struct Unterminated: Error, CustomStringConvertible {
        let quote: Character
        var description: String { "a \(quote) quote is not closed on this line" }
    }

    static func split(_ line: Substring) throws -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var chars = line.makeIterator()
        while let c = chars.next() {
            switch c {
            case " ", "\t", "\r":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "#" where !inWord:
                return words
            case "'":
                inWord = true
                var closed = false
                while let q = chars.next() {
                    if q == "'" { closed = true; break }
                    word.append(q)
                }
                if !closed { throw Unterminated(quote: "'") }
            case "\"":
                inWord = true
                var closed = false
                while let q = chars.next() {
                    if q == "\"" { closed = true; break }
                    if q == "\\" {
                        guard let next = chars.next() else { break }
                        if next != "\"" && next != "\\" { word.append("\\") }
                        word.append(next)
                    } else {
                        word.append(q)
                    }
                }
                if !closed { throw Unterminated(quote: "\"") }
            case "\\":
                inWord = true
                if let next = chars.next() { word.append(next) }
            default:
                inWord = true
                word.append(c)
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
