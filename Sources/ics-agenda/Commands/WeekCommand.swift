import AgendaCore
import ArgumentParser
import Foundation

/// `ics-agenda week [OPTIONS] [INPUT ...]`: the days of a week side by side.
struct WeekCommand: ParsableCommand, GridCommand {
    static let configuration = CommandConfiguration(
        commandName: "week",
        abstract: "Draw the week holding --from as columns of days, with the hours down the side.",
        discussion: """
            The week holding --from (default: this week) from its first day (--week-start, \
            else the locale's), or --days N days from --from. Each day is a column in the \
            terminal's width (COLUMNS, else the terminal, else 80); a line is half an hour, \
            over --hours (default: the earliest to the latest timed item, 08:00-18:00 at \
            least). What lasts all day, or 24 hours and more, is in a band on top; items \
            that overlap are side by side in their day (+N when more than fit). Today's \
            header is in brackets and the current time is marked. Colours are the calendars' \
            on a terminal; box-drawing characters under a UTF-8 locale, ASCII otherwise. \
            Under 8 columns a day, the agenda of the same days is printed instead, with one \
            line on stderr. --format html prints one page for mail.

            Examples:
              ics-agenda week ~/.calendars/
              ics-agenda week --from next week --hours 07:00-20:00 work.ics
              ics-agenda week --days 3 --format html cal/ > days.html
            """
    )

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("A day of the week to draw (default today): " +
        "YYYY-MM-DD, today, tomorrow, +Nd, -Nd, a weekday, this week, next week, this month or next month.",
        valueName: "date"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("Draw N days from --from instead of its week (1 to 14).", valueName: "n"))
    var days: Int?

    @Option(name: .long, help: ArgumentHelp("The hours drawn, HH:MM-HH:MM (default: those of the week's timed items, " +
        "08:00-18:00 at least).", valueName: "range"))
    var hours: String?

    @OptionGroup var grid: GridOptions

    @OptionGroup var common: CommonOptions

    @OptionGroup var warnings: WarningOptions

    @OptionGroup var colorChoice: ColorOptions

    @OptionGroup var listing: ListingOptions

    @OptionGroup var subscriptions: SubscriptionOptions

    @OptionGroup var input: InputArguments

    func validate() throws {
        if let days, !(1...14).contains(days) {
            throw ValidationError("--days takes a whole number of days, from 1 to 14 (the agenda takes more).")
        }
        if let hours {
            do { _ = try FreeTime.Hours(parsing: hours) } catch { throw ValidationError("--hours: \(error)") }
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let settings = try Settings(self, environment: environment)
        let formats = LocaleFormats(localeIdentifier: settings.localeIdentifier, clock: settings.clock)
        let first: CivilDate
        if days != nil {
            first = settings.window.firstDay
        } else {
            let weekStart = try grid.firstWeekday(locale: settings.localeIdentifier)
            let asked = settings.window.firstDay
            first = asked.adding(days: -((asked.weekday - weekStart + 7) % 7))
        }
        let shown = (0..<(days ?? 7)).map { first.adding(days: $0) }
        let (sections, loaded) = try self.sections(from: first, through: first.adding(days: shown.count - 1),
            settings: settings,
            environment: environment)
        let hourRange = try hours.map { try FreeTime.Hours(parsing: $0) }.map { (start: $0.start, end: $0.end) }
        let layout = WeekLayout(sections: sections, days: shown, clock: settings.clock, minutes: hourRange)
        let words = GridWords(wording: RowWording(formats: formats), showCalendar: listing.showCalendar)
        var out = BufferedOutput()
        switch grid.format {
        case .html:
            WeekHTMLFormatter(formats: formats, words: words, today: settings.today).write(layout, to: &out)
        case .text:
            let width = GridOptions.width(environment: environment)
            let canvas = GridCanvas(words: words, unicode: GridText.isUTF8(environment: environment),
                style: style(environment: environment), width: width, today: settings.today)
            let formatter = WeekGridFormatter(canvas: canvas, now: settings.now)
            guard formatter.fits(layout) else {
                let days = shown.count == 1 ? "a day" : "\(shown.count) days side by side"
                printAgendaInstead(sections, why: "\(width) column\(width == 1 ? " is" : "s are") too narrow for " +
                    "\(days) (at least \(WeekGridFormatter.minimumColumn) a day)",
                    formats: formats, settings: settings, environment: environment)
                try loaded.finish()
                return
            }
            formatter.write(layout, to: &out)
        }
        out.flush()
        try loaded.finish()
    }
}
