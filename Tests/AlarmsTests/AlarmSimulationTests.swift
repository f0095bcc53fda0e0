import AgendaCore
import Alarms
import Foundation
import ICalAdapter
import Testing

/// `alarms` run every minute, as cron runs it: over days with a change of
/// clocks, a daily series with an override, alarms before the end, with
/// repeats, at an absolute time, a day before (on the wall clock), before
/// an all-day event and before a reminder's due time, and two gaps in the
/// runs (one the catch-up covers, one it does not). Every alarm rings
/// exactly once, at the first run at or after its time.
@Suite struct AlarmSimulationTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/alarms/alarms.ics")
    static let clock = ZoneClock(TimeZone(identifier: "Europe/Berlin")!)

    static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    static func temporaryState(_ name: String) -> AlarmState {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-alarms-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        return AlarmState(path: folder.appendingPathComponent("state/alarms").path)
    }

    /// One run, as the command makes it, reading the fixture over the run's window.
    static func run(_ store: AlarmState, at now: Date, since: Date? = nil) throws -> AlarmRun.Outcome {
        let run = AlarmRun(store: store, clock: clock, catchUp: 3600)
        return try run.run(now: now, since: since) { window, ringing in
            var loader = CalendarLoader(window: window, threads: 1)
            loader.readsAlarms = true
            loader.ringing = ringing
            let data = try Data(contentsOf: fixture)
            let loaded = try loader.load(data, path: fixture.path, defaultName: "alarms", source: "Fixtures")
            return ([loaded.occurrences], loaded.window ?? window)
        }
    }

    /// The alarms of the fixture and when they go off (UTC).
    static let expected: [(title: String, time: String)] = [
        ("Standup", "2025-03-28T07:50:00Z"),  // 09:00 CET, 10 minutes before
        ("Standup", "2025-03-29T07:50:00Z"),
        ("Birthday", "2025-03-29T08:00:00Z"),  // all day on the 30th, 15 hours before its midnight
        // end - 5 min, twice repeated
        ("Review", "2025-03-29T13:55:00Z"), ("Review", "2025-03-29T13:57:00Z"), ("Review", "2025-03-29T13:59:00Z"),
        ("Flight", "2025-03-29T17:00:00Z"),  // a day before 18:00 CEST: 18:00 CET
        ("Standup", "2025-03-30T06:50:00Z"),  // 09:00 CEST now
        ("Flight", "2025-03-30T12:00:00Z"),  // absolute
        ("Standup (moved)", "2025-03-31T07:30:00Z"),  // the override's own alarm, 30 minutes before 10:00 CEST
        ("File taxes", "2025-03-31T15:00:00Z"),  // an hour before DUE
        ("Standup", "2025-04-01T06:50:00Z"),
    ]

    /// The minutes of the five days the simulation runs at: every one with
    /// `ICS_AGENDA_FULL_CHECKS=1` (`make check-all`: 7,200 runs, about
    /// five minutes); otherwise every minute from three before each alarm
    /// to three after it, and every 47th minute between (a step that meets
    /// every hour at another minute, and within the hour of catch-up), about 700 runs. Any alarm rung
    /// twice, missed, or rung that should not be still shows: a run rings
    /// all that went off since the one before, wherever the runs fall.
    static func minutesRun(from start: Date) -> [Int] {
        let all = 5 * 24 * 60
        if ProcessInfo.processInfo.environment["ICS_AGENDA_FULL_CHECKS"] == "1" { return Array(0..<all) }
        var minutes = Set(stride(from: 0, to: all, by: 47))
        for alarm in expected {
            let at = Int(utc(alarm.time).timeIntervalSince(start) / 60)
            minutes.formUnion(max(0, at - 3)...min(all - 1, at + 3))
        }
        return minutes.sorted()
    }

    @Test func everyAlarmRingsOnceWhenRunEveryMinute() throws {
        let store = AlarmSimulationTests.temporaryState("minutes")
        var rung: [(title: String, time: Date, ranAt: Date, late: Bool)] = []
        var missed = 0
        let start = AlarmSimulationTests.utc("2025-03-28T00:00:00Z")
        // Gaps: 30 minutes without a run (the catch-up rings them late), and four hours (too old: counted, not rung).
        let shortGap = AlarmSimulationTests.utc("2025-03-29T13:50:00Z")..<AlarmSimulationTests.utc("2025-03-29T14:20:00Z")
        let longGap = AlarmSimulationTests.utc("2025-03-30T04:00:00Z")..<AlarmSimulationTests.utc("2025-03-30T08:00:00Z")
        var first = true
        for minute in AlarmSimulationTests.minutesRun(from: start) {
            let now = start + TimeInterval(minute * 60)
            if shortGap.contains(now) || longGap.contains(now) { continue }
            let outcome = try AlarmSimulationTests.run(store, at: now, since: first ? start - 1 : nil)
            first = false
            missed += outcome.span.missed
            for entry in outcome.schedule.entries {
                rung.append((entry.occurrence.title, entry.time, now, entry.late))
                #expect(entry.time <= now && entry.time > now - 3600)
            }
        }
        let ringing = rung.map { "\($0.title) \(ISO8601DateFormatter().string(from: $0.time))" }
        let wanted = AlarmSimulationTests.expected.filter { $0.time != "2025-03-30T06:50:00Z" }
            .map { "\($0.title) \($0.time)" }
        #expect(ringing == wanted)
        #expect(missed == 1, "the standup of the 30th went off during the long gap")
        for r in rung {
            let inShortGap = r.time >= shortGap.lowerBound && r.time < shortGap.upperBound
            #expect(r.late == inShortGap, "\(r.title) at \(r.time): rung late only after the gap")
            if !inShortGap { #expect(r.ranAt.timeIntervalSince(r.time) < 60,
                "\(r.title): rung at the first run after it") }
        }
    }

    /// A run killed after writing its new time but before the rename leaves
    /// the old time: the next run rings what the killed one would have.
    @Test func aRunKilledWhileItWritesTheStateLosesNothing() throws {
        var store = AlarmSimulationTests.temporaryState("killed")
        _ = try AlarmSimulationTests.run(store, at: AlarmSimulationTests.utc("2025-03-29T13:50:00Z"))
        struct Killed: Error {}
        store.beforeRename = { throw Killed() }
        #expect(throws: Killed.self) { try AlarmSimulationTests.run(store,
            at: AlarmSimulationTests.utc("2025-03-29T13:56:00Z")) }
        #expect(try store.read() == .time(AlarmSimulationTests.utc("2025-03-29T13:50:00Z")))
        store.beforeRename = nil
        let next = try AlarmSimulationTests.run(store, at: AlarmSimulationTests.utc("2025-03-29T13:57:00Z"))
        #expect(next.schedule.entries.map { ISO8601DateFormatter().string(from: $0.time) } == ["2025-03-29T13:55:00Z",
            "2025-03-29T13:57:00Z"])
        #expect(try AlarmSimulationTests.run(store, at: AlarmSimulationTests.utc("2025-03-29T13:57:30Z"))
            .schedule.entries.isEmpty)
    }

    /// A clock set back a little (NTP, under a minute) rings nothing twice,
    /// and does not move the state back.
    @Test func aClockSetBackALittleRingsNothingAgain() throws {
        let store = AlarmSimulationTests.temporaryState("back")
        let later = AlarmSimulationTests.utc("2025-03-29T13:57:30Z")
        #expect(try AlarmSimulationTests.run(store, at: later, since: AlarmSimulationTests.utc("2025-03-29T13:50:00Z"))
            .schedule.entries.count == 2)
        let back = try AlarmSimulationTests.run(store, at: AlarmSimulationTests.utc("2025-03-29T13:57:00Z"))
        #expect(back.schedule.entries.isEmpty && back.stateWarning == nil)
        #expect(try store.read() == .time(later))
    }

    /// A state time further ahead is stale (a clock once set wrong, a file
    /// copied from another machine): believed, it would swallow every alarm
    /// until then. It is told, and read as the first run.
    @Test func aStateTimeInTheFutureIsStale() throws {
        let store = AlarmSimulationTests.temporaryState("ahead")
        _ = try AlarmSimulationTests.run(store, at: AlarmSimulationTests.utc("2025-03-29T14:30:00Z"))
        let now = AlarmSimulationTests.utc("2025-03-29T13:55:30Z")
        let outcome = try AlarmSimulationTests.run(store, at: now)
        #expect(outcome.schedule.entries.map { ISO8601DateFormatter()
            .string(from: $0.time) } == ["2025-03-29T13:55:00Z"])
        #expect(outcome.stateWarning?.contains("is after now; read as the first run") == true)
        #expect(try store.read() == .time(now))
    }

    @Test func aStateFileThatHoldsNoTimeIsToldAndReadAsTheFirstRun() throws {
        let store = AlarmSimulationTests.temporaryState("garbage")
        try FileManager.default.createDirectory(atPath: (store.path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        try "# comment\nyesterday-ish\n".write(toFile: store.path, atomically: true, encoding: .utf8)
        let outcome = try AlarmSimulationTests.run(store, at: AlarmSimulationTests.utc("2025-03-29T13:55:30Z"))
        #expect(outcome.stateWarning?.hasSuffix(":2: \"yesterday-ish\" is not a time as this program writes it (2025-03-03T08:00:00Z); read as the first run") == true)
        #expect(outcome.schedule.entries.count == 1, "the first run's span: one minute")
        #expect(try store.read() == .time(AlarmSimulationTests.utc("2025-03-29T13:55:30Z")))
    }
}
