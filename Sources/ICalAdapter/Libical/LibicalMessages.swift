import AgendaCore
internal import CLibical

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

    /// Whether an X-LIC-ERROR is about input that breaks RFC 5545. libical
    /// also marks two things the RFC allows, which get no warning:
    /// - an empty value of a TEXT property (3.3.11: `text = *(TSAFE-CHAR /
    ///   ":" / DQUOTE / ESCAPED-CHAR)` may be empty): Google writes
    ///   `LOCATION:` and `DESCRIPTION:` on every event. Non-standard
    ///   properties (`X-…`, and IANA names libical does not know) are TEXT
    ///   unless they say otherwise (3.8.8.1, 3.8.8.2).
    /// - a property name it does not know that is a valid `iana-token`
    ///   (`EVENT-ID`, `LINK`): 3.8.8.2 says such properties are ignored.
    /// Everything else it marks (an empty `ATTENDEE:` or `RRULE:`, a date
    /// that is not one, a VALUE type the property cannot take) is damage.
    static func isDamage(_ message: String, property: String?) -> Bool {
        if message.hasPrefix("No value for ") {
            guard let property else { return false }  // "No value for X property": an X- name
            return !emptyTextAllowed(property)
        }
        let unknownName = "Parse error in property name: "
        if message.hasPrefix(unknownName) {
            // The whole name up to the colon: `Room 4: bring laptops`, an
            // unfolded line of text, is not one.
            let name = message.dropFirst(unknownName.count).trimmingCharacters(in: .whitespaces)
            return name.isEmpty || !name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
        return true
    }

    /// Whether `name` is a property iCalendar defines (not an `X-` name, not a mangled word).
    static func isKnownProperty(_ name: String) -> Bool {
        let kind = icalproperty_string_to_kind(name)
        return kind != ICAL_X_PROPERTY && kind != ICAL_NO_PROPERTY
    }

    /// Properties whose value is TEXT (RFC 5545 3.8.1-3.8.8), or a list of
    /// TEXT (CATEGORIES, RESOURCES), so that an empty value is valid.
    static func emptyTextAllowed(_ property: String) -> Bool {
        let name = property.uppercased()
        if name.hasPrefix("X-") { return true }
        if textProperties.contains(name) { return true }
        // A name libical has no table for is non-standard, read as TEXT.
        return icalproperty_string_to_kind(name) == ICAL_X_PROPERTY || icalproperty_string_to_kind(name) == ICAL_NO_PROPERTY
    }

    private static let textProperties: Set<String> = [
        "SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT", "CONTACT", "CATEGORIES", "RESOURCES",
        "RELATED-TO", "UID", "TZNAME", "PRODID", "NAME", "COLOR", "IMAGE-TEXT",
    ]

    /// The value libical quotes after "Removing entire property:", if any.
    static func removedValue(in message: String) -> String? {
        guard let range = message.range(of: "Removing entire property:") else { return nil }
        let value = String(message[range.upperBound...]).trimmingWhitespace()
        return value.isEmpty ? nil : value
    }

    /// The words of a warning for an X-LIC-ERROR: libical's message, or for
    /// a rule it refused, which part of the rule is at fault.
    static func describe(_ message: String, property: String?) -> String {
        if property == "RRULE" || property == "EXRULE", message.contains("RECUR"), let value = removedValue(in: message) {
            return RuleDiagnosis.explain(value) + "; the rule is ignored"
        }
        // "Can't parse as DATE-TIME value in DTSTART property. Removing entire property: next tuesday"
        let prefix = "Can't parse as "
        if message.hasPrefix(prefix), let value = removedValue(in: message),
            let end = message.range(of: " value", range: message.index(message.startIndex, offsetBy: prefix.count)..<message.endIndex)
        {
            let type = String(message[message.index(message.startIndex, offsetBy: prefix.count)..<end.lowerBound])
            let words = ["DATE-TIME": "a date-time", "DATE": "a date", "DURATION": "a duration", "PERIOD": "a period",
                "INTEGER": "a number", "UTC-OFFSET": "a UTC offset", "FLOAT": "a number"][type] ?? "a \(type) value"
            let shown = value.count > 80 ? String(value.prefix(80)) + "…" : value
            return "cannot read \"\(shown)\" as \(words)"
        }
        return clean(message)
    }

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

/// The one place that decides whether what libical marked is damage, and
/// whether it is told (`DamageKind`'s table is AgendaCore's; reading
/// libical's words is this folder's).
extension DamageKind {
    /// Whether a mark libical left (`X-LIC-ERROR`) is damage at all: not an
    /// empty TEXT value, nor a property name the reader does not know
    /// (`LibicalMessages.isDamage` reads its words; the table of them is in
    /// docs/WARNINGS.md).
    static func isDamage(libicalMark message: String, property: String?) -> Bool {
        LibicalMessages.isDamage(message, property: property)
    }

    /// Whether a problem libical marked (or one found in a value) is told:
    /// with `isDamage(libicalMark:)`, the one place that decides, for every
    /// mode alike. A property the
    /// agenda does not read (an empty `ATTENDEE:`, an unreadable `GEO`)
    /// changes nothing listed: RFC 5545 is broken there, but it is not
    /// damage to the agenda, and no mode tells it. A line that is no
    /// content line at all may be any property, mangled: it is told.
    static func isTold(property: String?, message: String) -> Bool {
        // A line that is no content line, or whose name is not one
        // (`FOO BAR:baz`, `ATTENDEE X:…`): the word that looks like a
        // property may be any, so it is told.
        if message.hasPrefix("Got a data line") || message.hasPrefix("Parse error in property name") { return true }
        return property.map(ComponentReader.readsProperty) ?? true
    }
}
