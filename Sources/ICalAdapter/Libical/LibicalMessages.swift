import AgendaCore
internal import CLibical

/// Turns libical's X-LIC-ERROR texts into the words of a warning.
enum LibicalMessages {
    /// The property a libical message is about, as libical names it whole:
    /// "No value for DTSTART property", "Can't parse as DATE-TIME value in
    /// DTEND property", "Invalid VALUE type for property DTEND". A message
    /// about a name, a parameter or a line names none (`Locator` finds its line).
    static func propertyName(in message: String) -> String? {
        func between(_ head: String, _ tail: String) -> String? {
            guard message.hasPrefix(head), let end = message.range(of: tail,
                range: message.index(message.startIndex, offsetBy: head.count)..<message.endIndex) else {
                return nil
            }
            let name = message[message.index(message.startIndex, offsetBy: head.count)..<end.lowerBound]
            return name.isEmpty ? nil : String(name)
        }
        if let name = between("No value for ", " property") { return name }
        if message.hasPrefix("Can't parse as "), let at = message.range(of: " value in ") {
            return between(String(message[..<at.upperBound]), " property")
        }
        if let name = between("Invalid VALUE type for property ", ":") { return name }
        return nil
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
        return icalproperty_string_to_kind(name) == ICAL_X_PROPERTY
            || icalproperty_string_to_kind(name) == ICAL_NO_PROPERTY
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

    /// The words of a warning for an X-LIC-ERROR, in this program's words
    /// (`LibicalWording`): never libical's own, which name a part of a name
    /// ("PERCENT" for `PERCENT_COMPLETE`) and quote lines unbounded.
    static func describe(_ message: String, property: String?) -> String {
        if property == "RRULE" || property == "EXRULE", message.contains("RECUR"),
            let value = removedValue(in: message) {
            return RuleDiagnosis.explain(value) + "; the rule is ignored"
        }
        return LibicalWording.words(for: message, property: property)
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
        // (libical's message names no property for these: `property` is nil.)
        return property.map(ComponentReader.readsProperty) ?? true
    }
}
