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

/// How the agenda is written: format or template, sections, relative headers.
struct PresentationOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Output format: text, json (JSON Lines, one object per occurrence), " +
        "markdown, html (one self-contained document) or ics (the listed occurrences as iCalendar)."))
    var format: OutputFormat = .text

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Print one line per occurrence from STRING's {placeholders} instead of a format: " +
            "\(TemplateFormatter.placeholders.map { "{\($0.name)}" }.joined(separator: " ")). {{ and }} are braces, " +
            "\\t a tab; a value's line breaks and tabs are written \\n and \\t. " +
            "{start}, {end}, {due} and {recurrence_id} take a strftime format: {start:%H:%M}, {end:%a %d}.",
            valueName: "string"),
        transform: { text in ParsedValue { try Template(text) } else: { "--template: \($0)" } })
    var template: ParsedValue<Template>?

    @Flag(name: .long, help: ArgumentHelp("With --format ics: print each component that has a listed occurrence " +
        "whole, as the " +
        "input wrote it (its RRULE, RDATE, EXDATE, overrides, VALARMs and the VTIMEZONEs it needs), each UID once " +
        "per calendar, instead of each occurrence: a merge and filter of calendars that keeps their series."))
    var series = false

    @Option(name: .long, help: "Sections by day (default), week (from the locale's first weekday) or month.")
    var groupBy: GroupBy = .day

    @Flag(name: .long, help: "Do not add \"Today\" and \"Tomorrow\" to those days' headers.")
    var noRelative = false

    func validate() throws {
        try template?.check()
        if series && (format != .ics || template != nil) {
            throw ValidationError("--series needs --format ics (without --template): it prints the components whole, " +
                "as iCalendar")
        }
    }
}

/// What the agenda lists of the items read, and what it shows of each.
struct ListingOptions: ParsableArguments {
    @Flag(name: .long, help: "Leave events (VEVENT) out.")
    var noEvents = false

    @Flag(name: .long, help: "Leave reminders (VTODO) out.")
    var noReminders = false

    @Flag(name: .long, help: "Include completed reminders.")
    var completed = false

    @Flag(name: .long, help: "List cancelled occurrences (STATUS:CANCELLED), marked as such.")
    var showCancelled = false

    @Flag(name: .long, help: "Show each row's calendar name.")
    var showCalendar = false

    /// The selection with these kinds of rows: `--no-events`, `--no-reminders`, `--completed`, `--show-cancelled`.
    func applied(to selection: Selection) -> Selection {
        var s = selection
        s.includeEvents = !noEvents
        s.includeReminders = !noReminders
        s.showCompleted = completed
        s.showCancelled = showCancelled
        return s
    }
}

/// The options that say what to show and how: window, zone, locale, selection, format.
struct AgendaOptions: SettingsChoice {
    let range: DayRangeOptions
    let common: CommonOptions
    let warnings: WarningOptions
    let presentation: PresentationOptions
    let colorChoice: ColorOptions
    let listing: ListingOptions

    var format: OutputFormat { presentation.format }
    var template: ParsedValue<Template>? { presentation.template }
    var groupBy: GroupBy { presentation.groupBy }
    var noRelative: Bool { presentation.noRelative }
    var color: ColorChoice { colorChoice.color }
    var showCalendar: Bool { listing.showCalendar }
    /// `--format ics` writes each item's VALARMs, so they are read.
    var writesAlarms: Bool { format == .ics && template == nil }
    /// `--series`: each item keeps its component's text, to be written whole.
    var writesSeries: Bool { writesAlarms && presentation.series }

    var selection: Selection { listing.applied(to: common.selection) }

    var now: String? { common.now }
    var tz: String? { common.tz }
    var locale: String? { common.locale }
    var strict: Bool { common.strict }
    var from: String? { range.from }
    var to: String? { range.to }
    var days: Int? { range.days }
}
