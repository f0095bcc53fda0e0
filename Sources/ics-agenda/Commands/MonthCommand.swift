import AgendaCore
import ArgumentParser
import Foundation

/// `ics-agenda month [OPTIONS] [INPUT ...]`: a month as a grid of its weeks.
struct MonthCommand: ParsableCommand, GridCommand {
    static let configuration = CommandConfiguration(
        commandName: "month",
        abstract: "Draw the month holding --from as a calendar grid, with titles in its days.",
        discussion: """
            The month holding --from (default: this month), or --months N months from it, \
            as weeks down and weekdays across (from --week-start, else the locale's first \
            weekday), in the terminal's width. Each day holds as many items as its height \
            allows (LINES, else the terminal's; 3 when piped), +N for the rest; today's \
            number is in brackets. Under 6 columns a day, the agenda of the same days is \
            printed instead, with one line on stderr. --format html prints one page for mail.

            Examples:
              ics-agenda month ~/.calendars/
              ics-agenda month --from 2026-12-01 --months 3 work.ics
            """
    )

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("A day of the month to draw (default today): " +
        "YYYY-MM-DD, today, +Nd, -Nd, a weekday, this week, next week, this month or next month.", valueName: "date"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("Draw N months from the one holding --from (1 to 12).", valueName: "n"))
    var months = 1

    @OptionGroup var grid: GridOptions

    @OptionGroup var common: CommonOptions

    @OptionGroup var warnings: WarningOptions

    @OptionGroup var colorChoice: ColorOptions

    @OptionGroup var listing: ListingOptions

    @OptionGroup var subscriptions: SubscriptionOptions

    @OptionGroup var input: InputArguments

    var days: Int? { 1 }

    func validate() throws {
        if !(1...12).contains(months) {
            throw ValidationError("--months takes a whole number of months, from 1 to 12.")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let settings = try Settings(self, environment: environment)
        let formats = LocaleFormats(localeIdentifier: settings.localeIdentifier, clock: settings.clock)
        let weekStart = try grid.firstWeekday(locale: settings.localeIdentifier)
        // Months of the locale's calendar (Gregorian unless it names another: fa_IR@calendar=persian).
        let shown = MonthLayout.months(months, from: settings.window.firstDay, calendar: formats.calendar)
        guard let firstMonth = shown.first, let lastMonth = shown.last,
            let first = MonthLayout.days(first: firstMonth.first, last: firstMonth.last, firstWeekday: weekStart).first,
            let last = MonthLayout.days(first: lastMonth.first, last: lastMonth.last, firstWeekday: weekStart).last
        else { return }
        let (sections, loaded) = try self.sections(from: first, through: last, settings: settings,
            environment: environment)
        let layout = MonthLayout(sections: sections, months: shown, firstWeekday: weekStart)
        let words = GridWords(wording: RowWording(formats: formats), showCalendar: listing.showCalendar)
        var out = BufferedOutput()
        switch grid.format {
        case .html:
            MonthHTMLFormatter(formats: formats, words: words, today: settings.today).write(layout, to: &out)
        case .text:
            let width = GridOptions.width(environment: environment)
            // A month of six weeks fits the terminal's height: 4 lines of frame, and 2 a week besides its items.
            let lines = GridOptions.height(environment: environment).map { max(1, min(10, ($0 - 4) / 6 - 2)) } ?? 3
            let canvas = GridCanvas(words: words, unicode: GridText.isUTF8(environment: environment),
                style: style(environment: environment), width: width, today: settings.today)
            let formatter = MonthGridFormatter(canvas: canvas, lines: lines)
            guard formatter.fits else {
                printAgendaInstead(sections, why: "\(width) columns are too narrow for a month's seven days side by " +
                    "side (at least \(MonthGridFormatter.minimumColumn) a day)", formats: formats, settings: settings,
                    environment: environment)
                try loaded.finish()
                return
            }
            formatter.write(layout, to: &out)
        }
        out.flush()
        try loaded.finish()
    }
}
