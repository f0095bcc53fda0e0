import Foundation
import Testing

/// CalDAV accounts (CONTRACT.md, *CalDAV accounts*; issue 41) against
/// Radicale on loopback: each test starts its own server
/// (`scripts/caldav_server.py`, from `.venv-servers`) with alice's
/// calendars, puts items there with plain HTTP PUTs, reads
/// `dav://127.0.0.1:PORT/` with her password in a netrc, and stops it.
/// Requests are counted in Radicale's own log.
@Suite(.serialized) struct CalDAVAccountTests {
    static let fixed = ["--no-config", "--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin", "--locale",
        "en_US", "--days", "14"]

    /// Radicale with alice's calendars, stopped when the value goes.
    final class Server {
        private let server: LoopbackServer
        var port: Int { server.port }
        var folder: URL { server.folder }

        static let calendars = """
            {"user": "alice", "password": "wonderland", "calendars": [
              {"path": "work", "displayname": "Work", "color": "#1E90FFFF", "components": "VEVENT"},
              {"path": "family", "displayname": "Family", "components": "VEVENT"},
              {"path": "chores list", "components": "VTODO"}]}
            """

        /// The server the tests run against: Radicale, or Xandikos
        /// (`scripts/caldav_server.py` starts either), whose collections are below `/USER/calendars/`.
        enum Kind: String { case radicale, xandikos }
        let kind: Kind

        /// Where a calendar of `calendars` is on this server: `/alice/work/`.
        func collection(_ path: String) -> String {
            kind == .radicale ? "/alice/\(path)/" : "/alice/calendars/\(path)/"
        }

        init(_ kind: Kind = .radicale) throws {
            self.kind = kind
            let spec = kind == .radicale ? Server.calendars : String(Server.calendars.dropLast())
                + ", \"server\": \"xandikos\"}"
            server = try LoopbackServer(script: "scripts/caldav_server.py", python: try LoopbackServer.serversPython(),
                arguments: [spec])
        }

        /// Stops the server: its launcher ends when its standard input does.
        func stop() { server.stop() }

        deinit { stop() }

        var account: String { "dav://127.0.0.1:\(port)/" }

