import AgendaCore
import ArgumentParser
import Foundation

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, markdown, html, ics
}

enum GroupBy: String, ExpressibleByArgument, CaseIterable {
    case day, week, month
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// The options that say what to show and how: window, zone, locale, selection, format.
struct AgendaOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("First day shown: YYYY-MM-DD, today, tomorrow, yesterday, +Nd or -Nd.", valueName: "date"))
    var from: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Last day shown, included (same forms as --from).", valueName: "date"))
    var to: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Show N days from --from (--days 1 is one day).", valueName: "n"))
    var days: Int?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Set the clock, as ISO 8601 (2025-03-01T08:00:00+01:00); also ICS_AGENDA_NOW.", valueName: "time"))
    var now: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Display time zone: IANA name (Europe/Berlin) or POSIX TZ string (CET-1CEST,M3.5.0,M10.5.0/3; UTC+3 is 3 hours west of UTC); default $TZ, else the system zone.", valueName: "zone"))
    var tz: String?

    @Option(name: .long, help: ArgumentHelp("Locale of headers, times and row words (e.g. de_DE); dates are Gregorian unless it names a calendar (fa_IR@calendar=persian); default from LC_ALL, LC_TIME, LANG, else en_US.", valueName: "id"))
    var locale: String?

    @Option(name: .long, help: "Output format: text, json (JSON Lines, one object per occurrence), markdown, html (one self-contained document) or ics (the listed occurrences as iCalendar).")
    var format: OutputFormat = .text

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Print one line per occurrence from STRING's {placeholders} instead of a format: \(TemplateFormatter.placeholders.map { "{\($0.name)}" }.joined(separator: " ")). {{ and }} are braces, \\t a tab; a value's line breaks and tabs are written \\n and \\t.", valueName: "string"))
    var template: String?

    @Option(name: .long, help: "Sections by day (default), week (from the locale's first weekday) or month.")
    var groupBy: GroupBy = .day

    @Flag(name: .long, help: "Do not add \"Today\" and \"Tomorrow\" to those days' headers.")
    var noRelative = false

    @Option(name: .long, help: "Colour: auto (only on a terminal, never with NO_COLOR set), always or never.")
    var color: ColorChoice = .auto

    @Flag(name: .long, help: "Leave events (VEVENT) out.")
    var noEvents = false

    @Flag(name: .long, help: "Leave reminders (VTODO) out.")
    var noReminders = false

    @Flag(name: .long, help: "Include completed reminders.")
    var completed = false

    @Flag(name: .long, help: "List cancelled occurrences (STATUS:CANCELLED), marked as such.")
    var showCancelled = false

    @Option(name: .long, parsing: .unconditionalSingleValue, help: ArgumentHelp("Only this calendar (X-WR-CALNAME, else the file name); repeat for several.", valueName: "name"))
    var calendar: [String] = []

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Only items whose title, location or description match REGEX (ignores case unless REGEX has upper case).", valueName: "regex"))
    var grep: String?

    @Flag(name: .long, help: "Show each row's calendar name.")
    var showCalendar = false

    @Flag(name: .long, help: "Treat damaged input as an error: print the warnings (every place with --verbose), then exit with status 65 (66 for a file in a folder that cannot be read) and print no agenda.")
    var strict = false

    static let maxDays = AgendaWindow.maxDays

    func validate() throws {
        if days != nil && to != nil { throw ValidationError("Give --to or --days, not both.") }
        // At most 10,000 years: the window's dates stay within years 1 to 9999.
        if let days, days < 1 || days > AgendaOptions.maxDays {
            throw ValidationError("--days takes a whole number of days, from 1 to \(AgendaOptions.maxDays).")
        }
        if let template {
            do { _ = try TemplateFormatter(template: template, formats: LocaleFormats(localeIdentifier: "en_US", clock: ZoneClock(.gmt))) } catch {
                throw ValidationError("--template: \(error)")
            }
        }
        if let grep {
            do { _ = try TextMatcher(pattern: grep) } catch { throw ValidationError("--grep: \"\(grep)\" is not a valid regular expression.") }
        }
    }

    var selection: Selection {
        var s = Selection()
        s.calendars = Set(calendar)
        s.text = grep.flatMap { try? TextMatcher(pattern: $0) }
        s.includeEvents = !noEvents
        s.includeReminders = !noReminders
        s.showCompleted = completed
        s.showCancelled = showCancelled
        return s
    }
}
