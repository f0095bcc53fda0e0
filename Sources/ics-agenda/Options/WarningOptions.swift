import AgendaCore
import ArgumentParser

/// How much is said about damaged input on stderr.
struct WarningOptions: ParsableArguments {
    @Flag(name: [.customShort("v"), .long], help: ArgumentHelp("Tell every place of each kind of damage in the " +
        "input, not only the first with a count."))
    var verbose = false

    @Flag(name: [.customShort("q"), .long], help: ArgumentHelp("Tell nothing about damaged input on stderr (the exit " +
        "status stays the same)."))
    var quiet = false

    func validate() throws {
        if verbose && quiet { throw ValidationError("Give --verbose or --quiet, not both.") }
    }

    var detail: WarningDetail { quiet ? .none : verbose ? .every : .summary }
}
