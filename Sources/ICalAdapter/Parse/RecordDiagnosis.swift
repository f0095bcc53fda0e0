import AgendaCore

/// The warnings about one record, each on its line: what libical found
/// wrong, values that cannot be read, properties given twice, zones guessed
/// or unknown, and an event that cannot be placed (no DTSTART). Lines
/// rewritten before libical read them (`PropertyGuard`) come among them in
/// the order of their lines.
struct RecordDiagnosis {
    let lines: LineFinder
    /// Where the component starts: the line of a warning no property places.
    let line: Int
    let zones: ZoneTable
    private var notes: ArraySlice<PropertyGuard.Note>
    private(set) var warnings: [Warning] = []

    init(lines: LineFinder, line: Int, zones: ZoneTable, notes: [PropertyGuard.Note]) {
        self.lines = lines
        self.line = line
        self.zones = zones
        self.notes = notes[...]
    }

    /// - Parameter inITIPMessage: an event in an iTIP message may have no DTSTART.
    mutating func tell(_ record: ComponentRecord, inITIPMessage: Bool) {
        let label = ParsedComponent.label(record)
        // An event without a usable DTSTART cannot be placed: it is skipped,
        // and the warning about its DTSTART says so.
        let skipped = record.kind == .event && record.dtstart == nil
        var startExplained = false
        for problem in record.problems {
            guard let told = told(problem) else { continue }
            let at = told.line ?? told.property.flatMap { lines.find($0, value: told.value)?.line } ?? line
            let isStart = skipped && told.property == "DTSTART"
            startExplained = startExplained || isStart
            let isRecurrenceID = record.unreadableRecurrenceID && told.property == "RECURRENCE-ID"
            let outcome = (isStart ? "; skipped" : "") + (isRecurrenceID
                ? "; the instance it changes is unknown, so it is skipped" : "")
                + (told.property == "TRIGGER" ? "; the alarm never rings" : "")
            let text = "\(told.property.map { "\($0): " } ?? "")\(told.message) (in \(label))\(outcome)"
            // The kind: the property (when it is one iCalendar knows, not the
            // first word of a mangled line) and what is wrong up to any
            // value quoted after a colon ("Got a data line…: some text").
            let named = told.property.flatMap { LibicalMessages.isKnownProperty($0) ? "\($0): " : nil } ?? ""
            let what = Warning.kind(describing: told.message).split(separator: ":", maxSplits: 1).first.map(String.init)
                ?? ""
            notesBefore(at, label)
            warnings.append(Warning(at, told.damage, named + what + outcome, text))
        }
        for guess in record.guessedZones {
            let at = lines.find(guess.property)?.line ?? line
            warnings.append(Warning(at, .guessedZone, "guessed zone \(guess.tzid)",
                "\(guess.property): time zone \"\(guess.tzid)\" is defined nowhere in the file; read as " +
                    "\(guess.iana), the zone its name describes"))
        }
        notesBefore(Int.max, label)
        for unknown in record.unknownZones {
            let at = lines.find(unknown.property)?.line ?? line
            let why = zones.isUnusable(unknown.tzid) ? " (its VTIMEZONE has no usable STANDARD or DAYLIGHT rule)" : ""
            warnings.append(Warning(at, .unknownZone, "unknown zone\(why.isEmpty ? "" : " unusable")",
                "\(unknown.property): unknown time zone \"\(unknown.tzid)\"\(why); read as floating time"))
        }
        // An override whose RECURRENCE-ID cannot be read is left out (the
        // warning above says so). RFC 5545 3.6.1: DTSTART may be left out
        // when the calendar has a METHOD (an iTIP message: a cancellation, a
        // reply); there is then nothing to place, and nothing wrong.
        if skipped && !record.unreadableRecurrenceID && !startExplained && !inITIPMessage {
            warnings.append(Warning(line, .noStart, "no DTSTART", "\(label) has no DTSTART; skipped"))
        }
    }

    /// One problem as told: its property, words and damage, and its line
    /// when known here (else found by property and value); nil when not told.
    private func told(_ problem: ComponentRecord.Problem) -> (property: String?, message: String, damage: DamageKind,
        value: String?, line: Int?)? {
        let property: String?, message: String, damage: DamageKind
        var value: String? = nil
        var foundLine: Int? = nil
        switch problem {
        case .libical(let name, let text, let quoted, let kind, let locator):
            message = text
            value = quoted
            damage = kind
            // A name, parameter or line libical could not read: found by its text.
            let found = locator.flatMap(lines.find)
            property = name ?? found?.property
            foundLine = found?.line
        case .invalidTime(let name, let written):
            property = name
            damage = .unreadableDate
            let found = lines.find(name, value: written)
            message = "cannot read\(found.map { " \"\($0.value)\"" } ?? "") as a date or date-time"
            foundLine = found?.line
        case .repeated(let name, let times):
            property = name
            damage = .repeatedProperty
            message = "given \(times) times in one component (RFC 5545 allows one); the first is read"
            foundLine = lines.find(name, occurrence: 1)?.line
        }
        guard DamageKind.isTold(property: property, message: message) else { return nil }
        return (property, message, damage, value, foundLine)
    }

    /// The rewritten lines up to `at`, told before what is on it.
    private mutating func notesBefore(_ at: Int, _ label: String) {
        while let note = notes.first, note.line <= at {
            warnings.append(Warning(note.line, note.damage, "\(note.property): \(note.message) (in \(label))"))
            notes = notes.dropFirst()
        }
    }
}
