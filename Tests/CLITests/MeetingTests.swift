import Foundation
import Testing

/// Meetings: `meeting_url` from real invitations' shapes (Fixtures/meetings),
/// `join`, and `--me`: declined meetings out of every answer unless
/// `--show-declined`, unconfirmed ones marked, `partstat` in JSON.
@Suite struct MeetingTests {
    static let day = ["--no-config", "--now", "2025-03-03T08:00:00Z", "--tz", "UTC", "--locale", "en_US", "--days", "1"]
    static let folder = "Fixtures/meetings"

    static func json(_ extra: [String]) throws -> [[String: Any]] {
        let run = try CLI.run(MeetingTests.day + ["--format", "json"] + extra)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        return run.stdout.split(separator: "\n")
            .map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    static func byTitle(_ rows: [[String: Any]], _ key: String) -> [String: String] {
        Dictionary(uniqueKeysWithValues: rows.map { ($0["title"] as! String, ($0[key] as? String) ?? "null") })
    }

    @Test func eachInvitationGivesItsJoinLink() throws {
        let links = MeetingTests.byTitle(try MeetingTests.json([MeetingTests.folder]), "meeting_url")
        #expect(links == [
            "Quarterly planning": "https://teams.microsoft.com/l/meetup-join/19%3ameeting_NzQ1ZGU4%40thread.v2/0?context=%7b%22Tid%22%3a%22abc%22%7d",
            "Design review": "https://meet.google.com/abc-mnop-xyz",
            "Customer call": "https://us02web.zoom.us/j/81234567890?pwd=QWxhZGRpbjpvcGVu",
            "Vendor sync": "https://example.webex.com/example/j.php?MTID=m0123456789abcdef0123456789abcdef",
            "Board call": "https://chat.example.com/audio?id=123456",
        ])
    }

    /// Without --me nothing is mine: every meeting is listed and partstat is null.
    @Test func withoutMeNothingIsDeclined() throws {
        let rows = try MeetingTests.json([MeetingTests.folder])
        #expect(rows.count == 5)
        #expect(rows.allSatisfy { $0["partstat"] is NSNull })
    }

    @Test func myAnswerIsReadAndADeclinedMeetingLeftOut() throws {
        let me = ["--me", "mailto:Me@Example.com", MeetingTests.folder]
        let partstats = MeetingTests.byTitle(try MeetingTests.json(me), "partstat")
        #expect(partstats == ["Quarterly planning": "NEEDS-ACTION", "Customer call": "TENTATIVE", "Vendor sync": "null",
            "Board call": "null"])
        let shown = MeetingTests.byTitle(try MeetingTests.json(me + ["--show-declined"]), "partstat")
        #expect(shown["Design review"] == "DECLINED")
        let text = try CLI.run(MeetingTests.day + me + ["--show-declined"]).stdout
        #expect(text.contains("9:00 AM  Quarterly planning ?\n") && text.contains("3:00 PM  Customer call ?\n"))
        #expect(text.contains("1:00 PM  Design review (declined)\n") && text.contains("5:00 PM  Vendor sync\n"))
        #expect(!(try CLI.run(MeetingTests.day + me).stdout.contains("Design review")))
    }

    /// The organizer is me: accepted, whatever an ATTENDEE line says.
    @Test func theOrganizerHasAccepted() throws {
        let rows = try MeetingTests.json(["--me", "kim@example.com", "Fixtures/meetings/google_meet.ics"])
        #expect(rows.first?["partstat"] as? String == "ACCEPTED")
    }

    /// An organizer may decline (or be unsure of) a meeting of their own,
    /// and with two of my addresses invited, whichever comes first, a
    /// decline counts first, then a yes, a maybe, and no answer last.
    @Test func myOwnAnswerCountsOverOrganizingAndOverNoAnswer() throws {
        func event(_ uid: String, _ lines: String) -> String {
            "BEGIN:VEVENT\nUID:\(uid)\nDTSTAMP:20250301T000000Z\nDTSTART:20250303T100000Z\nDTEND:20250303T110000Z\nSUMMARY:\(uid)\n\(lines)END:VEVENT\n"
        }
        let text = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\n"
            + event("organized-declined",
                "ORGANIZER:mailto:me@example.com\nATTENDEE;PARTSTAT=DECLINED:mailto:me@example.com\n")
            + event("organized-open",
                "ORGANIZER:mailto:me@example.com\nATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:me@example.com\n")
            + event("two-addresses",
                "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:me@example.com\nATTENDEE;PARTSTAT=ACCEPTED:mailto:me@work.example\n")
            + event("two-answers",
                "ATTENDEE;PARTSTAT=TENTATIVE:mailto:me@work.example\nATTENDEE;PARTSTAT=ACCEPTED:mailto:me@example.com\n")
            + event("declined-second",
                "ATTENDEE;PARTSTAT=ACCEPTED:mailto:me@example.com\nATTENDEE;PARTSTAT=DECLINED:mailto:me@work.example\n")
            + "END:VCALENDAR\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-answers-\(getpid()).ics")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let rows = try MeetingTests.json(["--me", "me@example.com", "--me", "me@work.example", "--show-declined",
            file.path])
        #expect(MeetingTests.byTitle(rows, "partstat") == [
            "organized-declined": "DECLINED", "organized-open": "ACCEPTED", "two-addresses": "ACCEPTED",
                "two-answers": "ACCEPTED",
            "declined-second": "DECLINED",
        ])
    }

    /// A declined meeting is no one's busy time: not in `free`, not in the overlaps, not `next`.
    @Test func aDeclinedMeetingIsNotBusy() throws {
        let text = """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//test//EN
            BEGIN:VEVENT
            UID:kept@x
            DTSTART:20250303T100000Z
            DTEND:20250303T110000Z
            SUMMARY:Kept
            END:VEVENT
            BEGIN:VEVENT
            UID:declined@x
            DTSTART:20250303T090000Z
            DTEND:20250303T103000Z
            SUMMARY:Declined
            ATTENDEE;PARTSTAT=DECLINED:mailto:me@example.com
            END:VEVENT
            END:VCALENDAR

            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-declined-\(getpid()).ics")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let me = ["--me", "me@example.com"]
        let marked = try CLI.run(MeetingTests.day + [file.path]).stdout
        #expect(marked.contains("Kept (overlaps Declined)"))
        let shown = try CLI.run(MeetingTests.day + me + ["--show-declined", file.path]).stdout
        #expect(shown.contains("10:00 AM  Kept\n") && shown.contains("9:00 AM   Declined (declined)\n"), "\(shown)")
        let rows = try MeetingTests.json(me + ["--show-declined", file.path])
        #expect(rows.allSatisfy { ($0["overlaps"] as? [Any])?.isEmpty == true && $0["overlap_count"] as? Int == 0 })
        let free = ["free", "--no-config", "--now", "2025-03-03T08:00:00Z", "--tz", "UTC", "--locale", "en_US",
            "--days", "1", "--hours", "08:00-12:00"]
        #expect(try CLI.run(free + [file.path]).stdout.contains("  8:00 AM - 9:00 AM (1 h)\n"))
        #expect(try CLI.run(free + me + [file.path]).stdout.contains("  8:00 AM - 10:00 AM (2 h)\n"), "busy only 10-11")
        #expect(try CLI.run(free + me + ["--show-declined", file.path]).stdout.contains("  8:00 AM - 10:00 AM (2 h)\n"),
            "never busy")
        let next = try CLI.run(["next", "--no-config", "--now", "2025-03-03T08:30:00Z", "--tz", "UTC", "--locale",
            "en_US"] + me + [file.path])
        #expect(next.stdout == "in 90 min: Kept\n" || next.stdout.hasSuffix(": Kept\n"), "\(next.stdout)")
    }

    @Test func joinPrintsTheLinkOfTheMeetingOnNowOrNext() throws {
        func join(_ now: String, _ extra: [String] = []) throws -> String {
            let run = try CLI.run(["join", "--no-config", "--now", now] + extra + [MeetingTests.folder])
            // Nothing to join is status 1, so that `ics-agenda join && ...` opens nothing.
            #expect(run.status == (run.stdout.isEmpty ? 1 : 0) && run.stderr.isEmpty)
            return run.stdout
        }
        let teams = "https://teams.microsoft.com/l/meetup-join/19%3ameeting_NzQ1ZGU4%40thread.v2/0?context=%7b%22Tid%22%3a%22abc%22%7d\n"
        #expect(try join("2025-03-03T08:50:00Z") == teams, "10 minutes before")
        #expect(try join("2025-03-03T09:59:00Z") == teams, "under way")
        #expect(try join("2025-03-03T08:30:00Z") == "", "30 minutes before: beyond 15m")
        #expect(try join("2025-03-03T08:30:00Z", ["--within", "45m"]) == teams)
        #expect(try join("2025-03-03T12:55:00Z") == "https://meet.google.com/abc-mnop-xyz\n")
        #expect(try join("2025-03-03T12:55:00Z", ["--me", "me@example.com"]) == "", "declined: passed over")
        #expect(try join("2025-03-04T12:00:00Z") == "", "nothing within reach")
    }

    @Test func templatesAndWaybarCarryTheLink() throws {
        let template = try CLI.run(MeetingTests.day + ["--me", "me@example.com", "--template",
            "{title}|{meeting_url}|{partstat}",
            "Fixtures/meetings/zoom_invite.ics"])
        #expect(template.stdout == "Customer call|https://us02web.zoom.us/j/81234567890?pwd=QWxhZGRpbjpvcGVu|TENTATIVE\n")
        let waybar = try CLI.run(["next", "--no-config", "--now", "2025-03-03T14:50:00Z", "--tz", "UTC", "--locale",
            "en_US",
            "--format", "waybar", "Fixtures/meetings/zoom_invite.ics"])
        let object = try JSONSerialization.jsonObject(with: Data(waybar.stdout.utf8)) as? [String: String]
        #expect(object?["tooltip"] == "in 10 min: Customer call\n  https://us02web.zoom.us/j/81234567890?pwd=QWxhZGRpbjpvcGVu")
    }

    /// `--me` is usually a line of the configuration file: every command that lists meetings reads it.
    @Test func meInTheConfigurationCountsForEveryCommand() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-me-\(getpid()).conf")
        try "# who I am\n--me ME@example.com\n".write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let env = ["ICS_AGENDA_CONFIG": config.path]
        let clock = ["--now", "2025-03-03T12:55:00Z", "--tz", "UTC", "--locale", "en_US"]
        #expect(try CLI.run(["join"] + clock + [MeetingTests.folder], environment: env).stdout == "")
        #expect(try CLI.run(["next"] + clock + [MeetingTests.folder], environment: env)
            .stdout == "today 3:00 PM: Customer call ?\n", "not accepted: marked")
        let agenda = try CLI.run(clock + ["--days", "1", MeetingTests.folder], environment: env).stdout
        #expect(!agenda.contains("Design review") && agenda.contains("Customer call ?"))
        #expect(try CLI.run(["join"] + clock + [MeetingTests.folder])
            .stdout == "https://meet.google.com/abc-mnop-xyz\n", "without it")
    }

    /// `--format ics` keeps each meeting's link: read back, every meeting_url is the same.
    @Test func theIcsOutputKeepsTheLinks() throws {
        let ics = try CLI.run(MeetingTests.day + ["--format", "ics", MeetingTests.folder]).stdout
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-meetings-\(getpid()).ics")
        try ics.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(MeetingTests.byTitle(try MeetingTests.json([file.path]), "meeting_url")
            == MeetingTests.byTitle(try MeetingTests.json([MeetingTests.folder]), "meeting_url"))
    }

    /// Many --me on a long command line (packed before ArgumentParser reads it) all count.
    @Test func everyMeOfALongCommandLineCounts() throws {
        let others = (0..<40).flatMap { ["--me", "other\($0)@example.com"] }
        let rows = try MeetingTests.json(others + ["--me", "me@example.com"] + others
            + ["Fixtures/meetings/zoom_invite.ics"])
        #expect(rows.first?["partstat"] as? String == "TENTATIVE")
    }
}
