import AgendaCore
import ArgumentParser
import Foundation
import ICalAdapter
import Subscriptions

/// A command's inputs read, for every command: the errors that end the run
/// with the contract's status, `--strict`, and `--calendar` names that name
/// no calendar read.
enum CommandInputs {
    /// Reads the inputs for every command that lists occurrences; with
    /// `strict`, any problem in them ends the run once every warning is out:
    /// 66 when a file or folder could not be read, else 65.
    /// - Parameter calendars: the `--calendar` names asked for; one that
    ///   names no calendar read is told, with the calendars there are.
    static func loadStrictly(
        _ paths: [String], window: AgendaWindow, strict: Bool, warnings: WarningDetail, calendars: [String] = [],
            fetch: SubscriptionFetch,
        me: Set<String> = [], readsAlarms: Bool = false, keepsText: Bool = false, ringing: ClosedRange<Date>? = nil,
        naming: CalendarChoice.Naming = .init()
    ) throws -> LoadedInputs {
        Signals.ignoreBrokenPipes()
        let loaded = try CommandInputs.reportingInputErrors {
            try AgendaPipeline.load(paths, window: window, warnings: warnings, fetch: fetch, me: me,
                readsAlarms: readsAlarms,
                keepsText: keepsText, ringing: ringing)
        }
        if strict {
            // A file found that is not iCalendar is a problem of the input, one
            // that could not be read is not (66).
            let problems = loaded.calendars.reduce(loaded.notCalendar) {
                $0 + $1.diagnostics.reduce(0) { $0 + $1.problems }
            }
            let unreadable = loaded.unreadable + loaded.missingInputs
            if problems > 0 || unreadable > 0 {
                var parts: [String] = []
                if unreadable > 0 {
                    let s = unreadable == 1 ? "" : "s"
                    parts.append("\(unreadable) file\(s) or folder\(s) could not be read")
                }
                if problems > 0 { parts.append("\(problems) problem\(problems == 1 ? "" : "s") in the input") }
                StandardError.write("ics-agenda: \(parts.joined(separator: ", ")) (--strict); no agenda printed\n")
                throw ExitCode(unreadable > 0 ? 66 : 65)
            }
        }
        let unknown = CalendarChoice.apply(naming, asked: calendars, to: loaded)
        // The calendars there are, looked for only when a name found none: it walks every occurrence.
        if warnings != .none, !unknown.isEmpty, let line = CommandInputs.unknownCalendars(unknown,
            among: CalendarChoice.every(in: loaded).map(\.name)) {
            StandardError.write("ics-agenda: warning: \(line)\n")
        }
        return loaded
    }

    /// The `--calendar` names that matched no calendar read (by name, by
    /// folder, in any case), and the names there are.
    static func unknownCalendars(_ asked: [String], among names: [String]) -> String? {
        let known = Set(names)
        var unknown: [String] = []
        var told = Set<String>()
        for name in asked where told.insert(name).inserted { unknown.append(name) }
        guard !unknown.isEmpty else { return nil }
        func quoted(_ names: some Sequence<String>) -> String {
            names.map { "\"\(PrintableText.escaped($0))\"" }.joined(separator: ", ")
        }
        // One line of a readable length, however many names were asked for.
        let shown = unknown.count > 10 ? quoted(unknown.prefix(10))
            + " and \(unknown.count - 10) more" : quoted(unknown)
        let there = known.sorted()
        let listed = quoted(there.prefix(10))
        let more = there.count > 10 ? " and \(there.count - 10) more" : ""
        let plural = unknown.count == 1 ? "calendar" : "calendars"
        return "--calendar \(shown): no such \(plural); the calendars are \(there.isEmpty ? "none" : listed + more)"
    }

    /// Input errors end the run with the contract's status: 66 missing or
    /// unreadable, 65 not iCalendar, 64 a URL that cannot be fetched.
    static func reportingInputErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as UnreadableInput {
            StandardError.write("ics-agenda: \(PrintableText.escaped("\(error)"))\n")
            throw ExitCode(66)
        } catch let error as NotICalendar {
            StandardError.write("ics-agenda: \(PrintableText.escaped("\(error)"))\n")
            throw ExitCode(65)
        } catch let error as SubscriptionURL.Invalid {
            StandardError.write("ics-agenda: \(PrintableText.escaped("\(error)"))\n")
            throw ExitCode(64)
        }
    }
}
