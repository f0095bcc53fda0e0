import ArgumentParser

/// The agenda as the root command it was before the subcommands came, used
/// only to word its errors: `Usage: ics-agenda [<options>] [<input> ...]`
/// and `See 'ics-agenda --help'`, byte for byte as scripts and tests saw
/// them, instead of `ics-agenda agenda ...`.
typealias AgendaAsRoot = AgendaArguments<AgendaAsRootRole>

/// The agenda's arguments in the role of the root, for the agenda's errors.
enum AgendaAsRootRole: AgendaRole {
    typealias Input = InputArguments

    static let configuration = CommandConfiguration(
        commandName: "ics-agenda", abstract: "Print a one-year agenda of iCalendar (.ics) files, grouped by day.",
        discussion: Subcommand.byDefault.type.configuration.discussion)
}

extension AgendaArguments where Role == AgendaAsRootRole {
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
