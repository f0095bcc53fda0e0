/// Every kind of damage the adapter tells of, in one table: each warning
/// names its row (`Warning.damage`), docs/WARNINGS.md lists the rows (a test
/// writes that table from this one and fails when the two differ), and a
/// test shows each row on an input in the three modes.
///
/// One judgement for every mode: what is found here is damage, and damage
/// is told by default (once a kind a file), at each place with `--verbose`,
/// and fails `--strict`; `--quiet` tells nothing and changes no exit
/// status. What is not damage is not found here at all: an empty TEXT
/// value, a property name the reader does not know, and libical's marks on
/// a property the agenda does not read (`isTold`), in any mode.
package enum DamageKind: String, CaseIterable, Sendable {
    case framing
    case tooManyInnerComponents
    case tooManyLines
    case componentTooLarge
    case gluedLines
    case indented
    case cutAfterComponent
    case fileChanged
    case controlCharacters
    case notUTF8
    case brokenUTF8
    case tooManyRules
    case unreadableComponent
    case libicalMark
    case unreadableDate
    case repeatedProperty
    case noStart
    case endBeforeStart
    case sequenceRange
    case durationGrammar
    case valueNotAllowed
    case pastYear9999
    case ruleGrammar
    case ruleUnbounded
    case unknownZone
    case guessedZone
    case zoneWithoutTZID
    case tooManyZones
    case zoneRuleCost
    case sharedUID
    case orphanOverrideRule

    /// The row of docs/WARNINGS.md: what the warning says, why it is
    /// damage, and where RFC 5545 says so.
    package var row: (warning: String, damage: String, rfc: String) {
        switch self {
        case .framing:
            ("a component not closed, an inner one not closed, a stray `END`, nesting over 32 deep",
             "missing or extra `END` lines", "3.4, 3.6")
        case .tooManyInnerComponents:
            ("more than 10,000 components inside one (a million `VALARM`s in a VEVENT): the first 10,000 are kept",
             "not damage by the grammar, but no real component holds so many, and libical keeps each in about " +
                 "a kilobyte", "3.6.6")
        case .tooManyLines:
            ("more than 100,000 lines in one component (a million `ATTENDEE`s): past the 100,000th only `UID`, " +
                "`DTSTART`, `DTEND`, `DUE`, "
                + "`DURATION`, `SUMMARY`, `RRULE`, `RDATE`, `EXDATE`, `RECURRENCE-ID`, `SEQUENCE`, `STATUS`, " +
                    "`DTSTAMP`, `LAST-MODIFIED` (and a "
                + "zone's `TZID`, `TZOFFSETFROM`, `TZOFFSETTO`) are read, at most 100 of each (200,000 `EXDATE`s do " +
                    "not push out a `DTSTART` "
                + "after them); the warning counts the lines left out",
             "not damage by the grammar, but no real component holds so many, and libical reads a million in tens of " +
                 "seconds and a gigabyte",
             "3.6")
        case .componentTooLarge:
            ("one component, or a stretch of text with none, larger than 64 MB: skipped",
             "not damage by the grammar, but no real component is so large, and libical would hold it several " +
                 "times over", "3.6")
        case .gluedLines:
            ("lines glued together (`END:VCALENDARBEGIN:VCALENDAR`)", "two content lines without the CRLF between them",
                "3.1")
        case .indented:
            ("every line of a component indented", "a line that starts with a blank is a fold: as written, the " +
                "component is one line", "3.1")
        case .cutAfterComponent:
            ("the file ends after a component without `END:VCALENDAR`",
                "`icalbody` ends with `END:VCALENDAR`; what followed may be missing",
             "3.4")
        case .fileChanged:
            ("the file was cut, or rewritten, while it was read (told once, first; the warnings of what lay past the " +
                "cut, read as zeros, "
                + "are left out)", "not of the text: the file under the reader changed", "—")
        case .controlCharacters:
            ("NUL bytes and control characters (C0 and DEL; not C1, which UTF-8 text may hold); a run of NULs (a " +
                "file preallocated, "
                + "or cut by a crash) is cut out and told where it starts, and what came before it is read",
             "only HTAB is allowed among the controls", "3.1, 3.3.11")
        case .notUTF8:
            ("text that is not UTF-8: read as Latin-1 (Windows-1252)", "the charset is UTF-8", "3.1.4")
        case .brokenUTF8:
            ("UTF-8 text with broken bytes: each replaced by U+FFFD", "the charset is UTF-8", "3.1.4")
        case .tooManyRules:
            ("more than 1,000 rules (`RRULE`, `EXRULE`) in one component: the later ones are ignored",
             "one `RRULE` a component (`EXRULE` is deprecated); libical takes time that grows with the square of them",
                 "3.6.1")
        case .unreadableComponent:
            ("a component libical cannot read at all: skipped", "not a component by the grammar", "3.4, 3.6")
        case .libicalMark:
            ("a property libical marks unreadable (`X-LIC-ERROR`; the table above), in a property the agenda reads, " +
                "or a line that is "
                + "no content line", "the value, parameter or line grammar of the property", "3.1, 3.2, 3.3")
        case .unreadableDate:
            ("an unreadable date (month 13, 25 o'clock, February 30)", "not a `date` / `time`", "3.3.4, 3.3.12")
        case .repeatedProperty:
            ("a property RFC 5545 allows once given twice or more (`DTSTART`, `SUMMARY`, `UID`, …): the first is read",
             "`eventprop` and `todoprop` allow them once", "3.6.1, 3.6.2")
        case .noStart:
            ("an event without `DTSTART` (not told in a calendar with `METHOD`)",
                "`DTSTART` is required when there is no `METHOD`", "3.6.1")
        case .endBeforeStart:
            ("`DTEND` before `DTSTART`, or a negative `DURATION` (left out: the event lasts as if it had none, in " +
                "every window alike); an "
                + "all-day `DTEND` on the `DTSTART` day (read as one day); a reminder's `DUE` before its `DTSTART` " +
                    "(due at the start)",
             "`DTEND` and `DUE` must be later than `DTSTART`; an all-day event's `DTEND` is the day after its last",
             "3.8.2.2, 3.8.2.3, 3.8.2.5, 3.6.1")
        case .sequenceRange:
            ("a `SEQUENCE` that is not a whole number from -2147483648 to 2147483647 (signed, as every INTEGER: read " +
                "as written, so "
                + "that the higher revision still wins; libical would wrap it)", "`integer` range", "3.3.8, 3.8.7.4")
        case .durationGrammar:
            ("a `DURATION` the grammar does not allow (`PT90`, no unit): ignored, where libical reads some span",
                "`dur-value`", "3.3.6")
        case .valueNotAllowed:
            ("a `PRIORITY` that is not a whole number from 0 to 9, a `PERCENT-COMPLETE` not from 0 to 100 " +
                "(`PRIORITY:high`, "
                + "`PERCENT-COMPLETE:50abc`): ignored, where libical reads some number; a `STATUS` the component " +
                    "cannot have "
                + "(`STATUS:CANCELED`, not `CANCELLED`): ignored",
             "the `integer` range of the property, the status values of VEVENT and VTODO", "3.8.1.8, 3.8.1.9, 3.8.1.11")
        case .pastYear9999:
            ("a `DURATION` that ends after 9999-12-31: read as ending on that day",
                "a `date` has four digits for its year", "3.3.4, 3.3.6")
        case .ruleGrammar:
            ("a rule part that is not valid (`FREQ=FORTNIGHTLY`, `BYDAY=XX`, no `FREQ`, `UNTIL` with `COUNT`), or " +
                "mended slips "
                + "(`FREQ=DAILY\\;COUNT=3`)", "the `recur` grammar", "3.3.10")
        case .ruleUnbounded:
            ("a rule that matches no date, or that cannot be walked in bounded time, or a series cut at 100,000 rows " +
                "or at the file's budget",
             "valid, but it would list nothing, or hang: what was not listed is said", "3.3.10, 3.8.5.3")
        case .unknownZone:
            ("a TZID no VTIMEZONE defines and no zone database knows, or whose VTIMEZONE is unusable (no usable " +
                "`STANDARD` or `DAYLIGHT`, "
                + "an offset of 24 hours or more such as `TZOFFSETTO:+2400`): read as floating",
             "every TZID needs its VTIMEZONE; `utc-offset` hours are 00 to 23", "3.2.19, 3.6.5, 3.3.14")
        case .guessedZone:
            ("a TZID no VTIMEZONE defines whose display name tells the zone (`(UTC+01:00) Amsterdam, Berlin…`): read " +
                "in that zone",
             "every TZID needs its VTIMEZONE", "3.2.19, 3.6.5")
        case .zoneWithoutTZID:
            ("a VTIMEZONE without `TZID`: ignored", "`TZID` is required in a VTIMEZONE", "3.6.5")
        case .tooManyZones:
            ("more than 10,000 time zones defined in one file: the later ones are ignored (their TZIDs are read as " +
                "if not defined)",
             "not damage by the grammar, but no real file needs so many, and each costs libical its expansion", "3.6.5")
        case .zoneRuleCost:
            ("a VTIMEZONE rule that changes the offset every hour or more often, or a zone (or a file's zones) that " +
                "would make more "
                + "offset changes than a real zone: those rules are ignored",
                    "no real zone does so; libical would expand each change", "3.6.5")
        case .sharedUID:
            ("a UID shared by components that cannot be revisions of one another (none recurs, the same `SEQUENCE`, " +
                "another `DTSTART` "
                + "or `SUMMARY`): all are listed", "a UID names one item", "3.8.4.7")
        case .orphanOverrideRule:
            ("an override (`RECURRENCE-ID`) with its own `RRULE` or `RDATE` and no series of its UID in the file: " +
                "its own recurrence set is listed",
             "an override replaces one instance of a series the calendar holds", "3.8.4.4")
        }
    }
}
