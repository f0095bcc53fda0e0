import AgendaCore
import ArgumentParser
import Foundation
import ICalAdapter
import Subscriptions

#if canImport(Glibc)
    import Glibc
#endif

/// `ics-agenda calendars [INPUT ...]`: the calendars found, grouped by source.
struct CalendarsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendars",
        abstract: "List the calendars found, grouped by source (the folder that holds them), with their counts.",
        discussion: """
            Each calendar shows its name (X-WR-CALNAME, else the file name; a vdir collection's \
            displayname, else its folder's name), how many events and reminders it holds, and its \
            file or folder; a URL's calendar, how old its copy is.
            """
    )

    @Option(name: .long, help: "Output format: text or json (one object per calendar).")
    var format: ListingFormat = .text

    @OptionGroup var colorChoice: ColorOptions
    var color: ColorChoice { colorChoice.color }

    @OptionGroup var warnings: WarningOptions

    @OptionGroup var subscriptions: SubscriptionOptions

    @OptionGroup var naming: NamingOptions

    @OptionGroup var input: InputArguments

    func run() throws {
        Signals.ignoreBrokenPipes()
        let environment = ProcessInfo.processInfo.environment
        // Counting needs no real window: one day keeps expansion to nothing.
        let clock = ZoneClock(TimeZone(identifier: "UTC")!)
        let window = AgendaWindow.days(1, from: CivilDate(year: 2000, month: 1, day: 1), clock: clock)
        let calendars = try CommandInputs.reportingInputErrors {
            try AgendaPipeline.load(input.paths(), window: window, warnings: warnings.detail,
                fetch: subscriptions.fetch(environment: environment))
        }
        _ = CalendarChoice.apply(naming.naming, asked: [], to: calendars)
        let summaries = calendars.calendars.enumerated().map { index, loaded in
            let age = calendars.copyAges[index]
            return CalendarSummary(calendar: loaded.calendar, events: loaded.eventCount,
                reminders: loaded.reminderCount, copyAge: age ?? nil,
                isCopy: age != nil)
        }
        var out = BufferedOutput()
        let style = TerminalStyle(enabled: AgendaPipeline.useColor(color, environment: environment))
        CalendarListFormatter(style: style, format: format).write(summaries, to: &out)
        out.flush()
        try calendars.finish()
    }
}
