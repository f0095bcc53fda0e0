/// A calendar's name as it is shown: one line, at most `maxCharacters`
/// characters. A name comes from the input (`X-WR-CALNAME`, a vdir's
/// `displayname` file) and heads every row of a listing; a name of a
/// megabyte, or of several lines, is damage, cut with one warning.
package enum CalendarName {
    static let maxCharacters = 256
    /// What is read of a `displayname` file: a name is one line.
    package static let maxFileBytes = 4096

    /// The first line of `text`, blanks around it taken off, cut to
    /// `maxCharacters` at a character boundary; `cut` when anything was left out.
    package static func oneLine(_ text: String) -> (name: String, cut: Bool) {
        let trimmed = text.trimmingWhitespace()
        let line = String(trimmed.prefix { $0 != "\n" && $0 != "\r" && $0 != "\r\n" }).trimmingWhitespace()
        var cut = line.count < trimmed.count
        var name = line
        if name.count > maxCharacters {
            name = String(name.prefix(maxCharacters))
            cut = true
        }
        return (name, cut)
    }

    /// The words of the warning about a name that was cut.
    package static func cutWords(_ name: String, from what: String) -> String {
        "\(what): a calendar name is one line of at most \(maxCharacters) characters; read as \"\(name.prefix(40))…\""
    }
}
