import AgendaCore
import Alarms
import ArgumentParser
import Foundation

/// `ics-agenda alarms [OPTIONS] [INPUT ...]`: the alarms that went off since
/// the previous run, each once, for cron.
struct AlarmsCommand: ParsableCommand, MomentCommand {
    static let configuration = CommandConfiguration(
        commandName: "alarms",
        abstract: "Print, or hand to a program, the alarms (VALARM) that went off since the previous run, each once.",
        discussion: """
            Each run covers the span from the previous run's time to now: run it every minute \
            from cron or a systemd timer. The time is kept in --state FILE (default \
            $XDG_STATE_HOME/ics-agenda/alarms, else ~/.local/state/ics-agenda/alarms), written \
            whole or not at all; two runs at once ring each alarm once. The first run starts the \
            span a minute ago; --since TIME starts it at TIME and rings every alarm since. Alarms \
            that went off while no run was made ring once, marked late, when less than --catch-up \
            old; older ones do not ring, and one line on standard error says how many, and since when.

            An alarm rings at its TRIGGER: before or after the start, or with RELATED=END the \
            end (a reminder's DTSTART and DUE), or at its own time; REPEAT and DURATION add \
            repeats (at most 100); days count on the wall clock of the time they count from (its \
            TZID's zone; the display zone's for floating and all-day times). Each instance of a series \
            has its alarms; an override its own, else its series'. Cancelled and declined \
            (--me) occurrences, completed reminders, ACTION:NONE and alarms ACKNOWLEDGED since \
            do not ring. An alarm may ring up to a year before or after its occurrence: each \
            calendar is read as far as its alarms reach. A TRIGGER that cannot be read is \
            told, and its alarm never rings.

            Text: one line per alarm, "9:50 AM  in 10 min: Standup (Room 4)". --format json: \
            the agenda's keys and alarm, action, minutes_until and late.

            --exec COMMAND runs COMMAND once per alarm instead of printing. COMMAND is split \
            into words as a configuration line is, and the placeholders in each word are \
            replaced: \(AlarmsCommand.placeholderList). No shell is involved, so no title can \
            run anything. A program that fails, or runs longer than 10 s, is told with a warning.

            Examples:
              * * * * * /usr/local/bin/ics-agenda alarms --exec 'notify-send {title} {when}' ~/.calendars/
              ics-agenda alarms --since 2025-03-03T08:00 --default 10m work.ics
            """
    )

    static let placeholderList = AlarmAction.placeholders.map { "{\($0)}" }.joined(separator: " ")

