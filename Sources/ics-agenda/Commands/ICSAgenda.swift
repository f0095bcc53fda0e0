import AgendaCore
import ArgumentParser
import Foundation
import ICalAdapter
import Subscriptions

#if canImport(Glibc)
    import Glibc
#endif

/// `ics-agenda [agenda] [OPTIONS] [INPUT ...]`: the agenda, the root command's default.
struct ICSAgenda: ParsableCommand, AgendaArguments {
    static let configuration = CommandConfiguration(
        commandName: "agenda",
        abstract: "Print a one-year agenda of iCalendar (.ics) files, grouped by day (the default command).",
        discussion: """
            INPUT is an .ics file, a folder (every .ics and .ical below it; a vdir collection, \
            one file per event, is one calendar), - for standard input, or a URL (https://, \
            http://, webcal://: fetched into a cache, kept through failures, read offline with \
            --offline); with no INPUT, standard input is read when it is not a terminal. A file whose \
            name starts with a dash is named ./-name.ics, or after --. The agenda \
            runs from the start of today to one calendar year later. "agenda" may be left out: \
            ics-agenda work.ics is ics-agenda agenda work.ics.

            Configuration: options as on the command line and input paths, one per line, in \
            $ICS_AGENDA_CONFIG, else $XDG_CONFIG_HOME/ics-agenda/config (~/.config/ics-agenda/config). \
            The command line's options win; the configured inputs are read when no INPUT is \
            named and standard input is a terminal or empty (cron); --no-config reads none.

            A timed row that overlaps another busy one that day ends with (overlaps TITLE, ...); \
            in JSON, every line has "overlaps": the first 10 UIDs it overlaps, and "overlap_count": how many.

            Examples:
              By hand, the coming year:
                ics-agenda work.ics ~/.calendars/
              From cron, tomorrow only (nothing printed, no mail, when it is empty):
                ics-agenda --from tomorrow --days 1 ~/.calendars/
              In a pipeline:
                curl -s URL | ics-agenda --format json | jq -r .title

            Bad input: a damaged component is skipped (or mended) with a warning \
            naming the file, the line and the problem, and every other component is \
            listed. Each kind of damage is told once per file, with how often it \
            occurred (--verbose: every place; --quiet: nothing); valid input gets no \
            warning. --strict makes any such damage an error instead.

            Exit status: 0 agenda printed (also when empty), 64 bad command line, \
            65 not iCalendar (or damaged, with --strict), 66 input missing or \
            unreadable, 74 output error.
            """
    )

    @OptionGroup var range: DayRangeOptions

    @OptionGroup var common: CommonOptions

    @OptionGroup var warnings: WarningOptions

    @OptionGroup var presentation: PresentationOptions

    @OptionGroup var colorChoice: ColorOptions

    @OptionGroup var listing: ListingOptions

    @OptionGroup var subscriptions: SubscriptionOptions

    @OptionGroup var input: InputArguments

    func run() throws {
        let status: Int32
        do {
            try printAgenda()
            status = 0
        } catch let code as ExitCode where code.rawValue == 66 {
            status = 66
        }
        ProcessEnd.finish(status)
    }

    /// Reads the inputs and prints the agenda (`run` without its exit, for
    /// the command-line fuzz target).
    func printAgenda() throws {
        Signals.ignoreBrokenPipes()
        let environment = ProcessInfo.processInfo.environment
        let settings = try Settings(options, environment: environment)
        let pipeline = AgendaPipeline(settings: settings)
        let loaded = try ICSAgenda.loadStrictly(input.paths(), window: pipeline.settings.window, strict: options.strict,
            warnings: options.warnings.detail, calendars: common.calendar,
                fetch: subscriptions.fetch(environment: environment), me: common.me,
            readsAlarms: options.writesAlarms, keepsText: options.writesSeries, naming: common.naming.naming)
        var out = BufferedOutput()
        pipeline.render(loaded.calendars, options: options, environment: environment, to: &out)
        out.flush()
        try loaded.finish()
    }

