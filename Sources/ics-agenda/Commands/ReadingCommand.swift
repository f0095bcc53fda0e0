import AgendaCore
import ArgumentParser
import Foundation

/// A subcommand that reads calendars (`next`, `join`, `alarms`, `week`,
/// `month`): the options every one of them takes, its clock, zone and
/// locale from them, and its inputs read over a window.
protocol ReadingCommand: SettingsChoice {
    var common: CommonOptions { get }
    var warnings: WarningOptions { get }
    var subscriptions: SubscriptionOptions { get }
    var input: InputArguments { get }
}

extension ReadingCommand {
    var now: String? { common.now }
    var tz: String? { common.tz }
    var locale: String? { common.locale }

    /// Every input read over `window`, with `--me` and `--calendar`; `--strict` fails on damage.
    func load(_ window: AgendaWindow, environment: [String: String], readsAlarms: Bool = false,
        ringing: ClosedRange<Date>? = nil) throws -> LoadedInputs {
        try CommandInputs.loadStrictly(input.paths(), window: window, strict: common.strict, warnings: warnings.detail,
            calendars: common.calendar, fetch: subscriptions.fetch(environment: environment), me: common.me,
                readsAlarms: readsAlarms, ringing: ringing,
            naming: common.naming.naming)
    }
}
