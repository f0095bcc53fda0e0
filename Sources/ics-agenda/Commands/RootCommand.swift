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
    /// The subcommands, in the order help lists them; the first, the
    /// agenda, is the default. The one list of them: dispatch, the
    /// configuration's sections, the usage and completion read it back
    /// from the configuration (`Subcommand`).
    private static let subcommands: [any ParsableCommand.Type] = [
        ICSAgenda.self, NextCommand.self, JoinCommand.self, AlarmsCommand.self, FreeCommand.self, WeekCommand.self,
        MonthCommand.self, CalendarsCommand.self,
    ]

    static let configuration = CommandConfiguration(
        commandName: "ics-agenda",
        abstract: "Print a one-year agenda of iCalendar (.ics) files, grouped by day; the next meeting; free time; a " +
            "week or month grid.",
        usage: Subcommand.usage(of: subcommands, default: subcommands[0]),
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
        subcommands: subcommands,
        defaultSubcommand: subcommands[0]
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
        let arguments = CommandLineInput.prepared(CommandRunner.arguments)
        do {
            var command = try parseAgendaDirectly(arguments) ?? parseAsRoot(arguments)
            try command.run()
            ProcessEnd.finish(0)
        } catch {
            if exitCode(for: error) != .success, let agenda = Subcommand.defaultArguments(of: arguments) {
                AgendaAsRoot.fail(withError: error, arguments: agenda)
            }
            CommandRunner.fail(RootCommand.self, error, arguments)
        }
    }

    /// The agenda's arguments parsed as the agenda alone, when they choose
    /// the agenda and parse: the same command, without ArgumentParser's
    /// default-subcommand look-ahead, which builds the agenda's options
    /// three more times (a third of a debug binary's run). Anything else
    /// (help, a bad option, another subcommand) is parsed from the root.
    static func parseAgendaDirectly(_ arguments: [String]) -> ParsableCommand? {
        guard let agenda = Subcommand.defaultArguments(of: arguments) else { return nil }
        let type = Subcommand.byDefault.type
        // Help and other built-ins parse as commands of their own: they are the root's to give.
        guard let command = try? type.parseAsRoot(agenda), Swift.type(of: command) == type else { return nil }
        return command
    }
}
