import AgendaCore
import ArgumentParser
import Foundation
import Subscriptions

/// `ics-agenda next [OPTIONS] [INPUT ...]`: what is on now, else next, for status bars.
struct NextCommand: ParsableCommand, MomentCommand {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "Print the timed occurrence happening now, else the next one to start, for status bars and prompts.",
        discussion: """
            Text is one line per occurrence, in the locale's times and dates: \
            "now: Standup (until 10:00 AM)", "in 25 min: Standup", "today 2:00 PM: Review", \
            "tomorrow 9:00 AM: Review", "Wed 5 9:00 AM: Review". Occurrences already begun \
            come first, the latest begun first; cancelled ones never count. Nothing within \
            reach prints nothing (status 0).

            --format json prints the agenda's JSON Lines with "minutes_until" (0 once begun); \
            --format waybar prints one object {"text", "tooltip", "class"} for a Waybar custom \
            module (return-type json): the first line, the next --count (at least 5) lines, and \
            now, soon (within 15 minutes) or later.

            Only the span from now to now + --within is read: a status bar can run it every minute.

            Examples:
              ics-agenda next ~/.calendars/
              ics-agenda next --within 3d --count 3 work.ics
              ics-agenda next --format waybar --within 12h ~/.calendars/
            """
    )

    @Option(name: .long, help: ArgumentHelp("How far ahead to look: 90m, 2h, 3d, 1h30m.", valueName: "duration"))
    var within = "24h"

    @Option(name: .long, help: ArgumentHelp("How many occurrences to print.", valueName: "n"))
    var count = 1

    @Flag(name: .long, help: "Count all-day occurrences too (\"today: Holiday\", \"tomorrow: Holiday\").")
    var allDay = false

    @Option(name: .long, help: ArgumentHelp("Output format: text, json (JSON Lines: the agenda's keys and " +
        "minutes_until) or waybar (one JSON object: text, tooltip, class)."))
    var format: UpcomingFormatter.Format = .text

    @OptionGroup var templateOption: TemplateOption

    @OptionGroup var common: CommonOptions

    @OptionGroup var warnings: WarningOptions

    @OptionGroup var subscriptions: SubscriptionOptions

    @OptionGroup var input: InputArguments

    func validate() throws {
        try NextCommand.checkWithin(within)
        if count < 1 { throw ValidationError("--count takes a whole number, 1 or more.") }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let settings = try Settings(self, environment: environment)
        let shown = format == .waybar ? max(count, 5) : count
        let (upcoming, loaded) = try upcoming(within: within, settings: settings, environment: environment,
            includeAllDay: allDay, count: shown)
        var out = BufferedOutput()
        let formats = LocaleFormats(localeIdentifier: settings.localeIdentifier, clock: settings.clock)
        if let template = templateOption.template?.value {
            let lines = TemplateFormatter(template: template, formats: formats)
            for entry in upcoming.entries { out.write(lines.line(entry.row, entry.occurrence) + "\n") }
        } else {
            UpcomingFormatter(formats: formats, now: settings.now, format: format).write(upcoming, to: &out)
        }
        out.flush()
        try loaded.finish()
    }
}