    /// Reads the inputs for every command that lists occurrences; with
    /// `strict`, any problem in them ends the run once every warning is out:
    /// 66 when a file or folder could not be read, else 65.
    /// - Parameter calendars: the `--calendar` names asked for; one that
    ///   names no calendar read is told, with the calendars there are.
    static func loadStrictly(
        _ paths: [String], window: AgendaWindow, strict: Bool, warnings: WarningDetail, calendars: [String] = [],
            fetch: SubscriptionFetch,
        me: Set<String> = [], readsAlarms: Bool = false, keepsText: Bool = false, ringing: ClosedRange<Date>? = nil,
        naming: CalendarChoice.Naming = .init()
    ) throws -> LoadedInputs {
        Signals.ignoreBrokenPipes()
        let loaded = try ICSAgenda.reportingInputErrors {
            try AgendaPipeline.load(paths, window: window, warnings: warnings, fetch: fetch, me: me,
                readsAlarms: readsAlarms,
                keepsText: keepsText, ringing: ringing)
        }
        if strict {
            // A file found that is not iCalendar is a problem of the input, one
            // that could not be read is not (66).
            let problems = loaded.calendars.reduce(loaded.notCalendar) {
                $0 + $1.diagnostics.reduce(0) { $0 + $1.problems }
            }
            let unreadable = loaded.unreadable + loaded.missingInputs
            if problems > 0 || unreadable > 0 {
                var parts: [String] = []
                if unreadable > 0 {
                    let s = unreadable == 1 ? "" : "s"
                    parts.append("\(unreadable) file\(s) or folder\(s) could not be read")
                }
                if problems > 0 { parts.append("\(problems) problem\(problems == 1 ? "" : "s") in the input") }
                StandardError.write("ics-agenda: \(parts.joined(separator: ", ")) (--strict); no agenda printed\n")
                throw ExitCode(unreadable > 0 ? 66 : 65)
            }
        }
        let unknown = CalendarChoice.apply(naming, asked: calendars, to: loaded)
        // The calendars there are, looked for only when a name found none: it walks every occurrence.
        if warnings != .none, !unknown.isEmpty, let line = ICSAgenda.unknownCalendars(unknown,
            among: CalendarChoice.every(in: loaded).map(\.name)) {
            StandardError.write("ics-agenda: warning: \(line)\n")
        }
        return loaded
    }

    /// The `--calendar` names that matched no calendar read (by name, by
    /// folder, in any case), and the names there are.
    static func unknownCalendars(_ asked: [String], among names: [String]) -> String? {
        let known = Set(names)
        var unknown: [String] = []
        var told = Set<String>()
        for name in asked where told.insert(name).inserted { unknown.append(name) }
        guard !unknown.isEmpty else { return nil }
        func quoted(_ names: some Sequence<String>) -> String {
            names.map { "\"\(PrintableText.escaped($0))\"" }.joined(separator: ", ")
        }
        // One line of a readable length, however many names were asked for.
        let shown = unknown.count > 10 ? quoted(unknown.prefix(10))
            + " and \(unknown.count - 10) more" : quoted(unknown)
        let there = known.sorted()
        let listed = quoted(there.prefix(10))
        let more = there.count > 10 ? " and \(there.count - 10) more" : ""
        let plural = unknown.count == 1 ? "calendar" : "calendars"
        return "--calendar \(shown): no such \(plural); the calendars are \(there.isEmpty ? "none" : listed + more)"
    }

    /// Input errors end the run with the contract's status: 66 missing or
    /// unreadable, 65 not iCalendar, 64 a URL that cannot be fetched.
    static func reportingInputErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as UnreadableInput {
            StandardError.write("ics-agenda: \(PrintableText.escaped("\(error)"))\n")
            throw ExitCode(66)
        } catch let error as NotICalendar {
            StandardError.write("ics-agenda: \(PrintableText.escaped("\(error)"))\n")
            throw ExitCode(65)
        } catch let error as SubscriptionURL.Invalid {
            StandardError.write("ics-agenda: \(PrintableText.escaped("\(error)"))\n")
            throw ExitCode(64)
        }
    }
}
