/// What the user asked to see, beyond the window.
package struct Selection: Sendable {
    package var includeEvents = true
    package var includeReminders = true
    package var showCompleted = false
    package var showCancelled = false
    /// List the events I declined (`--show-declined`), marked as such.
    package var showDeclined = false
    /// Only calendars with these names (`--calendar`, repeatable); empty: all.
    package var calendars: Set<String> = []
    /// Only items whose title, location or description match (`--grep`).
    package var text: TextMatcher?

    package init() {}

    /// Kind, completion, status and calendar: what an occurrence says of itself.
    func admits(_ occurrence: Occurrence) -> Bool {
        switch occurrence.item {
        case .event: guard includeEvents else { return false }
        case .reminder(let r):
            guard includeReminders else { return false }
            if r.isCompleted && !showCompleted { return false }
        }
        if !calendars.isEmpty && !(occurrence.calendar.chosen ?? calendars.contains(occurrence.calendar.name)) {
            return false
        }
        if occurrence.isDeclined && !showDeclined { return false }
        return showCancelled || !occurrence.isCancelled
    }
}

/// A pattern that a text matches or not: `--grep`'s regular expression,
/// compiled where the command line is read (`RegexPattern`).
package protocol TextPattern: Sendable {
    func matches(_ text: String) -> Bool
}

/// `--grep REGEX` over an item's title, location and description.
package final class TextMatcher: Sendable {
    package let pattern: String
    private let compiled: any TextPattern

    package init(pattern: String, compiled: any TextPattern) {
        self.pattern = pattern
        self.compiled = compiled
    }

    package func matches(_ occurrence: Occurrence) -> Bool {
        [occurrence.title, occurrence.location, occurrence.description].contains { field in
            guard let field else { return false }
            return compiled.matches(field)
        }
    }
}
