import AgendaCore
import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

enum GridFormat: String, ExpressibleByArgument, CaseIterable {
    case text, html
}

/// What `week` and `month` share: the first weekday, the format, and the
/// terminal's size they draw in.
struct GridOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The first day of the week: monday, sunday, ... (default: the locale's).",
        valueName: "day"))
    var weekStart: String?

    @Option(name: .long, help: ArgumentHelp("Output format: text (the grid, in the terminal's width) or html (one " +
        "self-contained page)."))
    var format: GridFormat = .text

    func validate() throws {
        _ = try firstWeekday(locale: "en_US")
    }

    /// `--week-start` (1 = Sunday ... 7 = Saturday), else the locale's.
    func firstWeekday(locale: String) throws -> Int {
        guard let weekStart else { return Settings.firstWeekday(locale) }
        guard let days = try? FreeTime.Weekdays(parsing: weekStart), days.days.count == 1, let day = days.days.first,
            weekStart.lowercased() != "all" else {
            throw ValidationError("--week-start: cannot read \"\(PrintableText.escaped(weekStart))\" as one day of " +
                "the week (use monday, sunday, ...)")
        }
        return day
    }

    /// The terminal's width: `COLUMNS`, else the terminal's own when standard output is one, else 80.
    static func width(environment: [String: String]) -> Int {
        size(environment["COLUMNS"], \.ws_col) ?? 80
    }

    /// The terminal's height: `LINES`, else the terminal's own; nil when neither is known (piped).
    static func height(environment: [String: String]) -> Int? {
        size(environment["LINES"], \.ws_row)
    }

    /// A size the environment gives (at most 1,000), else the terminal's when standard output is one.
    private static func size(_ given: String?, _ field: KeyPath<winsize, UInt16>) -> Int? {
        if let given, let value = Int(given), value > 0 { return min(value, 1000) }
        var size = winsize()
        guard isatty(1) != 0, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size[keyPath: field] > 0 else { return nil }
        return Int(size[keyPath: field])
    }
}

/// A command that draws a grid: what it reads, the rows it selects, and
/// the agenda it prints instead when the terminal is too narrow.
protocol GridCommand: ReadingCommand {
    var grid: GridOptions { get }
    var colorChoice: ColorOptions { get }
    var listing: ListingOptions { get }
}

extension GridCommand {
    var weekStart: Int? {
        get throws { try grid.weekStart.map { _ in try grid.firstWeekday(locale: "en_US") } }
    }
    var to: String? { nil }

    /// The agenda's selection: `--calendar`, `--grep`, `--me`, `--completed`, `--no-events`, ...
    var selection: Selection { listing.applied(to: common.selection) }

    /// The inputs read over the days drawn, `first` through `last`, grouped
    /// by day. Every day is a date of years 1 to 9999, as for the agenda;
    /// with nothing read at all (the only input missing, told) the run ends
    /// with status 66 and nothing is drawn, as the agenda prints nothing.
    func sections(from first: CivilDate, through last: CivilDate, settings: Settings,
        environment: [String: String]) throws
        -> (sections: [AgendaSection], loaded: LoadedInputs)
    {
        guard first.year >= 1, last.year <= 9999 else {
            throw ValidationError("the days asked for (\(first.iso) to \(last.iso)) go beyond the years 1 to 9999.")
        }
        let window = AgendaWindow(firstDay: first, endDay: last.adding(days: 1), clock: settings.clock)
        let loaded = try load(window, environment: environment)
        if loaded.calendars.isEmpty && loaded.missing { try loaded.finish() }
        let builder = AgendaBuilder(window: window, today: settings.today, selection: selection)
        return (builder.build(parts: loaded.calendars.map(\.occurrences), threads: AgendaPipeline.workerCount), loaded)
    }

    func style(environment: [String: String]) -> TerminalStyle {
        TerminalStyle(enabled: AgendaPipeline.useColor(colorChoice.color, environment: environment),
            trueColor: TerminalStyle.trueColor(environment: environment))
    }

    /// Too narrow for the grid: the agenda of the same days, and one line on stderr saying why.
    func printAgendaInstead(_ sections: [AgendaSection], why: String, formats: LocaleFormats, settings: Settings,
        environment: [String: String]) {
        StandardError.write("ics-agenda: \(why); the agenda is printed instead\n")
        var out = BufferedOutput()
        TextFormatter(formats: formats, style: style(environment: environment), showCalendar: listing.showCalendar,
            today: settings.today,
            threads: AgendaPipeline.workerCount).write(sections, to: &out)
        out.flush()
    }
}
