import AgendaCore
import ArgumentParser
import Foundation

/// `ics-agenda [agenda] [OPTIONS] [INPUT ...]`: the agenda, the root command's default.
typealias ICSAgenda = AgendaArguments<TheAgenda>

/// The agenda's arguments in their first role: printing the agenda.
enum TheAgenda: AgendaRole {
    typealias Input = InputArguments

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

    static func run(_ agenda: ICSAgenda) throws {
        let status: Int32
        do {
            try agenda.printAgenda()
            status = 0
        } catch let code as ExitCode where code.rawValue == 66 {
            status = 66
        }
        ProcessEnd.finish(status)
    }
}

extension AgendaArguments where Role == TheAgenda {
    /// Reads the inputs and prints the agenda (`run` without its exit, for
    /// the command-line fuzz target).
    func printAgenda() throws {
        Signals.ignoreBrokenPipes()
        let environment = ProcessInfo.processInfo.environment
        let settings = try Settings(options, environment: environment)
        let pipeline = AgendaPipeline(settings: settings)
        let loaded = try CommandInputs.loadStrictly(input.paths(), window: pipeline.settings.window,
            strict: options.strict, warnings: options.warnings.detail, calendars: common.calendar,
            fetch: subscriptions.fetch(environment: environment), me: common.me,
            readsAlarms: options.writesAlarms, keepsText: options.writesSeries, naming: common.naming.naming)
        var out = BufferedOutput()
        pipeline.render(loaded.calendars, options: options, environment: environment, to: &out)
        out.flush()
        try loaded.finish()
    }
}
