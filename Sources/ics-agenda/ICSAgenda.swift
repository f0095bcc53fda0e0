import AgendaCore
import ArgumentParser
import Foundation
import ICalAdapter

#if canImport(Glibc)
    import Glibc
#endif

@main
struct ICSAgenda: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ics-agenda",
        abstract: "Print a one-year agenda of iCalendar (.ics) files, grouped by day.",
        discussion: """
            INPUT is an .ics file, a folder (every .ics and .ical below it), or - for standard \
            input; with no INPUT, standard input is read when it is not a terminal. The agenda \
            runs from the start of today to one calendar year later.

            Examples:
              ics-agenda work.ics home/                    by hand: the coming year
              ics-agenda --from tomorrow --days 1 cal/     cron: tomorrow only (prints nothing if empty)
              curl -s URL | ics-agenda --format json | jq -r .title

            Exit status: 0 agenda printed (also when empty), 64 bad command line, \
            65 not iCalendar, 66 input missing or unreadable, 74 output error.
            """
    )

    @OptionGroup var options: AgendaOptions

    @Argument(help: ArgumentHelp("Calendar files, folders, or - for standard input.", valueName: "input"))
    var inputs: [String] = []

    func validate() throws {
        if inputs.isEmpty && isatty(0) != 0 {
            throw ValidationError("Give an .ics file, a folder, or - (standard input is a terminal).")
        }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let settings = try Settings(options, environment: environment)
        let paths = inputs.isEmpty ? ["-"] : inputs
        do {
            let loaded = try AgendaPipeline(settings: settings).load(paths)
            var out = BufferedOutput()
            AgendaPipeline(settings: settings).render(loaded, options: options, environment: environment, to: &out)
            out.flush()
        } catch let error as UnreadableInput {
            StandardError.write("ics-agenda: \(error)\n")
            throw ExitCode(66)
        } catch let error as NotICalendar {
            StandardError.write("ics-agenda: \(error)\n")
            throw ExitCode(65)
        }
    }
}
