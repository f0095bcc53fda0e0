import AgendaCore

/// libical's X-LIC-ERROR texts said again in this program's words, one
/// shape each, with the whole name, parameter or value quoted as written
/// (at most `maxQuoted` characters, control characters escaped) and what
/// is wrong with it. libical's own words are never shown: they name a part
/// of a name (`PERCENT: Parse error in property name: PERCENT_COMPLETE`),
/// quote lines of any length, and say nothing of what to mend.
///
/// The shapes (libical 3.0, `icalparser.c`), each with the text it quotes
/// after ": ": a property name, a component name, a parameter (name and
/// value), a parameter value, a VALUE type, a data line, an empty value, a
/// value of some type; and the end of input inside a component.
enum LibicalWording {
    static let maxQuoted = 80

    /// Where the line a message is about is found (`LineFinder`): libical
    /// names no property for these.
    enum Locator {
        /// The line of a property name as written.
        case name(String)
        /// The line that carries a parameter (`;` and this text).
        case parameter(String)
        /// A line as written.
        case line(String)
    }

    /// The message's shape: its prefix, and what it quotes after it.
    private static func split(_ message: String, _ prefix: String) -> String? {
        guard message.hasPrefix(prefix) else { return nil }
        var rest = message.dropFirst(prefix.count)
        if rest.first == ":" { rest = rest.dropFirst() }
        if rest.first == " " { rest = rest.dropFirst() }
        return String(rest)
    }

    static let propertyNameError = "Parse error in property name"
    static let componentNameError = "Parse error in component name"
    static let parameterNameError = "Can't parse parameter name"
    static let parameterValueError = "Can't parse parameter value"
    static let dataLineError = "Got a data line, but could not find a property name or component begin tag"

    /// How to find the line of a message that names no property; nil for one that does.
    static func locator(for message: String) -> Locator? {
        if let name = split(message, propertyNameError) { return .name(name) }
        if let parameter = split(message, parameterNameError) ?? split(message, parameterValueError) {
            return .parameter(parameter)
        }
        if let line = split(message, dataLineError) { return .line(line) }
        return nil
    }

    /// The words for one X-LIC-ERROR `message` about `property` (nil when
    /// libical names none).
    static func words(for message: String, property: String?) -> String {
        if let name = split(message, propertyNameError) {
            return nameWords("property name", name) + "; the line is ignored"
        }
        if let name = split(message, componentNameError) {
            return nameWords("component name", name) + "; the component is ignored"
        }
        if let parameter = split(message, parameterNameError) { return parameterWords(parameter) }
        if let parameter = split(message, parameterValueError) {
            return "parameter \(quote(parameter)): its value is not one this parameter can take; the parameter " +
                "is ignored"
        }
        if message.hasPrefix("Invalid VALUE type for property"),
            let type = message.split(separator: ":", maxSplits: 1).last {
            let shown = String(type).trimmingWhitespace()
            return "\(quote(shown)) is not a value type \(property ?? "this property") can take (RFC 5545 3.2.20); " +
                "read as its own type"
        }
        if let line = split(message, dataLineError) { return lineWords(line) }
        if message.hasPrefix("No value for ") {
            return "the value is empty, which \(property ?? "this property") cannot be; ignored"
        }
        if message.hasPrefix("Can't parse as "), let value = LibicalMessages.removedValue(in: message) ?? Optional(""),
            let at = message.range(of: " value in ")
        {
            let type = String(message[message.index(message.startIndex,
                offsetBy: "Can't parse as ".count)..<at.lowerBound])
            return "cannot read \(quote(value)) as \(typeWords[type] ?? "a value of type \(quote(type))")"
        }
        if message.hasPrefix("Missing END tag") {
            return "the component has no END line; read up to where the input ends"
        }
        return "cannot be read as iCalendar (RFC 5545 3.1); ignored"
    }

    static let typeWords = [
        "DATE-TIME": "a date-time", "DATE": "a date", "DURATION": "a duration", "PERIOD": "a period",
            "INTEGER": "a whole number",
        "UTC-OFFSET": "a UTC offset", "FLOAT": "a number", "GEO": "a latitude;longitude pair",
            "BOOLEAN": "TRUE or FALSE",
        "TIME": "a time", "URI": "a URI", "CAL-ADDRESS": "a calendar address", "RECUR": "a recurrence rule",
        "BINARY": "base64 data", "TEXT": "text",
    ]

    /// A name (of a property or component) that is not one: which character is not allowed in it.
    static func nameWords(_ what: String, _ name: String) -> String {
        guard let bad = name.unicodeScalars.first(where: { !isNameScalar($0) }) else {
            return name.isEmpty ? "a line without a \(what)" : "\(what) \(quote(name)) cannot be read"
        }
        let shown = bad == " " ? "a blank" : bad == "\t" ? "a tab" : quote(String(bad))
        return "\(what) \(quote(name)): \(shown) is not allowed in a name (letters A-Z, digits and \"-\" only, " +
            "RFC 5545 3.1)"
    }

    /// `iana-token` and `x-name` characters (RFC 5545 3.1): ASCII letters, digits, `-`.
    static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            || scalar == "-")
    }

    /// A parameter libical could not read: no `=`, no name, or a bad name.
    static func parameterWords(_ parameter: String) -> String {
        let ignored = "; the parameter is ignored"
        if parameter.isEmpty || parameter == ";" { return "an empty parameter (\";;\" or \";:\")" + ignored }
        guard let equals = parameter.firstIndex(of: "=") else {
            return "parameter \(quote(parameter)) has no \"=\" and value (a parameter is NAME=value, RFC 5545 3.2)"
                + ignored
        }
        let name = String(parameter[..<equals])
        if name.isEmpty { return "parameter \(quote(parameter)) has no name before its \"=\" (RFC 5545 3.2)" + ignored }
        if name.unicodeScalars.contains(where: { !isNameScalar($0) }) {
            return nameWords("parameter name", name) + ignored
        }
        return "parameter \(quote(parameter)) cannot be read (RFC 5545 3.2)" + ignored
    }

    /// A line that is no content line (`NAME:value`).
    static func lineWords(_ line: String) -> String {
        if line.hasPrefix(":") {
            return "line \(quote(line)) has no property name before its \":\" (RFC 5545 3.1); ignored"
        }
        if !line.contains(":") {
            return "line \(quote(line)) has no \":\" (a content line is NAME:value, RFC 5545 3.1); ignored"
        }
        return "line \(quote(line)) is no content line (NAME:value, RFC 5545 3.1); ignored"
    }

    /// Text as a warning quotes it: in double quotes, control characters
    /// escaped, at most `maxQuoted` characters (then "…").
    static func quote(_ text: String) -> String {
        // A double quote inside would end the quotation (`Warning.kind` drops what is quoted).
        var shown = PrintableText.escaped(text).replacing("\"", with: "'")
        if shown.count > maxQuoted { shown = String(shown.prefix(maxQuoted)) + "…" }
        return "\"\(shown)\""
    }
}
