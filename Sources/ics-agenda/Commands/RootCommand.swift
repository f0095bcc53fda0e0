import AgendaCore
import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `ics-agenda`: the agenda by default, and the subcommands beside it.
///
/// ArgumentParser takes a first word that names a subcommand as that
/// subcommand, and anything else (options, files) as the default
/// subcommand's: `ics-agenda work.ics` is `ics-agenda agenda work.ics`,
/// and a file called `next` is read as `./next`.
@main
struct RootCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ics-agenda",
        abstract: "Print a one-year agenda of iCalendar (.ics) files, grouped by day; the next meeting; free time; a " +
            "week or month grid.",
        usage: """
            ics-agenda [agenda] [OPTIONS] [INPUT ...]
            ics-agenda next [OPTIONS] [INPUT ...]
            ics-agenda join [OPTIONS] [INPUT ...]
            ics-agenda alarms [OPTIONS] [INPUT ...]
            ics-agenda free [OPTIONS] [INPUT ...]
            ics-agenda week [OPTIONS] [INPUT ...]
            ics-agenda month [OPTIONS] [INPUT ...]
            ics-agenda calendars [OPTIONS] [INPUT ...]
            ics-agenda help [SUBCOMMAND]
            """,
        discussion: """
            With no subcommand, ics-agenda prints the agenda: INPUT is an .ics file, a folder \
            (every .ics and .ical below it), or - for standard input; with no INPUT, standard \
            input is read when it is not a terminal. A file named like a subcommand is read \
            as ./NAME. The agenda's options: ics-agenda help agenda.

            Examples:
              ics-agenda work.ics ~/.calendars/          the coming year
              ics-agenda --from tomorrow --days 1 cal/   tomorrow, from cron
              ics-agenda next --format waybar cal/       the next meeting
              ics-agenda join cal/                       its link to join it
              ics-agenda alarms --exec CMD cal/          alarms, from cron
              ics-agenda free ana.ics ben.ics cy.ics     when all three are free
              ics-agenda week cal/                       this week, days side by side
              ics-agenda month cal/                      this month as a calendar
              ics-agenda calendars cal/                  the calendars found

            Exit status: 0 printed (also when empty), 64 bad command line, 65 not \
            iCalendar (or damaged, with --strict), 66 input missing or unreadable, \
            74 output error.
            """,
        version: "ics-agenda \(Version.number)",
        subcommands: [
            ICSAgenda.self, NextCommand.self, JoinCommand.self, AlarmsCommand.self, FreeCommand.self, WeekCommand.self,
                MonthCommand.self,
            CalendarsCommand.self,
        ],
        defaultSubcommand: ICSAgenda.self
    )

    static func main() {
        #if canImport(Glibc)
            // A fixed threshold: every block of 128 KiB or more is its own
            // mapping, given back to the system when freed. glibc otherwise
            // raises the threshold after the first such block is freed and
            // later large arrays (rows, output blocks, per-thread results) stay
            // in its heaps: about 15 MB more peak memory on gencal 100k.
            // Swift's Glibc module does not import <malloc.h>: mallopt is looked up.
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
            if let mallopt = dlsym(nil, "mallopt") {  // nil: RTLD_DEFAULT
                _ = unsafeBitCast(mallopt, to: Mallopt.self)(mmapThreshold, 128 * 1024)
            }
        #endif
        CommandRunner.prepareStreams()
        Signals.endRunsQuietly()
        // Any word that may hold a secret is hidden whole in every message, whichever option it went to.
        for word in CommandRunner.arguments { SecretText.register(word) }
        let arguments = RootCommand.withConfiguration(SubcommandFirst.reordered(CommandRunner.arguments))
        // The error path parses again to word its message: the packed line
        // too, or a long line that ends in an error is quadratic after all.
        let packed = ArgumentPacking.packed(arguments) { (try? parseAsRoot($0)) != nil }
        do {
            var command = try parseAgendaDirectly(packed) ?? parseAsRoot(packed)
            try command.run()
            ProcessEnd.finish(0)
        } catch {
            if exitCode(for: error) != .success, let agenda = AgendaAsRoot.arguments(of: packed) {
                AgendaAsRoot.fail(withError: error, arguments: agenda)
            }
            CommandRunner.fail(RootCommand.self, error, packed)
        }
    }

    /// The words that choose a subcommand when they come first.
    static let subcommandWords = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]

    /// The agenda's arguments parsed as the agenda alone, when they choose
    /// the agenda and parse: the same command, without ArgumentParser's
    /// default-subcommand look-ahead, which builds the agenda's options
    /// three more times (a third of a debug binary's run). Anything else
    /// (help, a bad option, another subcommand) is parsed from the root.
    static func parseAgendaDirectly(_ arguments: [String]) -> ParsableCommand? {
        guard let agenda = AgendaAsRoot.arguments(of: arguments) else { return nil }
        // Help and other built-ins parse as commands of their own: they are the root's to give.
        return (try? ICSAgenda.parseAsRoot(agenda)) as? ICSAgenda
    }

    /// The configured options put before the command line's (which win):
    /// all of them for the agenda, for the other subcommands the lines before any
    /// section that they take (`--tz`, `--locale`, `--calendar`, ...) and
    /// those of their own section; `help` none.
    static func withConfiguration(_ arguments: [String]) -> [String] {
        guard let first = arguments.first else { return ConfigFile.withConfiguredOptions(arguments) }
        if first == NextCommand.configuration.commandName {
            return [first] + ConfigFile.withConfiguredOptions(Array(arguments.dropFirst()), takenBy: NextCommand.self,
                section: first)
        }
        if first == JoinCommand.configuration.commandName {
            return [first] + ConfigFile.withConfiguredOptions(Array(arguments.dropFirst()), takenBy: JoinCommand.self,
                section: first)
        }
        if first == AlarmsCommand.configuration.commandName {
            return [first] + ConfigFile.withConfiguredOptions(Array(arguments.dropFirst()), takenBy: AlarmsCommand.self,
                section: first)
        }
        if first == FreeCommand.configuration.commandName {
            return [first] + ConfigFile.withConfiguredOptions(Array(arguments.dropFirst()), takenBy: FreeCommand.self,
                section: first)
        }
        if first == WeekCommand.configuration.commandName {
            return [first] + ConfigFile.withConfiguredOptions(Array(arguments.dropFirst()), takenBy: WeekCommand.self,
                section: first)
        }
        if first == MonthCommand.configuration.commandName {
            return [first] + ConfigFile.withConfiguredOptions(Array(arguments.dropFirst()), takenBy: MonthCommand.self,
                section: first)
        }
        if first == CalendarsCommand.configuration.commandName {
            return [first] + ConfigFile.withConfiguredOptions(Array(arguments.dropFirst()),
                takenBy: CalendarsCommand.self, section: first)
        }
        if first == ICSAgenda.configuration.commandName {
            return [first] + ConfigFile.withConfiguredOptions(Array(arguments.dropFirst()))
        }
        return AgendaAsRoot.arguments(of: arguments) == nil ? arguments : ConfigFile.withConfiguredOptions(arguments)
    }
}

