import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The INPUT arguments both commands take: files, folders, or `-`.
struct InputArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("Calendar files, folders, or - for standard input.", valueName: "input"))
    var inputs: [String] = []

    /// With no INPUT, standard input is read, unless it is a terminal.
    func validate() throws {
        if inputs.isEmpty && isatty(0) != 0 {
            throw ValidationError("Give an .ics file, a folder, or - (standard input is a terminal).")
        }
    }

    var paths: [String] { inputs.isEmpty ? ["-"] : inputs }
}
