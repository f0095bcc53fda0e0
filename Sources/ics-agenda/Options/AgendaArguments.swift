import ArgumentParser

/// The agenda's arguments, declared once: its option groups and its
/// inputs. Three commands are made of them, each in its `Role`: the agenda
/// itself, the agenda as the root command it was (for its errors, worded
/// `ics-agenda [<options>] ...`), and a line of the configuration file.
///
/// A command, its groups side by side, rather than a group that each
/// command holds: ArgumentParser's debug build checks each group again for
/// every level above it, and one more level made a run of the debug binary
/// 2.6 times as long (a release run 1 ms, 5 %, longer).
struct AgendaArguments<Role: AgendaRole>: ParsableCommand {
    static var configuration: CommandConfiguration { Role.configuration }

    @OptionGroup var range: DayRangeOptions

    @OptionGroup var common: CommonOptions

    @OptionGroup var warnings: WarningOptions

    @OptionGroup var presentation: PresentationOptions

    @OptionGroup var colorChoice: ColorOptions

    @OptionGroup var listing: ListingOptions

    @OptionGroup var subscriptions: SubscriptionOptions

    @OptionGroup var input: Role.Input

    var options: AgendaOptions {
        AgendaOptions(range: range, common: common, warnings: warnings, presentation: presentation,
            colorChoice: colorChoice, listing: listing)
    }

    func run() throws { try Role.run(self) }
}

/// What a command made of the agenda's arguments is for: its name and
/// help, its inputs, and its run.
protocol AgendaRole {
    /// The commands' `InputArguments`, or a configuration line's: the
    /// configuration is read before the commands' check of standard input,
    /// which looks into it, can be made.
    associatedtype Input: AgendaInput

    static var configuration: CommandConfiguration { get }

    static func run(_ arguments: AgendaArguments<Self>) throws
}

extension AgendaRole {
    /// A command that is only parsed, never run: asked to run, it gives
    /// its help, as ArgumentParser's commands without a run of their own do.
    static func run(_ arguments: AgendaArguments<Self>) throws {
        throw CleanExit.helpRequest(AgendaArguments<Self>.self)
    }
}

/// The inputs of the agenda's arguments, and `--no-config`.
protocol AgendaInput: ParsableArguments {
    var inputs: [String] { get }
    var noConfig: Bool { get }
}

extension InputArguments: AgendaInput {}