/// The agenda as the root command it was before the subcommands came, used
/// only to word its errors: `Usage: ics-agenda [<options>] [<input> ...]`
/// and `See 'ics-agenda --help'`, byte for byte as scripts and tests saw
/// them, instead of `ics-agenda agenda ...`.
struct AgendaAsRoot: ParsableCommand, AgendaArguments {
    static let configuration = CommandConfiguration(
        commandName: "ics-agenda", abstract: "Print a one-year agenda of iCalendar (.ics) files, grouped by day.",
        discussion: ICSAgenda.configuration.discussion)

    @OptionGroup var range: DayRangeOptions

    @OptionGroup var common: CommonOptions

    @OptionGroup var warnings: WarningOptions

    @OptionGroup var presentation: PresentationOptions

    @OptionGroup var colorChoice: ColorOptions

    @OptionGroup var listing: ListingOptions

    @OptionGroup var subscriptions: SubscriptionOptions

    @OptionGroup var input: InputArguments

    /// The agenda's arguments when `arguments` choose the agenda (no
    /// subcommand, or `agenda`); nil for another subcommand.
    static func arguments(of arguments: [String]) -> [String]? {
        guard let first = arguments.first else { return arguments }
        if first == ICSAgenda.configuration.commandName { return Array(arguments.dropFirst()) }
        return RootCommand.subcommandWords.contains(first) ? nil : arguments
    }

    /// Ends the run with `error` worded as the agenda alone words it: a
    /// command-line error is found again by parsing as this command; an
    /// error of the run is told as it is.
    static func fail(withError error: Error, arguments: [String]) -> Never {
        do {
            _ = try parseAsRoot(arguments)
        } catch let parseError {
            CommandRunner.fail(AgendaAsRoot.self, parseError, arguments)
        }
        CommandRunner.fail(AgendaAsRoot.self, error, arguments)
    }
}
