import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The INPUT arguments both commands take: files, folders, or `-`.
struct InputArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("Calendar files, folders, or - for standard input.", valueName: "input"))
    var inputs: [String] = []

    @Flag(name: .long, help: "Read no configuration file (ICS_AGENDA_CONFIG, else ~/.config/ics-agenda/config).")
    var noConfig = false

    /// With no INPUT, standard input is read, unless it is a terminal and
    /// the configuration names no inputs.
    func validate() throws {
        if inputs.isEmpty && isatty(0) != 0 && ConfigFile.configuredInputs(noConfig: noConfig).isEmpty {
            throw ValidationError("Give an .ics file, a folder, or - (standard input is a terminal).")
        }
    }

    /// The inputs named, else the configured ones when standard input gives
    /// nothing (a terminal, cron), else standard input.
    var paths: [String] {
        if !inputs.isEmpty { return inputs }
        let configured = ConfigFile.configuredInputs(noConfig: noConfig)
        return configured.isEmpty ? ["-"] : configured
    }
}
