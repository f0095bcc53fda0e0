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
struct AgendaOptions: ParsableArguments, SettingsChoice {
    @OptionGroup var range: DayRangeOptions

    @OptionGroup var common: CommonOptions

    @Option(name: .long, help: "Output format: text, json (JSON Lines, one object per occurrence), markdown, html (one self-contained document) or ics (the listed occurrences as iCalendar).")
    var format: OutputFormat = .text

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Print one line per occurrence from STRING's {placeholders} instead of a format: \(TemplateFormatter.placeholders.map { "{\($0.name)}" }.joined(separator: " ")). {{ and }} are braces, \\t a tab; a value's line breaks and tabs are written \\n and \\t.", valueName: "string"),
        transform: { text in ParsedValue { try Template(text) } else: { "--template: \($0)" } })
    var template: ParsedValue<Template>?

    @Option(name: .long, help: "Sections by day (default), week (from the locale's first weekday) or month.")
    var groupBy: GroupBy = .day

    @Flag(name: .long, help: "Do not add \"Today\" and \"Tomorrow\" to those days' headers.")
    var noRelative = false

    @OptionGroup var colorChoice: ColorOptions
    var color: ColorChoice { colorChoice.color }

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

    func validate() throws {
        try template?.check()
    }

    var selection: Selection {
        var s = common.selection
        s.includeEvents = !noEvents
        s.includeReminders = !noReminders
        s.showCompleted = completed
        s.showCancelled = showCancelled
        return s
    }

    var now: String? { common.now }
    var tz: String? { common.tz }
    var locale: String? { common.locale }
    var strict: Bool { common.strict }
    var from: String? { range.from }
    var to: String? { range.to }
    var days: Int? { range.days }
}
