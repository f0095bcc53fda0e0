import AgendaCore
import ArgumentParser
import Foundation
import Subscriptions

/// `ics-agenda free [OPTIONS] [INPUT ...]`: when everyone is free.
struct FreeCommand: ParsableCommand, SettingsChoice {
    static let configuration = CommandConfiguration(
        commandName: "free",
        abstract: "Print the free time between the busy occurrences of all inputs together, per day.",
        discussion: """
            Busy is a timed occurrence that is not TRANSP:TRANSPARENT and not cancelled; an \
            all-day occurrence is busy only when marked TRANSP:OPAQUE. Every input counts \
            together: name one file per person to find when all of them are free. Times are in \
            the display zone; on a day whose hours do not all exist (a DST change), the hours \
            that do.

            Text prints a section per day with "9:00 AM - 10:30 AM (1 h 30 min)" rows in the \
            locale; --format json prints one object per slot: start, end, minutes, day.

            Examples:
              ics-agenda free ~/.calendars/
              ics-agenda free --from +7d --days 5 --hours 10:00-16:00 --min 1h ana.ics ben.ics cy.ics
            """
    )

    @Option(name: .long, help: ArgumentHelp("The hours of each day to look at, HH:MM-HH:MM in the display zone.",
        valueName: "range"))
    var hours = "09:00-17:00"

    @Option(name: .long, help: ArgumentHelp("The days of the week to look at: mon-fri, mon,wed,fri, sat-sun, all.",
        valueName: "days"))
    var weekdays = "mon-fri"

    @Option(name: .long, help: ArgumentHelp("Leave out free slots shorter than this: 30m, 1h, 1h30m.",
        valueName: "duration"))
    var min = "30m"

    @Option(name: .long, help: "Output format: text or json (one object per slot).")
    var format: ListingFormat = .text

    @OptionGroup var range: DayRangeOptions

    @OptionGroup var common: CommonOptions

    @OptionGroup var warnings: WarningOptions

    @OptionGroup var subscriptions: SubscriptionOptions

    @OptionGroup var input: InputArguments

    func validate() throws {
        do { _ = try FreeTime.Hours(parsing: hours) } catch { throw ValidationError("--hours: \(error)") }
        do { _ = try FreeTime.Weekdays(parsing: weekdays) } catch { throw ValidationError("--weekdays: \(error)") }
        do { _ = try DurationText.seconds(min) } catch { throw ValidationError("--min: \(error)") }
    }

    var now: String? { common.now }
    var tz: String? { common.tz }
    var locale: String? { common.locale }
    var from: String? { range.from }
    var to: String? { range.to }
    /// `free --from tomorrow` on a Saturday printed nothing, with no word
    /// why: every day asked for is outside `--weekdays`. Said on stderr.
    static func noDayNote(_ window: AgendaWindow, _ chosen: FreeTime.Weekdays, _ written: String) -> String? {
        var day = window.firstDay
        while day < window.endDay {
            if chosen.days.contains(day.weekday) { return nil }
            day = day.adding(days: 1)
        }
        let asked = window.endDay == window.firstDay.adding(days: 1)
            ? "\(window.firstDay.iso) is" : "the days asked for (\(window.firstDay.iso) to "
            + "\(window.endDay.adding(days: -1).iso)) are"
        return "\(asked) outside --weekdays \(written): nothing to look at (--weekdays all takes every day)"
    }

    /// A week from --from unless --to or --days says otherwise.
    var days: Int? { range.days ?? (range.to == nil ? 7 : nil) }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let settings = try Settings(self, environment: environment)
        let loaded = try CommandInputs.loadStrictly(input.paths(), window: settings.window, strict: common.strict,
            warnings: warnings.detail,
            calendars: common.calendar, fetch: subscriptions.fetch(environment: environment), me: common.me,
                naming: common.naming.naming)
        let chosenDays = try FreeTime.Weekdays(parsing: weekdays)
        let free = FreeTime(
            occurrences: loaded.calendars.map(\.occurrences), selection: common.selection, window: settings.window,
            hours: try FreeTime.Hours(parsing: hours), weekdays: chosenDays,
            minimum: try DurationText.seconds(min))
        if let note = FreeCommand.noDayNote(settings.window, chosenDays, weekdays) {
            StandardError.write("ics-agenda: \(note)\n")
        }
        var out = BufferedOutput()
        let formats = LocaleFormats(localeIdentifier: settings.localeIdentifier, clock: settings.clock)
        FreeTimeFormatter(formats: formats, format: format).write(free.slots, to: &out)
        out.flush()
        try loaded.finish()
    }
}
