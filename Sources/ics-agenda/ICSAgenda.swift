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
            input; with no INPUT, standard input is read when it is not a terminal. A file whose \
            name starts with a dash is named ./-name.ics, or after --. The agenda \
            runs from the start of today to one calendar year later.

            Configuration: options as on the command line and input paths, one per line, in \
            $ICS_AGENDA_CONFIG, else $XDG_CONFIG_HOME/ics-agenda/config (~/.config/ics-agenda/config). \
            The command line's options win; the configured inputs are read when no INPUT is \
            named and standard input is a terminal or empty (cron); --no-config reads none.

            Subcommand: ics-agenda calendars [--format text|json] [INPUT ...] lists the \
            calendars found, grouped by source, with how many events and reminders each holds \
            (ics-agenda calendars --help).

            Examples:
              By hand, the coming year:
                ics-agenda work.ics ~/.calendars/
              From cron, tomorrow only (nothing printed, no mail, when it is empty):
                ics-agenda --from tomorrow --days 1 ~/.calendars/
              In a pipeline:
                curl -s URL | ics-agenda --format json | jq -r .title
              The calendars found, grouped by source:
                ics-agenda calendars ~/.calendars/

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

    /// `calendars` is dispatched here: ArgumentParser reads a first word as
    /// an INPUT when the root command takes positional inputs.
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
        let arguments = CommandRunner.arguments
        if arguments.first == "calendars" {
            CommandRunner.run(CalendarsCommand.self, Array(arguments.dropFirst()))
        } else {
            CommandRunner.run(ICSAgenda.self, ConfigFile.withConfiguredOptions(arguments))
        }
    }

    @OptionGroup var options: AgendaOptions

    @OptionGroup var warnings: WarningOptions

    @OptionGroup var input: InputArguments

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let settings = try Settings(options, environment: environment)
        let pipeline = AgendaPipeline(settings: settings)
        let loaded = try ICSAgenda.reportingInputErrors { try pipeline.load(input.paths, strict: options.strict, warnings: warnings.detail) }
        if options.strict {
            let problems = loaded.reduce(0) { $0 + $1.diagnostics.count }
            if problems > 0 {
                StandardError.write("ics-agenda: \(problems) problem\(problems == 1 ? "" : "s") in the input (--strict); no agenda printed\n")
                throw ExitCode(65)
            }
        }
        var out = BufferedOutput()
        pipeline.render(loaded, options: options, environment: environment, to: &out)
        out.flush()
        // Done: the system takes the memory back at once, without freeing
        // the hundreds of thousands of occurrences one by one.
        Glibc.exit(0)
    }

    /// Input errors end the run with the contract's status: 66 missing or
    /// unreadable, 65 not iCalendar.
    static func reportingInputErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as UnreadableInput {
            StandardError.write("ics-agenda: \(PrintableText.escaped("\(error)"))\n")
            throw ExitCode(66)
        } catch let error as NotICalendar {
            StandardError.write("ics-agenda: \(PrintableText.escaped("\(error)"))\n")
            throw ExitCode(65)
        }
    }
}
