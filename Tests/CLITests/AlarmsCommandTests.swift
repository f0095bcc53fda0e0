import Foundation
import Synchronization
import Testing

/// `ics-agenda alarms` as cron runs it: text and JSON, the state between
/// runs, two runs at once, the catch-up line, and `--exec` with no shell.
@Suite struct AlarmsCommandTests {
    static let fixture = "Fixtures/alarms/alarms.ics"

    static func folder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-alarms-cli-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func alarms(_ state: URL, _ now: String, _ extra: [String] = [],
        input: String = fixture) throws -> CLI.Result {
        try CLI.run(["alarms", "--no-config", "--state", state.path, "--tz", "Europe/Berlin", "--locale", "en_US",
            "--now", now] + extra + [input])
    }

    /// `Fixtures/alarms/NAME.ics` rung from `since` to 13:00 on 2025-03-29, in a folder of its own.
    static func replayed(_ name: String, since: String) throws -> (folder: URL, run: CLI.Result) {
        let folder = try AlarmsCommandTests.folder(name)
        let run = try AlarmsCommandTests.alarms(folder.appendingPathComponent("state"), "2025-03-29T13:00:00+01:00",
            ["--since", since], input: "Fixtures/alarms/\(name).ics")
        return (folder, run)
    }

    @Test func eachRunRingsWhatWentOffSinceTheLast() throws {
        let state = try AlarmsCommandTests.folder("runs").appendingPathComponent("alarms")
        // The first run: the minute before it.
        let first = try AlarmsCommandTests.alarms(state, "2025-03-29T08:50:30+01:00")
        #expect(first.stdout == "8:50 AM  in 10 min: Standup (Room 4)\n" && first.stderr.isEmpty && first.status == 0)
        #expect(try String(contentsOf: state, encoding: .utf8).hasSuffix("\n2025-03-29T07:50:30Z\n"))
        // The next, an hour later: the all-day birthday's alarm (15 hours before its day) rang at 9:00, 50 minutes
        // before.
        #expect(try AlarmsCommandTests.alarms(state, "2025-03-29T09:50:00+01:00")
            .stdout == "9:00 AM  tomorrow: Birthday (late)\n")
        #expect(try AlarmsCommandTests.alarms(state, "2025-03-29T09:50:00+01:00").stdout == "", "nothing twice")
        let json = try AlarmsCommandTests.alarms(state, "2025-03-29T14:58:00+01:00", ["--format", "json"])
        let rows = json.stdout.split(separator: "\n")
            .map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(rows.map { $0["alarm"] as? String } == ["2025-03-29T14:55:00+01:00", "2025-03-29T14:57:00+01:00"])
        #expect(rows.allSatisfy { $0["title"] as? String == "Review" && $0["action"] as? String == "AUDIO" })
        #expect(rows.map { $0["late"] as? Bool } == [true, false], "three minutes before the run, then one")
        #expect(rows.map { $0["minutes_until"] as? Int } == [0, 0], "it began at 14:00")
        #expect(rows.allSatisfy { $0.keys.contains("meeting_url") && $0.keys.contains("overlap_count") })
    }

    @Test func alarmsMissedWhileNoRunWasMadeRingLateOrAreCounted() throws {
        let state = try AlarmsCommandTests.folder("catchup").appendingPathComponent("alarms")
        _ = try AlarmsCommandTests.alarms(state, "2025-03-29T06:00:00+01:00")
        // Off from 6:00 to 15:10: the standup (8:50) and the birthday (9:00) are older than an hour; the review's three
        // are not.
        let back = try AlarmsCommandTests.alarms(state, "2025-03-29T15:10:00+01:00")
        #expect(back.stdout == "2:55 PM  ended 3:00 PM: Review (late)\n2:57 PM  ended 3:00 PM: Review (late)\n2:59 PM  ended 3:00 PM: Review (late)\n")
        #expect(back.stderr == "ics-agenda: 2 alarms missed since 2025-03-29T06:00:00+01:00 (more than 1h before this run, --catch-up): not rung\n")
        #expect(try AlarmsCommandTests.alarms(state, "2025-03-29T15:11:00+01:00", ["-q"]).stderr.isEmpty)
        // --since asks for everything after it.
        let since = try AlarmsCommandTests.alarms(state, "2025-03-29T15:10:00+01:00",
            ["--since", "2025-03-29T08:00:00+01:00"])
        #expect(since.stdout.split(separator: "\n").count == 5 && since.stderr.isEmpty)
    }

    /// Two runs started together ring each alarm once between them.
    @Test func twoRunsAtOnceRingEachAlarmOnce() throws {
        let folder = try AlarmsCommandTests.folder("twice")
        let state = folder.appendingPathComponent("alarms")
        _ = try AlarmsCommandTests.alarms(state, "2025-03-29T14:00:00+01:00")
        let collected = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let output = (try? AlarmsCommandTests.alarms(state, "2025-03-29T15:00:00+01:00").stdout) ?? "failed"
            collected.withLock { $0.append(output) }
        }
        let outputs = collected.withLock { $0 }
        let lines = outputs.flatMap { $0.split(separator: "\n") }.map(String.init)
        #expect(lines == ["2:55 PM  now: Review (late)", "2:57 PM  now: Review (late)", "2:59 PM  now: Review"],
            "\(outputs)")
    }

    /// `--exec` hands each alarm to a program as words: a title that is
    /// shell syntax arrives as text, and nothing runs it.
    @Test func execRunsAProgramWithNoShell() throws {
        let folder = try AlarmsCommandTests.folder("exec")
        let record = folder.appendingPathComponent("record")
        let pwned = folder.appendingPathComponent("pwned")
        let calendar = folder.appendingPathComponent("hostile.ics")
        try """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//test//EN
            BEGIN:VEVENT
            UID:hostile@x
            DTSTART:20250329T100000Z
            DTEND:20250329T110000Z
            SUMMARY:$(touch \(pwned.path))\\; `touch \(pwned.path)` & touch \(pwned.path) | "quoted" 'single'
            LOCATION:Room\\;1
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:-PT5M
            END:VALARM
            END:VEVENT
            END:VCALENDAR

            """.write(to: calendar, atomically: true, encoding: .utf8)
        let program = folder.appendingPathComponent("record-args")
        try "#!/bin/sh\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\" >> \"\(record.path)\"; done\n".write(to: program,
            atomically: true, encoding: .utf8)
        chmod(program.path, 0o755)
        let run = try AlarmsCommandTests.alarms(folder.appendingPathComponent("alarms"), "2025-03-29T10:55:30+01:00",
            ["--exec", "\(program.path) {title} 'at {time}: {when}' {location}{{x}}"], input: calendar.path)
        #expect(run.status == 0 && run.stdout.isEmpty && run.stderr.isEmpty, "\(run.stderr)")
        let recorded = try String(contentsOf: record, encoding: .utf8)
        #expect(recorded == "[$(touch \(pwned.path)); `touch \(pwned.path)` & touch \(pwned.path) | \"quoted\" 'single']\n[at 10:55 AM: in 5 min]\n[Room;1{x}]\n")
        #expect(!FileManager.default.fileExists(atPath: pwned.path), "nothing ran the title")
    }

    @Test func aProgramThatFailsIsToldAndTheOthersStillRun() throws {
        let folder = try AlarmsCommandTests.folder("fails")
        let state = folder.appendingPathComponent("alarms")
        _ = try AlarmsCommandTests.alarms(state, "2025-03-29T14:50:00+01:00")
        let run = try AlarmsCommandTests.alarms(state, "2025-03-29T15:00:00+01:00",
            ["--exec", "sh -c 'exit 3' {title}"])
        #expect(run.status == 0 && run.stdout.isEmpty)
        #expect(run.stderr.split(separator: "\n").count == 3)
        #expect(run.stderr.hasPrefix("ics-agenda: warning: --exec: sh exited with status 3 (alarm of \"Review\" at 2:55 PM)\n"))
        let missing = try AlarmsCommandTests.alarms(state, "2025-03-29T15:00:00+01:00",
            ["--exec", "/nonexistent/notify {title}", "--since", "2025-03-29T14:56:00+01:00"])
        #expect(missing.stderr.hasPrefix("ics-agenda: warning: --exec: /nonexistent/notify: No such file or directory (alarm of \"Review\""))
        let bad = try AlarmsCommandTests.alarms(state, "2025-03-29T15:00:00+01:00", ["--exec", "notify-send {nope}"])
        #expect(bad.status == 64 && bad.stderr.contains("--exec: unknown placeholder {nope}"))
    }

    /// `--default`: a timed event without a VALARM of its own rings that long before it; one with its own keeps its
    /// own.
    @Test func aDefaultAlarmForEventsWithoutOne() throws {
        let state = try AlarmsCommandTests.folder("default").appendingPathComponent("alarms")
        let teams = try AlarmsCommandTests.alarms(state, "2025-03-03T09:51:00+01:00",
            ["--default", "10m", "--since", "2025-03-03T09:00:00+01:00"], input: "Fixtures/meetings/teams_invite.ics")
        #expect(teams.stdout == "9:50 AM  in 9 min: Quarterly planning (Microsoft Teams Meeting)\n")
        #expect(try AlarmsCommandTests.alarms(state, "2025-03-03T09:52:00+01:00",
            input: "Fixtures/meetings/teams_invite.ics").stdout == "")
        let own = try AlarmsCommandTests.alarms(state, "2025-03-29T08:51:00+01:00",
            ["--default", "1h", "--since", "2025-03-29T07:00:00+01:00"])
        #expect(own.stdout.split(separator: "\n") == ["8:50 AM  in 9 min: Standup (Room 4)"],
            "its own alarm, not the default")
    }

    /// Runs killed at any moment (SIGKILL, at 0 to 60 ms) never leave a torn
    /// state: the file always holds a whole time, and the run after rings
    /// what went off since the last time written, once.
    @Test func runsKilledAtAnyMomentLeaveAWholeState() throws {
        let folder = try AlarmsCommandTests.folder("killed")
        let state = folder.appendingPathComponent("alarms")
        _ = try AlarmsCommandTests.alarms(state, "2025-03-29T14:50:00+01:00")
        for i in 0..<12 {
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = ["alarms", "--no-config", "--state", state.path, "--tz", "Europe/Berlin", "--locale",
                "en_US",
                "--now", "2025-03-29T14:5\(1 + i % 6):00+01:00", AlarmsCommandTests.fixture]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(i * 5_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let text = try String(contentsOf: state, encoding: .utf8)
            #expect(text.range(of: #"\n2025-03-29T13:5[0-6]:00Z\n$"#, options: .regularExpression) != nil, "torn: \(text)")
        }
        // Whatever the killed runs did, the ones after ring each alarm at most once, and the last one left.
        let after = try AlarmsCommandTests.alarms(state, "2025-03-29T15:00:00+01:00").stdout
        #expect(after.hasSuffix("2:59 PM  now: Review\n"))
        #expect(try AlarmsCommandTests.alarms(state, "2025-03-29T15:00:00+01:00").stdout.isEmpty)
    }

    /// Items that share a UID (a conference feed) or have none ring each; a
    /// declined meeting never rings, even when --show-declined lists it.
    @Test func everyOccurrenceRingsItsOwnAlarmsAndDeclinedOnesNone() throws {
        let folder = try AlarmsCommandTests.folder("shared")
        let calendar = folder.appendingPathComponent("talks.ics")
        func event(_ uid: String?, _ title: String, _ extra: String = "") -> String {
            (uid.map { "BEGIN:VEVENT\nUID:\($0)\n" } ?? "BEGIN:VEVENT\n")
                + "DTSTAMP:20250301T000000Z\nDTSTART:20250329T090000Z\n"
                + "DTEND:20250329T100000Z\nSUMMARY:\(title)\n\(extra)BEGIN:VALARM\nACTION:DISPLAY\nTRIGGER:-PT10M\nEND:VALARM\nEND:VEVENT\n"
        }
        let events = event("talk", "Talk A") + event("talk", "Talk B") + event(nil, "No UID") + event(nil, "No UID")
            + event("declined", "Declined", "ATTENDEE;PARTSTAT=DECLINED:mailto:me@example.com\n")
        try ("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\n" + events + "END:VCALENDAR\n").write(to: calendar,
            atomically: true, encoding: .utf8)
        let run = try AlarmsCommandTests.alarms(folder.appendingPathComponent("alarms"), "2025-03-29T09:50:30+01:00",
            ["--me", "me@example.com", "--show-declined"], input: calendar.path)
        #expect(run.stdout.split(separator: "\n").map { String($0.split(separator: ":").last ?? "") }
            .sorted() == [" No UID", " No UID", " Talk A", " Talk B"])
    }

    /// A state time far ahead (a clock once set ahead) is told and not believed: alarms ring again.
    @Test func aStateTimeFarAheadIsToldAndReadAsTheFirstRun() throws {
        let folder = try AlarmsCommandTests.folder("ahead")
        let state = folder.appendingPathComponent("alarms")
        try "2030-01-01T00:00:00Z\n".write(to: state, atomically: true, encoding: .utf8)
        let run = try AlarmsCommandTests.alarms(state, "2025-03-29T08:50:30+01:00")
        #expect(run.stdout == "8:50 AM  in 10 min: Standup (Room 4)\n")
        #expect(run.stderr.hasSuffix("the last run's time, 2030-01-01T00:00:00Z, is after now; read as the first run\n"))
        #expect(try String(contentsOf: state, encoding: .utf8).hasSuffix("\n2025-03-29T07:50:30Z\n"))
    }

    @Test func aStateThatCannotBeWrittenIsAnOutputError() throws {
        let run = try CLI.run(["alarms", "--no-config", "--state", "/proc/ics-agenda/alarms", "--now",
            "2025-03-29T15:00:00+01:00",
            AlarmsCommandTests.fixture])
        #expect(run.status == 74 && run.stderr.hasPrefix("ics-agenda: alarms state /proc/ics-agenda/alarms.lock: "))
    }
    /// An alarm rings however far from its occurrence it is set, and JSON
    /// lists it under the day its occurrence starts: an override without
    /// VALARMs rings its series' alarm at its own time (not the instance it
    /// replaced), a birthday's a month before, a visit's report five days
    /// after, a task's absolute alarm months before it is due, a
    /// conference's three days before its end.
    @Test func alarmsRingAsFarFromTheirOccurrencesAsTheyAreSet() throws {
        let folder = try AlarmsCommandTests.folder("reach")
        let since = ["--since", "2025-03-28T12:00:00+01:00"]
        let run = try AlarmsCommandTests.alarms(folder.appendingPathComponent("text"), "2025-03-29T23:00:00+01:00",
            since,
            input: "Fixtures/alarms/reach.ics")
        #expect(run.stdout == """
            12:00 AM  until Mon 31: Conference (late)
            12:00 AM  Apr 28, 2025: Anniversary (late)
            11:00 AM  ended Mar 24, 2025 11:00 AM: Site visit (late)
            11:00 AM  Jul 1, 2025: Renew passport (late)
            3:45 PM  ended 4:30 PM: Team sync (moved to Saturday) (late)

            """ && run.stderr.isEmpty)
        let json = try AlarmsCommandTests.alarms(folder.appendingPathComponent("json"), "2025-03-29T23:00:00+01:00",
            since + ["--format", "json"],
            input: "Fixtures/alarms/reach.ics")
        let rows = json.stdout.split(separator: "\n")
            .map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(rows.map { $0["day"] as? String } == ["2025-03-20", "2025-04-28", "2025-03-24", "2025-07-01",
            "2025-03-29"])
        // Written in lower case and folded, sixty days before a UTC time (60 times 24
        // hours, RFC 5545 3.3.6: 09:00 in Berlin before the change of clocks, as the
        // meeting's 08:00Z is 10:00 after it): read as far as it reaches.
        let calendar = folder.appendingPathComponent("far.ics")
        try """
            BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\nBEGIN:VEVENT\nUID:far\nDTSTAMP:20250301T000000Z\n\
            DTSTART:20250528T080000Z\nDURATION:PT1H\nSUMMARY:Far\nBEGIN:VALARM\naction:DISPLAY\ndescription:Far\n\
            trigger;related=start:-P6\n 0D\nEND:VALARM\nEND:VEVENT\nEND:VCALENDAR\n
            """.write(to: calendar, atomically: true, encoding: .utf8)
        let far = try AlarmsCommandTests.alarms(folder.appendingPathComponent("far"), "2025-03-29T09:00:30+01:00",
            input: calendar.path)
        #expect(far.stdout == "9:00 AM  May 28, 2025 10:00 AM: Far\n" && far.stderr.isEmpty)
    }
    /// Alarms written at the edges ring once, at their time: an override
    /// of a series with nothing else in the window rings its series' alarm;
    /// an absolute alarm of a series (quoted VALUE) rings once, for the
    /// instance it is before, not again for an override; a reminder
    /// without dates rings its absolute alarm; a reminder due in two months
    /// rings from its start (a TRIGGER folded in its name); ACTION:NONE
    /// (RFC 9074) never rings.
    @Test func alarmsAtTheEdgesRingOnceAtTheirTime() throws {
        let (folder, run) = try AlarmsCommandTests.replayed("edges", since: "2025-03-28T00:00:00+01:00")
        #expect(run.stdout == """
            9:00 AM  ended 11:00 AM: Weekly (late)
            9:45 AM  no date: Call the bank (late)
            10:45 AM  ended 12:00 PM: Yearly review (moved) (late)
            10:45 AM  due Jun 1, 2025 12:00 PM: Start the report (late)

            """ && run.stderr.isEmpty, "\(run.stdout)")
        // More absolute alarms than are remembered one by one: still read as far as they reach.
        var text = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\nBEGIN:VTODO\nUID:old\nDTSTAMP:20200101T000000Z\nSUMMARY:Old\nSTATUS:COMPLETED\n"
        for _ in 0...AlarmsCommandTests.absoluteRemembered {
            text += "BEGIN:VALARM\nACTION:AUDIO\nTRIGGER;VALUE=DATE-TIME:20200101T000000Z\nEND:VALARM\n"
        }
        text += "END:VTODO\nBEGIN:VTODO\nUID:passport\nDTSTAMP:20250301T000000Z\nDUE;VALUE=DATE:20250701\nSUMMARY:Renew passport\n"
            + "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:x\nTRIGGER;VALUE=DATE-TIME:20250329T100000Z\nEND:VALARM\nEND:VTODO\nEND:VCALENDAR\n"
        let many = folder.appendingPathComponent("many.ics")
        try text.write(to: many, atomically: true, encoding: .utf8)
        let far = try AlarmsCommandTests.alarms(folder.appendingPathComponent("many"), "2025-03-29T11:00:30+01:00",
            input: many.path)
        #expect(far.stdout == "11:00 AM  Jul 1, 2025: Renew passport\n", "\(far.stdout)")
    }

    /// A TRIGGER libical cannot read is told, once, on its line, by
    /// `alarms` (its alarm never rings); an agenda, which reads no alarm,
    /// tells nothing. One in lower case is valid (ABNF ignores case) and rings.
    @Test func anUnreadableTriggerIsToldByAlarmsOnly() throws {
        let folder = try AlarmsCommandTests.folder("triggers")
        func event(_ uid: String, _ trigger: String) -> String {
            "BEGIN:VEVENT\nUID:\(uid)\nDTSTAMP:20250301T000000Z\nDTSTART:20250329T110000Z\nDURATION:PT1H\nSUMMARY:\(uid)\n"
                + "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:x\nTRIGGER:\(trigger)\nEND:VALARM\nEND:VEVENT\n"
        }
        let calendar = folder.appendingPathComponent("triggers.ics")
        try ("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\n" + event("bogus", "soon") + event("lower", "-pt15m")
            + "END:VCALENDAR\n")
            .write(to: calendar, atomically: true, encoding: .utf8)
        let run = try AlarmsCommandTests.alarms(folder.appendingPathComponent("state"), "2025-03-29T12:50:30+01:00",
            input: calendar.path)
        #expect(run.stdout == "", "the first run looks a minute back: \(run.stdout)")
        #expect(run.stderr == "ics-agenda: warning: \(calendar.path):13: TRIGGER: cannot read \"soon\" as a duration (in VEVENT \"bogus\"); the alarm never rings\n")
        let since = try AlarmsCommandTests.alarms(folder.appendingPathComponent("since"), "2025-03-29T12:50:30+01:00",
            ["--since", "2025-03-29T11:00:00+01:00", "-q"], input: calendar.path)
        #expect(since.stdout == "11:45 AM  now: lower (late)\n" && since.stderr.isEmpty, "\(since.stdout)")
        let agenda = try CLI.run(["--no-config", "--now", "2025-03-29T08:00:00+01:00", "--tz", "Europe/Berlin",
            "--days", "1", calendar.path])
        #expect(agenda.status == 0 && agenda.stderr.isEmpty)
    }

    /// Revisions and overrides: an override rings its newest master's
    /// alarms (none when that has none), whatever the order of the
    /// revisions; an override's own VALARM, even one that cannot be read,
    /// replaces them; an absolute alarm's repeats ring for one instance
    /// (the next, when the one it was before was moved); one-off talks
    /// sharing a UID each ring; a lower-case TRIGGER keeps RELATED=END.
    @Test func revisionsAndOverridesRingTheirNewestAlarms() throws {
        let (folder, run) = try AlarmsCommandTests.replayed("revisions", since: "2025-03-28T12:00:00+01:00")
        #expect(run.stdout == """
            9:30 AM  tomorrow 11:00 AM: Daily (late)
            10:00 AM  tomorrow 11:00 AM: Daily (late)
            10:30 AM  tomorrow 11:00 AM: Daily (late)
            11:30 AM  now: Revised (moved) (late)
            11:45 AM  ended 12:00 PM: Ends at noon (late)
            11:45 AM  today 4:00 PM: Talk A (late)
            11:45 AM  today 6:00 PM: Talk B (late)

            """, "\(run.stdout)")
        #expect(run.stderr.contains("revisions.ics:98: TRIGGER: cannot read \"soon\" as a duration (in VEVENT \"Daily (moved, its own alarm unreadable)\"); the alarm never rings\n"))
        // Read as far as alarms reach however their TRIGGER is written: an X- parameter named like VALUE, a long
        // parameter, a fold of a lone blank line, an extended date-time (libical reads it).
        for (name, trigger) in [("xvalue", "TRIGGER;X-VALUE=DATE-TIME;VALUE=DURATION:-P156D"),
            ("long", "TRIGGER;X-NOTE=\(String(repeating: "n", count: 300)):-P156D"), ("fold", "TRI\n \n GGER:-P156D"),
            ("extended", "TRIGGER;VALUE=DATE-TIME:2025-03-29T10:00:00Z")]
        {
            let file = folder.appendingPathComponent("\(name).ics")
            try ("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\nBEGIN:VEVENT\nUID:\(name)\nDTSTAMP:20250101T000000Z\n"
                + "DTSTART:20250901T100000Z\nDURATION:PT1H\nSUMMARY:\(name)\nBEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:x\n\(trigger)\n"
                + "END:VALARM\nEND:VEVENT\nEND:VCALENDAR\n").write(to: file, atomically: true, encoding: .utf8)
            let far = try AlarmsCommandTests.alarms(folder.appendingPathComponent("state-\(name)"),
                "2025-03-29T13:00:00+01:00",
                ["--since", "2025-03-28T12:00:00+01:00", "-q"], input: file.path)
            #expect(far.stdout.hasSuffix(": \(name) (late)\n"), "\(name): \(far.stdout)")
        }
    }

    /// `AlarmReach.maxAbsolute`: the absolute triggers an input's scan keeps one by one.
    static let absoluteRemembered = 10_000
}
