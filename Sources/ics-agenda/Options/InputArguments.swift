import AgendaCore
import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The INPUT arguments both commands take: files, folders, or `-`.
struct InputArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("Calendar files, folders, URLs, CalDAV accounts (davs://HOST/), or - for " +
        "standard input.", valueName: "input"), completion: .file())
    var packedInputs: [String] = []

    /// The inputs, as many words as were given (`CommandLineInput.packed`).
    var inputs: [String] { CommandLineInput.unpacked(packedInputs) }

    @Flag(name: .long, help: "Read no configuration file (ICS_AGENDA_CONFIG, else ~/.config/ics-agenda/config).")
    var noConfig = false

    /// With no INPUT, standard input is read, unless it is a terminal and
    /// the configuration names no inputs.
    func validate() throws {
        if packedInputs.isEmpty && isatty(0) != 0 && ConfigFile.configuredInputs(noConfig: noConfig).isEmpty {
            throw ValidationError("Give an .ics file, a folder, or - (standard input is a terminal).")
        }
    }

    /// The inputs named, else the configured ones when standard input gives
    /// nothing (a terminal, cron), else standard input. With none named,
    /// none configured and nothing on standard input (cron before any
    /// set-up) there is nothing to read: the run ends as a usage error (64)
    /// that says how to name inputs, in one line, not the whole help. A `-`
    /// named on an empty standard input is read, and is not iCalendar (65).
    func paths() throws -> [String] {
        if !packedInputs.isEmpty { return inputs }
        let configured = ConfigFile.configuredInputs(noConfig: noConfig)
        if !configured.isEmpty { return configured }
        if StandardInput.givesNoBytes() {
            let config = ConfigFile.location(environment: ProcessInfo.processInfo.environment)
            StandardError.write(
                "ics-agenda: nothing to read: name .ics files, folders or - (standard input gave nothing), or list " +
                    "inputs in \(PrintableText.escaped(config))\n")
            throw ExitCode(64)
        }
        return ["-"]
    }
}
