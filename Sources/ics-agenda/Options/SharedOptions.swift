import AgendaCore
import ArgumentParser

/// The options every command that reads calendars for a time takes, with
/// one meaning everywhere: the clock, the zone, the locale, which calendars
/// and items, and how strictly input is read.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Set the clock, as ISO 8601 " +
        "(2025-03-01T08:00:00+01:00); also ICS_AGENDA_NOW.", valueName: "time"))
    var now: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Display time zone: IANA name (Europe/Berlin) " +
        "or POSIX TZ string (CET-1CEST,M3.5.0,M10.5.0/3; UTC+3 is 3 hours west of UTC); default $TZ, else the " +
        "system zone.", valueName: "zone"))
    var tz: String?

    @Option(name: .long, help: ArgumentHelp("Locale of headers, times and row words (e.g. de_DE); dates are " +
        "Gregorian unless it names a calendar (fa_IR@calendar=persian); default from LC_ALL, LC_TIME, LANG, " +
        "else en_US.", valueName: "id"))
    var locale: String?

    @Option(name: .customLong("calendar"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp("Only this calendar (X-WR-CALNAME, else the file name); repeat for several.",
        valueName: "name"))
    var packedCalendars: [String] = []

    /// The calendars named, as many as were given (`CommandLineInput.packed`).
    var calendar: [String] { CommandLineInput.unpacked(packedCalendars) }

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Only items whose title, location or description match REGEX (RE2 syntax, matched in " +
            "linear time; ignores case unless REGEX has upper case).", valueName: "regex"),
        transform: { pattern in
            ParsedValue { try TextMatcher(pattern: pattern, compiled: RegexPattern(pattern)) } else: { error in
                // RE2's reason quotes a part of the pattern: not when the pattern may hold a secret.
                let reason = SecretText.mayHoldSecret(pattern)
                    ? "" : (error as? RegexPattern.Invalid).map { " (\($0.reason))" } ?? ""
                return "--grep: \"\(PrintableText.escaped(pattern))\" is not a valid regular " +
                    "expression\(PrintableText.escaped(reason))."
            }
        })
    var grep: ParsedValue<TextMatcher>?

    @Option(name: .customLong("me"), help: ArgumentHelp("My calendar address (mailto: optional, any case); repeat " +
        "for several: events I declined are left out, ones I have not accepted marked ?, and JSON's partstat says " +
        "my answer.", valueName: "address"))
    var packedMe: [String] = []

    /// My addresses, as ATTENDEE and ORGANIZER are compared with them (`CalendarAddress`).
    var me: Set<String> {
        Set(CommandLineInput.unpacked(packedMe).map(CalendarAddress.normalized).filter { !$0.isEmpty })
    }

    @Flag(name: .long, help: "List the events I declined (--me), marked as such.")
    var showDeclined = false

    @OptionGroup var naming: NamingOptions

    @Flag(name: .long, help: ArgumentHelp("Treat damaged input as an error: print the warnings (every place with " +
        "--verbose), then exit with status 65 (66 for a file in a folder that cannot be read) and print nothing else."))
    var strict = false

    func validate() throws {
        try grep?.check()
    }

    /// The calendars and text asked for; the rest of `Selection` as it comes.
    var selection: Selection {
        var s = Selection()
        s.calendars = Set(calendar)
        s.text = grep?.value
        s.showDeclined = showDeclined
        return s
    }
}

/// The days shown (`--from`, `--to`, `--days`): the agenda's and `free`'s.
struct DayRangeOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("First day shown: YYYY-MM-DD, today, tomorrow, " +
        "yesterday, +Nd, -Nd, a weekday (monday: the next one), this week, next week, this month or next month " +
        "(their first day).", valueName: "date"))
    var from: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Last day shown, included (same forms as " +
        "--from; this week, next week, this month, next month: their last day).", valueName: "date"))
    var to: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Show N days from --from (--days 1 is one day).",
        valueName: "n"))
    var days: Int?

    static let maxDays = AgendaWindow.maxDays

    func validate() throws {
        if days != nil && to != nil { throw ValidationError("Give --to or --days, not both.") }
        // At most 10,000 years: the window's dates stay within years 1 to 9999.
        if let days, days < 1 || days > DayRangeOptions.maxDays {
            throw ValidationError("--days takes a whole number of days, from 1 to \(DayRangeOptions.maxDays).")
        }
    }
}

/// `--color`: the agenda's and `calendars`'.
struct ColorOptions: ParsableArguments {
    @Option(name: .long, help: "Colour: auto (only on a terminal, never with NO_COLOR set), always or never.")
    var color: ColorChoice = .auto
}

/// What `Settings` needs to know of a command's options: the clock, the
/// zone, the locale and the days. A command gives `days` its own default
/// (the agenda none: one year; `free` a week).
protocol SettingsChoice {
    var now: String? { get }
    var tz: String? { get }
    var locale: String? { get }
    var from: String? { get }
    var to: String? { get }
    var days: Int? { get }
    /// The week's first day as the command names it (`--week-start`), for
    /// `this week` and `next week`; nil: the locale's.
    var weekStart: Int? { get throws }
}

extension SettingsChoice {
    var weekStart: Int? { nil }
}

// The formats of the listings and of `next`, AgendaCore's own, read from
// the command line as they are written (`--format json`).
extension ListingFormat: ExpressibleByArgument {}
extension UpcomingFormatter.Format: ExpressibleByArgument {}
extension AlarmFormatter.Format: ExpressibleByArgument {}