        /// PUT or DELETE as alice, with the system's Python; the status.
        @discardableResult
        func send(_ method: String, _ path: String, _ body: String = "") throws -> String {
            let script = """
                import sys, urllib.request, urllib.error, base64
                r = urllib.request.Request(sys.argv[2], data=sys.argv[3].encode() if sys.argv[1] == "PUT" else None, method=sys.argv[1])
                r.add_header("Authorization", "Basic " + base64.b64encode(b"alice:wonderland").decode())
                r.add_header("Content-Type", "text/calendar; charset=utf-8")
                try:
                    print(urllib.request.urlopen(r).status)
                except urllib.error.HTTPError as e:
                    print(e.code)
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", script, method, "http://127.0.0.1:\(port)\(path)", body]
            return try CLI.collect(process).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// The WebDAV requests Radicale logged (PROPFIND, REPORT, PUT,
        /// DELETE; not the launcher's GETs), as `METHOD PATH`, in order.
        func requests() throws -> [String] {
            let log = try String(contentsOf: folder.appendingPathComponent("radicale.log"), encoding: .utf8)
            return log.split(separator: "\n").compactMap { line in
                guard let info = line.range(of: "] "),
                    let request = line.range(of: " request for '") else { return nil }
                let method = line[..<request.lowerBound].split(separator: " ").last.map(String.init) ?? ""
                let path = line[request.upperBound...].prefix { $0 != "'" }
                _ = info
                return method == "GET" ? nil : "\(method) \(path)"
            }
        }
    }

    /// A run with its own cache, home and netrc (alice's password).
    struct Run {
        let home: URL
        var environment: [String: String]

        init(password: String = "wonderland") throws {
            home = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-caldav-home-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            environment = ["XDG_CACHE_HOME": home.appendingPathComponent("cache").path, "HOME": home.path]
            try setPassword(password)
        }

        func setPassword(_ password: String) throws {
            try CLI.writePrivately("machine 127.0.0.1 login alice password \(password)\n",
                to: home.appendingPathComponent(".netrc"))
        }

        func callAsFunction(_ arguments: [String], fixed: Bool = true) throws -> CLI.Result {
            try CLI.run((fixed ? CalDAVAccountTests.fixed : []) + arguments, environment: environment)
        }

        var cache: URL { home.appendingPathComponent("cache/ics-agenda") }
    }

    static func calendar(_ body: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ics-agenda tests//EN\r\n"
            + body.split(separator: "\n").joined(separator: "\r\n") + "\r\nEND:VCALENDAR\r\n"
    }

    /// A weekly standup (RRULE) in Berlin time (VTIMEZONE) with one week
    /// left out (EXDATE) and one moved (RECURRENCE-ID); an all-day series;
    /// an event under an href with `@`, `%` and a blank; a reminder.
    static let items: [(path: String, text: String)] = [
        ("/alice/work/standup.ics", calendar("""
            BEGIN:VTIMEZONE
            TZID:Europe/Berlin
            BEGIN:STANDARD
            DTSTART:19701025T030000
            RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
            TZOFFSETFROM:+0200
            TZOFFSETTO:+0100
            TZNAME:CET
            END:STANDARD
            BEGIN:DAYLIGHT
            DTSTART:19700329T020000
            RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
            TZOFFSETFROM:+0100
            TZOFFSETTO:+0200
            TZNAME:CEST
            END:DAYLIGHT
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:standup@example.com
            DTSTAMP:20250101T000000Z
            DTSTART;TZID=Europe/Berlin:20250203T093000
            DTEND;TZID=Europe/Berlin:20250203T094500
            RRULE:FREQ=WEEKLY;BYDAY=MO,WE
            EXDATE;TZID=Europe/Berlin:20250305T093000
            SUMMARY:Standup
            END:VEVENT
            BEGIN:VEVENT
            UID:standup@example.com
            DTSTAMP:20250101T000000Z
            RECURRENCE-ID;TZID=Europe/Berlin:20250310T093000
            DTSTART;TZID=Europe/Berlin:20250310T111500
            DTEND;TZID=Europe/Berlin:20250310T113000
            SUMMARY:Standup (moved)
            END:VEVENT
            """)),
        ("/alice/work/a@b%25c%20d.ics", calendar("""
            BEGIN:VEVENT
            UID:odd-href@example.com
            DTSTAMP:20250101T000000Z
            DTSTART:20250304T120000Z
            DTEND:20250304T130000Z
            SUMMARY:Lunch with an odd href
            END:VEVENT
            """)),
        ("/alice/family/swim.ics", calendar("""
            BEGIN:VEVENT
            UID:swim@example.com
            DTSTAMP:20250101T000000Z
            DTSTART;VALUE=DATE:20250301
            DTEND;VALUE=DATE:20250302
            RRULE:FREQ=WEEKLY;COUNT=4
            SUMMARY:Swimming lessons
            END:VEVENT
            """)),
        ("/alice/chores%20list/bins.ics", calendar("""
            BEGIN:VTODO
            UID:bins@example.com
            DTSTAMP:20250101T000000Z
            DUE;VALUE=DATE:20250306
            SUMMARY:Take the bins out
            END:VTODO
            """)),
    ]

    static func started() throws -> Server {
        let server = try Server()
        for item in items { #expect(try server.send("PUT", item.path, item.text) == "201", "\(item.path)") }
        return server
    }

    /// Discovery from the root (current-user-principal, calendar-home-set):
    /// every calendar of the account, each named by its displayname (else
    /// its last path segment), its source the account as printed; the
    /// agenda holds each item, recurrences expanded here.
    @Test func anAccountIsReadFromItsRootWithEveryCalendar() throws {
        let server = try CalDAVAccountTests.started()
        let run = try Run()
        let result = try run(["--show-calendar", server.account])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.contains("9:30 AM   Standup  [Work]"), "\(result.stdout)")
        #expect(result.stdout.contains("Standup (moved)  [Work]"))
        #expect(result.stdout.contains("Lunch with an odd href  [Work]"))
        #expect(result.stdout.contains("Swimming lessons  [Family]"))
        #expect(result.stdout.contains("Take the bins out"), "a VTODO-only calendar gives reminders")
        #expect(!result.stdout.contains("Wednesday, March 5, 2025"), "EXDATE leaves March 5 out: \(result.stdout)")
        let listed = try run(["calendars", "--no-config", server.account], fixed: false)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.hasPrefix("dav://127.0.0.1:\(server.port)"), "\(listed.stdout)")
        for name in ["Work", "Family", "chores list"] { #expect(listed.stdout.contains("  \(name) "),
            "\(listed.stdout)") }
        #expect(listed.stdout.contains("copy less than a minute old"))
        let chosen = try run(["--calendar", "Family", server.account])
        #expect(chosen.stdout.contains("Swimming lessons"))
        #expect(!chosen.stdout.contains("Standup"))
    }

    /// An account in the configuration file is read as an account, not as
    /// a path beside the file.
    @Test func aConfiguredAccountIsRead() throws {
        let server = try CalDAVAccountTests.started()
        var run = try Run()
        let config = run.home.appendingPathComponent("config")
        try "--tz Europe/Berlin\n\(server.account)\n".write(to: config, atomically: true, encoding: .utf8)
        run.environment["ICS_AGENDA_CONFIG"] = config.path
        let result = try CLI.run(["--now", "2025-03-01T08:00:00+01:00", "--days", "7"], environment: run.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Swimming lessons"), "\(result.stdout)")
    }

    /// The copy, read as a vdir, gives what the same items give read as files.
    @Test func theAgendaIsTheSameAsTheItemsReadAsFiles() throws {
        let server = try CalDAVAccountTests.started()
        let run = try Run()
        let folder = run.home.appendingPathComponent("files")
        for item in CalDAVAccountTests.items {
            let calendar = folder.appendingPathComponent(item.path.split(separator: "/")[1].removingPercentEncoding!)
            try FileManager.default.createDirectory(at: calendar, withIntermediateDirectories: true)
            try item.text.write(to: calendar.appendingPathComponent(UUID().uuidString + ".ics"), atomically: true,
                encoding: .utf8)
        }
        for format in [["--format", "text"], ["--format", "json"]] {
            let fromServer = try run(format + [server.account])
            let fromFiles = try run(format + [folder.path])
            #expect(fromServer.status == 0 && fromFiles.status == 0, "\(fromServer.stderr)\(fromFiles.stderr)")
            let strip = { (text: String) in
                // JSON rows name their calendar's source and path: those differ, by design.
                text.split(separator: "\n")
                    .map { $0.replacing(/"source":"[^"]*"|"path":"[^"]*"|"calendar":"[^"]*"|"calendar_color":[^,]*/, with: "") }
            }
            #expect(strip(fromServer.stdout) == strip(fromFiles.stdout),
                "\(fromServer.stdout)\n---\n\(fromFiles.stdout)")
        }
    }

    /// Within --refresh nothing is asked; an unchanged account costs one
    /// request (the home's listing) and no REPORT; an item added, changed
    /// and deleted is each seen after `--refresh 0`.
    @Test func onlyWhatChangedIsAsked() throws {
        let server = try CalDAVAccountTests.started()
        let run = try Run()
        _ = try run([server.account])
        let first = try server.requests().filter { !$0.hasPrefix("PUT") }
        // Principal, home set, home listing, a listing and a multiget each of three calendars.
        #expect(first.count == 9, "\(first)")
        _ = try run([server.account])
        #expect(try server.requests().count == first.count + CalDAVAccountTests.items.count,
            "a young copy asks nothing")
        let before = try server.requests().count
        let unchanged = try run(["--refresh", "0", server.account])
        #expect(unchanged.status == 0)
        let asked = Array(try server.requests().dropFirst(before))
        #expect(asked.count == 1, "\(asked)")
        #expect(!asked.contains { $0.hasPrefix("REPORT") }, "\(asked)")

        try server.send("PUT", "/alice/family/dentist.ics", CalDAVAccountTests.calendar("""
            BEGIN:VEVENT
            UID:dentist@example.com
            DTSTAMP:20250101T000000Z
            DTSTART:20250305T150000Z
            SUMMARY:Dentist
            END:VEVENT
            """))
        try server.send("PUT", "/alice/work/a@b%25c%20d.ics", CalDAVAccountTests.calendar("""
            BEGIN:VEVENT
            UID:odd-href@example.com
            DTSTAMP:20250102T000000Z
            DTSTART:20250304T120000Z
            DTEND:20250304T130000Z
            SUMMARY:Lunch moved to the canteen
            END:VEVENT
            """))
        #expect(try server.send("DELETE", "/alice/family/swim.ics") == "200")
        let afterChanges = try server.requests().count
        let changed = try run(["--refresh", "0", server.account])
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stdout.contains("Dentist"))
        #expect(changed.stdout.contains("Lunch moved to the canteen"))
        #expect(!changed.stdout.contains("Lunch with an odd href"))
        #expect(!changed.stdout.contains("Swimming lessons"))
        #expect(changed.stdout.contains("Standup"))
        let synced = Array(try server.requests().dropFirst(afterChanges))
        // The home, a sync report for each of the two calendars changed, a multiget each.
        #expect(synced.count == 5, "\(synced)")
        #expect(!synced.contains("REPORT /alice/chores list/"), "an unchanged calendar is not asked: \(synced)")
    }

    /// A calendar deleted on the server is no longer read after
    /// `--refresh 0`, and its copy is removed from the cache.
    @Test func aCalendarRemovedFromTheAccountGoesFromTheCopy() throws {
        let server = try CalDAVAccountTests.started()
        let run = try Run()
        let before = try run(["calendars", "--no-config", server.account], fixed: false)
        #expect(before.stdout.contains("  Family "), "\(before.stdout)")
        let account = try FileManager.default.contentsOfDirectory(atPath: run.cache.path)
            .filter { $0.hasPrefix("caldav-") }
        #expect(account.count == 1)
        let folder = run.cache.appendingPathComponent(account[0])
        let calendarsBefore = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.contains(".") }
        #expect(calendarsBefore.count == 3, "\(calendarsBefore)")
        #expect(try server.send("DELETE", "/alice/family/") == "200")
        let after = try run(["calendars", "--no-config", "--refresh", "0", server.account], fixed: false)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(!after.stdout.contains("Family"), "\(after.stdout)")
        #expect(after.stdout.contains("  Work "))
        let calendarsAfter = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.contains(".") }
        #expect(calendarsAfter.count == 2, "\(calendarsAfter)")
    }

    /// A wrong password and a server that is down keep the copy, with one
    /// warning that names the account as printed and no secret.
    @Test func failuresKeepTheCopyWithOneWarning() throws {
        let server = try CalDAVAccountTests.started()
        let run = try Run()
        let good = try run([server.account])
        try run.setPassword("not-the-password")
        let refused = try run(["--refresh", "0", server.account])
        #expect(refused.status == 0)
        #expect(refused.stdout == good.stdout)
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("dav://127.0.0.1:\(server.port)/: could not refresh: the server refused the login (HTTP 401)"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("not-the-password"))
        server.stop()
        try run.setPassword("wonderland")
        let down = try run(["--refresh", "0", server.account])
        #expect(down.status == 0)
        #expect(down.stdout == good.stdout)
        #expect(down.stderr.split(separator: "\n").count == 1, "\(down.stderr)")
        #expect(down.stderr.contains("could not refresh: could not connect; read the copy from"), "\(down.stderr)")
        let offline = try run(["--offline", server.account])
        #expect(offline.stdout == good.stdout)
        #expect(offline.stderr.isEmpty)
    }

    /// With no copy, the other inputs are printed, the account is told once,
    /// and the status is 66.
    @Test func withoutACopyTheOthersArePrintedAndTheStatusIs66() throws {
        let server = try CalDAVAccountTests.started()
        let run = try Run(password: "wrong")
        let result = try run([server.account, CLI.root.appendingPathComponent("Fixtures/vdir/family").path])
        #expect(result.status == 66)
        #expect(result.stdout.contains("Swimming lessons"))
        let told = result.stderr.split(separator: "\n").filter { $0.contains("dav://") }
        #expect(told.count == 1, "\(result.stderr)")
        #expect(told.first?.contains("no copy of it is kept, left out") == true, "\(result.stderr)")
        let offline = try Run()
        let none = try offline(["--offline", server.account])
        #expect(none.status == 66)
    }

    /// The copy is private (folders 0700, files 0600), holds no password,
    /// and names its files by hashes, never by the server's paths; a
    /// password written in the URL is used and never printed or kept.
    @Test func theCopyIsPrivateAndHoldsNoSecret() throws {
        let server = try CalDAVAccountTests.started()
        var run = try Run(password: "wrong")
        run.environment["NETRC"] = "/dev/null"
        let result = try run(["calendars", "--no-config", "dav://alice:wonderland@127.0.0.1:\(server.port)/"],
            fixed: false)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("wonderland") && !result.stderr.contains("wonderland"))
        #expect(result.stdout.contains("dav://127.0.0.1:\(server.port)"))
        let walker = FileManager.default.enumerator(atPath: run.cache.path)
        var files = 0
        while let name = walker?.nextObject() as? String {
            let path = run.cache.appendingPathComponent(name).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let mode = attributes[.posixPermissions] as? Int
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                #expect(mode == 0o700, "\(name)")
            } else {
                files += 1
                #expect(mode == 0o600, "\(name)")
                let text = try String(contentsOfFile: path, encoding: .utf8)
                #expect(!text.contains("wonderland"), "\(name)")
            }
            let last = (name as NSString).lastPathComponent
            #expect(!last.contains("@") && !last.contains(" ") && !last.contains("standup"), "\(name)")
        }
        #expect(files >= 8)
        let folderMode = try FileManager.default.attributesOfItem(atPath: run.cache.path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
    }

    /// A password is never sent over plain HTTP but to a loopback address:
    /// an account whose URL carries one for another host is told and left
    /// out before anything is asked (a netrc's is not sent: CredentialsTests).
    @Test func plainHTTPWithAPasswordToAnotherHostIsRefused() throws {
        var run = try Run()
        // Were it asked after all, it would go to a port of loopback that nothing serves.
        run.environment["http_proxy"] = "http://127.0.0.1:1"
        let result = try run(["dav://alice:wonderland@calendar.example.invalid/dav/",
            CLI.root.appendingPathComponent("Fixtures/vdir/family").path])
        #expect(result.status == 66)
        #expect(result.stdout.contains("Swimming lessons"), "\(result.stdout)")
        #expect(result.stderr == "ics-agenda: dav://calendar.example.invalid/…: a password is never sent over plain " +
            "http but to a loopback address: write davs:// for this server; left out\n", "\(result.stderr)")
    }

    /// The same account on a second real server, Xandikos, whose principal,
    /// home set and collections lie elsewhere (`/alice/calendars/…`) and
    /// which answers sync-collection its own way: every calendar is found
    /// (its default one too), named and coloured, the items read with
    /// their recurrences expanded here; a change, an item added under an
    /// odd href and one deleted are each seen with `--refresh 0`.
    @Test func aXandikosAccountIsReadAndKeptInStep() throws {
        let server = try Server(.xandikos)
        for item in CalDAVAccountTests.items {
            let parts = item.path.split(separator: "/", maxSplits: 2)
            let path = server.collection(String(parts[1])
                .removingPercentEncoding!.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!)
                + String(parts[2])
            #expect(try server.send("PUT", path, item.text) == "201", "\(path)")
        }
        let run = try Run()
        let first = try run(["--show-calendar", server.account])
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
        #expect(first.stdout.contains("9:30 AM   Standup  [Work]"), "\(first.stdout)")
        #expect(first.stdout.contains("Standup (moved)  [Work]"))
        #expect(first.stdout.contains("Lunch with an odd href  [Work]"))
        #expect(first.stdout.contains("Swimming lessons  [Family]"))
        #expect(first.stdout.contains("Take the bins out"))
        #expect(!first.stdout.contains("Wednesday, March 5, 2025"), "EXDATE leaves March 5 out")
        let listed = try run(["calendars", "--format", "json", "--no-config", server.account], fixed: false)
        for name in ["\"calendar\":\"Work\",\"source\":\"\(server.account)\",\"calendar_color\":\"#1e90ff\"",
            "\"calendar\":\"Family\"",
            "\"calendar\":\"chores list\"", "\"calendar\":\"calendar\""]
        {
            #expect(listed.stdout.contains(name), "\(name): \(listed.stdout)")
        }
        try server.send("PUT", server.collection("family") + "dentist.ics", CalDAVAccountTests.calendar("""
            BEGIN:VEVENT
            UID:dentist@example.com
            DTSTAMP:20250101T000000Z
            DTSTART:20250305T140000Z
            DURATION:PT1H
            SUMMARY:Dentist
            END:VEVENT
            """))
        #expect(try server.send("DELETE", server.collection("family") + "swim.ics") == "204")
        let changed = try run(["--refresh", "0", server.account])
        #expect(changed.status == 0 && changed.stderr.isEmpty, "\(changed.stderr)")
        #expect(changed.stdout.contains("Dentist") && !changed.stdout.contains("Swimming lessons"), "\(changed.stdout)")
        #expect(changed.stdout.contains("Standup"))
    }
}