    @Option(name: .long, help: ArgumentHelp("The state file (default $XDG_STATE_HOME/ics-agenda/alarms).",
        valueName: "file"))
    var state: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Start the span at this time instead of the " +
        "previous run's (ISO 8601, as --now).", valueName: "time"))
    var since: String?

    @Option(name: .customLong("catch-up"), help: ArgumentHelp("Alarms missed while no run was made ring, marked " +
        "late, when less than this old (default 1h).", valueName: "duration"))
    var catchUp = "1h"

    @Option(name: .customLong("default"), help: ArgumentHelp("Give every timed event without a VALARM of its own one " +
        "alarm this long before its start (10m, 1h).", valueName: "duration"))
    var defaultLead: String?

    @Option(name: .long, help: ArgumentHelp("Run COMMAND once per alarm instead of printing; {placeholders} are " +
        "replaced in its words, no shell is used.", valueName: "command"))
    var exec: String?

    @Option(name: .long, help: ArgumentHelp("Output format: text or json (JSON Lines: the agenda's keys and " +
        "alarm, action, minutes_until, late)."))
    var format: AlarmFormatter.Format = .text

    @OptionGroup var common: CommonOptions

    @OptionGroup var warnings: WarningOptions

    @OptionGroup var subscriptions: SubscriptionOptions

    @OptionGroup var input: InputArguments

    func validate() throws {
        do { _ = try AlarmsCommand.seconds(catchUp) } catch { throw ValidationError("--catch-up: \(error)") }
        if let defaultLead {
            do { _ = try DurationText.seconds(defaultLead) } catch { throw ValidationError("--default: \(error)") }
        }
        if let exec {
            do { _ = try AlarmAction(command: exec) } catch { throw ValidationError("--exec: \(error)") }
        }
    }

    /// `--catch-up`: a span, or 0 (nothing missed rings).
    static func seconds(_ text: String) throws -> Int {
        text == "0" ? 0 : try DurationText.seconds(text)
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let settings = try Settings(self, environment: environment)
        let now = Date(timeIntervalSince1970: settings.now.timeIntervalSince1970.rounded(.down))
        var run = AlarmRun(store: AlarmState(path: state ?? AlarmState.location(environment: environment)),
            clock: settings.clock,
            catchUp: TimeInterval(try AlarmsCommand.seconds(catchUp)))
        run.defaultLead = try defaultLead.map { try DurationText.seconds($0) }
        run.selection = common.selection
        let start = try since.map { text in
            do { return try ClockReading.parse(text, zone: settings.clock) } catch {
                throw ValidationError("--since: \(error)")
            }
        }
        var loaded = LoadedInputs()
        let outcome: AlarmRun.Outcome
        do {
            outcome = try run.run(now: now, since: start) { window, ringing in
                loaded = try load(window, environment: environment, readsAlarms: true, ringing: ringing)
                // An input missing (told already) ends the run before anything rings or the time is kept:
                // its alarms ring on the run that reads it again, none lost and none twice.
                if loaded.missing { throw ExitCode(66) }
                return (loaded.calendars.map(\.occurrences),
                    AgendaWindow.spanning([window] + loaded.calendars.compactMap(\.window))!)
            }
        } catch let failure as AlarmState.Failure {
            StandardError.write("ics-agenda: alarms state \(PrintableText.escaped(failure.description))\n")
            throw ExitCode(74)
        }
        if warnings.detail != .none {
            if let warning = outcome.stateWarning {
                StandardError.write("ics-agenda: warning: \(PrintableText.escaped(warning))\n")
            }
            if outcome.span.missed > 0 {
                StandardError.write("ics-agenda: \(outcome.span.missedLine(clock: settings.clock))\n")
            }
            // `REPEAT:1000000000` is a mistake, not a wish: at most `Alarm.maxRepeats` ring, and the run
            // that rings the first of them says so (once an alarm, not in every run that rings a repeat).
            // So are a REPEAT that is no count, and one with no DURATION between the repeats (RFC 5545
            // 3.6.6: each needs the other): the alarm rings once, and the run that rings it says why.
            for entry in outcome.schedule.entries where entry.repetition == 0 {
                let alarm = entry.alarm
                let problem: String? =
                    if alarm.repeatCount > Alarm.maxRepeats {
                        "REPEAT:\(alarm.repeatCount) is more than \(Alarm.maxRepeats) repeats; \(Alarm.maxRepeats) ring"
                    } else if alarm.repeatCount < 0 {
                        "REPEAT:\(alarm.repeatCount) is not a number of repeats; it rings once"
                    } else if alarm.repeatCount > 0 && alarm.repeatInterval == 0 {
                        "REPEAT:\(alarm.repeatCount) has no DURATION between the repeats; it rings once"
                    } else {
                        nil
                    }
                guard let problem else { continue }
                let title = PrintableText.escaped(entry.occurrence.title)
                StandardError.write("ics-agenda: warning: \(entry.occurrence.calendar.path): alarm of \"\(title)\": " +
                    "\(problem)\n")
            }
        }
        let formats = LocaleFormats(localeIdentifier: settings.localeIdentifier, clock: settings.clock)
        let formatter = AlarmFormatter(formats: formats, now: now, format: format)
        if let exec {
            let action = try AlarmAction(command: exec)
            for entry in outcome.schedule.entries {
                action.run(for: entry, formatter: formatter, iso: ISOTime(clock: settings.clock))
            }
        } else {
            var out = BufferedOutput()
            formatter.write(outcome.schedule, to: &out)
            out.flush()
        }
        try loaded.finish()
    }
}
