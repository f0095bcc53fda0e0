import AgendaCore
import ArgumentParser
import Foundation

/// `ics-agenda join [OPTIONS] [INPUT ...]`: the link of the meeting on now,
/// else of the next one, so that `xdg-open "$(ics-agenda join)"` joins it.
struct JoinCommand: ParsableCommand, MomentCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Print the link to join the meeting happening now, else the next one starting soon.",
        discussion: """
            Looks at the timed occurrences happening now (the latest begun first), then at \
            those starting within --within, as next orders them, and prints the first link to \
            join a meeting among them, on one line. The link is the one JSON's meeting_url \
            gives: a CONFERENCE property (a video one first), Google's and Microsoft's own \
            properties, else the first link to a known meeting service (Zoom, Google Meet, \
            Microsoft Teams, Webex, Jitsi, Whereby, GoToMeeting, BlueJeans, Amazon Chime) in \
            URL, LOCATION or DESCRIPTION, with Outlook's Safe Links unwrapped. Nothing within \
            reach, or no link: nothing printed, status 1 (so that ics-agenda join && ... \
            opens nothing). Meetings I declined (--me) are passed over.

            Examples:
              link=$(ics-agenda join ~/.calendars/) && xdg-open "$link"
              ics-agenda join --within 1h --me me@example.com work.ics
              ics-agenda join --template '{start} {title}: {meeting_url}' work.ics
            """
    )

    @Option(name: .long, help: ArgumentHelp("How far ahead to look: 15m (default), 90m, 2h.", valueName: "duration"))
    var within = "15m"

    @OptionGroup var templateOption: TemplateOption

    @OptionGroup var common: CommonOptions

    @OptionGroup var warnings: WarningOptions

    @OptionGroup var subscriptions: SubscriptionOptions

    @OptionGroup var input: InputArguments

    func validate() throws {
        try JoinCommand.checkWithin(within)
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let settings = try Settings(self, environment: environment)
        let (upcoming, loaded) = try upcoming(within: within, settings: settings, environment: environment,
            includeAllDay: false, count: .max)
        // The meeting chosen: the first with a link; --template says which it is (its title, start, link).
        let chosen = upcoming.entries.first { $0.occurrence.meetingURL != nil }
        let link = chosen?.occurrence.meetingURL
        if let chosen, let link {
            var out = BufferedOutput()
            if let template = templateOption.template?.value {
                let formats = LocaleFormats(localeIdentifier: settings.localeIdentifier, clock: settings.clock)
                out.write(TemplateFormatter(template: template, formats: formats).line(chosen.row, chosen.occurrence)
                    + "\n")
            } else {
                out.write(PrintableText.escaped(link) + "\n")
            }
            out.flush()
        }
        try loaded.finish()
        // Nothing to join is a failure a script can test: `xdg-open "$(ics-agenda join)"` would open "".
        if link == nil { throw ExitCode(1) }
    }
}
