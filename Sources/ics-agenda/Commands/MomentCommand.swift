import AgendaCore
import ArgumentParser
import Foundation

/// What `next`, `join` and `alarms` share: they read the calendars around
/// one moment (now), and have no days of their own.
protocol MomentCommand: ReadingCommand {}

extension MomentCommand {
    var from: String? { nil }
    var to: String? { nil }
    var days: Int? { nil }

    /// The events on now, else starting within `within` (`next`'s order):
    /// only now ..< now + within is read, so that the prefilter skips the rest.
    func upcoming(within: String, settings: Settings, environment: [String: String], includeAllDay: Bool, count: Int)
        throws -> (upcoming: Upcoming, loaded: LoadedInputs)
    {
        let reach = settings.now + TimeInterval(try DurationText.seconds(within))
        let window = AgendaWindow(from: settings.now, to: reach, clock: settings.clock)
        let loaded = try load(window, environment: environment)
        var selection = common.selection
        selection.includeReminders = false
        let sections = AgendaBuilder(window: window, today: settings.today, selection: selection)
            .build(parts: loaded.calendars.map(\.occurrences), threads: AgendaPipeline.workerCount)
        return (Upcoming(sections: sections, now: settings.now, end: reach, clock: settings.clock,
            includeAllDay: includeAllDay, count: count), loaded)
    }

    /// `--within`: a span longer than 0.
    static func checkWithin(_ within: String) throws {
        let seconds: Int
        do { seconds = try DurationText.seconds(within) } catch { throw ValidationError("--within: \(error)") }
        if seconds == 0 { throw ValidationError("--within: give a span longer than 0.") }
    }
}
