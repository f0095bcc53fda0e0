import Foundation
import Testing

/// Calendars by URL (CONTRACT.md, *Subscriptions*), against real servers on
/// loopback: the project's fault server for what a server will not do on
/// demand, and Radicale, a real CalDAV server. Each test has a cache of its
/// own (`XDG_CACHE_HOME`) and addresses of its own.
@Suite struct SubscriptionTests {
    static let fixed = ["--no-config", "--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin", "--locale",
        "en_US", "--days", "7"]

    /// A run with its own cache and no `~/.netrc`.
    struct Run {
        let cache: URL
        var environment: [String: String]

        init() throws {
            cache = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-cache-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            environment = ["XDG_CACHE_HOME": cache.path, "HOME": cache.path, "NETRC": "/dev/null"]
        }

        func callAsFunction(_ arguments: [String], fixed: Bool = true) throws -> CLI.Result {
            try CLI.run((fixed ? SubscriptionTests.fixed : []) + arguments, environment: environment)
        }

        /// A configuration file of `text`, read by the runs from now on.
        mutating func configure(_ text: String) throws {
            let config = cache.appendingPathComponent("config")
            try text.write(to: config, atomically: true, encoding: .utf8)
            environment["ICS_AGENDA_CONFIG"] = config.path
        }

        /// The copies kept, and their folder.
        var folder: URL { cache.appendingPathComponent("ics-agenda") }
        func copies() throws -> [URL] {
            try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "ics" }
        }

        /// Makes every copy `hours` old.
        func age(hours: Double) throws {
            for copy in try copies() {
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -hours * 3600)],
                    ofItemAtPath: copy.path)
            }
        }
    }

    static var fault: LoopbackServer { get throws { try LoopbackServer.fault.get() } }

    /// A path of this test's own on the fault server.
    static func unique(_ mode: String) -> String { "/then/\(mode)/\(UUID().uuidString).ics" }

    @Test func aURLIsFetchedAndKeptPrivately() throws {
        let server = try SubscriptionTests.fault
        let run = try Run()
        let result = try run([server.base() + "/ok-\(UUID().uuidString).ics"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Served event"))
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let folderMode = try FileManager.default.attributesOfItem(atPath: run.folder.path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        let copies = try run.copies()
        #expect(copies.count == 1)
        for file in try FileManager.default.contentsOfDirectory(atPath: run.folder.path) {
            let mode = try FileManager.default.attributesOfItem(atPath: run.folder.appendingPathComponent(file)
                .path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file)")
        }
    }

    /// A copy younger than --refresh is read without asking; an older one
    /// is asked for with its ETag and a 304 keeps it; --refresh 0 always asks.
    @Test func aYoungCopyIsNotAskedForAndAnOldOneIsRevalidated() throws {
        let server = try SubscriptionTests.fault
        let run = try Run()
        let path = "/ok-\(UUID().uuidString).ics"
        let url = server.base() + path
        _ = try run([url])
        let again = try run([url])
        #expect(again.stdout.contains("Served event"))
        #expect(try server.ask("/count" + path) == "1")
        try run.age(hours: 1)
        let stale = try run([url])
        #expect(stale.stdout.contains("Served event"))
        #expect(stale.stderr.isEmpty)
        #expect(try server.ask("/count" + path) == "2")
        #expect(try server.ask("/count304" + path) == "1")
        // The 304 made the copy as young as now: no request within the next 15 minutes.
        _ = try run([url])
        #expect(try server.ask("/count" + path) == "2")
        _ = try run(["--refresh", "0", url])
        _ = try run(["--refresh", "0", url])
        #expect(try server.ask("/count" + path) == "4")
        #expect(try server.ask("/count304" + path) == "3")
        _ = try run(["--refresh", "2h", url])
        #expect(try server.ask("/count" + path) == "4")
    }

    /// Every kind of failure keeps the last good copy: it is read, with one
    /// warning naming the URL, the copy's age and why.
    @Test(arguments: [
        ("status/500", "HTTP 500"), ("status/404", "HTTP 404"), ("login", "HTML page"), ("empty", "empty body"),
        ("cut", "cut short"), ("cut-open", "cut short"), ("loop", "more than 5 redirects"), ("big", "64 MB"),
            ("big-open", "64 MB"),
    ])
    func aFailedFetchKeepsTheCopy(_ mode: String, _ reason: String) throws {
        let server = try SubscriptionTests.fault
        let run = try Run()
        let url = server.base() + SubscriptionTests.unique(mode)
        let first = try run([url])
        #expect(first.stdout.contains("Kept event"))
        try run.age(hours: 3)
        let before = try Data(contentsOf: try run.copies()[0])
        let result = try run([url])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Kept event"))
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("warning: \(url.replacingOccurrences(of: "/then/\(mode)/", with: "/…/"))"),
            "\(result.stderr)")
        #expect(result.stderr.contains("3 h ago"), "\(result.stderr)")
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        #expect(try Data(contentsOf: try run.copies()[0]) == before)
        #expect(try run.copies().count == 1)
    }

    /// Slow or down costs at most the timeouts (30 s for a whole
    /// transfer, ICS_AGENDA_TIMEOUT's when set), never a hang; the copy is read.
    @Test func aStalledServerCostsTheTimeoutAndTheCopyIsRead() throws {
        let server = try SubscriptionTests.fault
        var run = try Run()
        let url = server.base() + SubscriptionTests.unique("stall")
        _ = try run([url])
        try run.age(hours: 1)
        // make test waits 2 s; make check-all the 30 s of the default.
        if !FullChecks.enabled { run.environment["ICS_AGENDA_TIMEOUT"] = "2" }
        let result = try run([url, "Fixtures/sample.ics"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Kept event"))
        #expect(result.stdout.contains("Breakfast with Ana"))
        #expect(result.stderr.contains(FullChecks.enabled
            ? "timed out (10 s to connect, 30 s in all)" : "timed out (2 s to connect, 2 s in all)"),
            "\(result.stderr)")
    }

    /// ICS_AGENDA_TIMEOUT takes whole seconds from 1 to 300; anything else is a usage error, before anything is read.
    @Test(arguments: ["0", "301", "1.5", "2s", "-1", " 3"])
    func aBadTimeoutIsAUsageError(_ value: String) throws {
        var run = try Run()
        run.environment["ICS_AGENDA_TIMEOUT"] = value
        let result = try run(["Fixtures/sample.ics"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "ics-agenda: ICS_AGENDA_TIMEOUT \"\(value)\": takes whole seconds from 1 to 300\n")
    }

    /// With no copy, the URL is told and left out, the other inputs are
    /// printed, and the status is 66.
    @Test(arguments: ["/status/503", "/login", "/cut"])
    func noCopyLeavesTheURLOutWithStatus66(_ path: String) throws {
        let server = try SubscriptionTests.fault
        let run = try Run()
        let result = try run([server.base() + path, "Fixtures/sample.ics"])
        #expect(result.status == 66)
        #expect(result.stdout.contains("Breakfast with Ana"))
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("no copy"), "\(result.stderr)")
        #expect(try !FileManager.default.fileExists(atPath: run.folder.path) || run.copies().isEmpty)
    }

    /// --offline reads the copy only, and asks nothing.
    @Test func offlineReadsTheCopyOnly() throws {
        let server = try SubscriptionTests.fault
        let run = try Run()
        let path = "/ok-\(UUID().uuidString).ics"
        _ = try run([server.base() + path])
        try run.age(hours: 30)
        let result = try run(["--offline", server.base() + path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Served event"))
        #expect(result.stderr.isEmpty)
        #expect(try server.ask("/count" + path) == "1")
        let missing = try run(["--offline", server.base() + "/ok-never-fetched.ics"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("--offline"))
        #expect(try server.ask("/count/ok-never-fetched.ics") == "0")
    }

    /// Several URLs are fetched at once: the server sees them together.
    @Test func severalURLsAreFetchedAtOnce() throws {
        let server = try SubscriptionTests.fault
        let run = try Run()
        let urls = (0..<4).map { _ in server.base() + "/slow/1.5?\(UUID().uuidString)" }
        let result = try run(urls)
        #expect(result.status == 0)
        #expect(try Int(server.ask("/inflight-max")) ?? 0 >= 4)
    }

    /// A secret address is never printed whole: not in JSON's source, a
    /// warning, an error, or `calendars`.
    @Test func aSecretAddressIsNeverPrintedWhole() throws {
        let server = try SubscriptionTests.fault
        let run = try Run()
        let secret = "http://alice:hunter2@127.0.0.1:\(server.ports["http"]!)/calendar/ical/me%40example.com/secret-token"
        let good = try run(["--format", "json", secret + "/basic.ics?key=sesame"])
        #expect(good.stdout.contains("\"source\":\"http://127.0.0.1:\(server.ports["http"]!)/…/basic.ics\""),
            "\(good.stdout)")
        let listed = try run(["calendars", "--no-config", secret + "/basic.ics?key=sesame"], fixed: false)
        let failed = try run([secret + "/status/500?key=sesame"])
        #expect(failed.status == 66)
        for text in [good.stdout, good.stderr, listed.stdout, listed.stderr, failed.stdout, failed.stderr] {
            for part in ["secret-token", "hunter2", "sesame", "alice", "example.com"] {
                #expect(!text.contains(part), "\(part) in \(text)")
            }
        }
        #expect(listed.stdout.contains("/…/basic.ics"))
        #expect(failed.stderr.contains("http://127.0.0.1:\(server.ports["http"]!)/…/500"), "\(failed.stderr)")
    }

    /// TLS is always verified: a certificate the system does not trust is
    /// refused; one whose authority SSL_CERT_FILE or SSL_CERT_DIR names is read.
    @Test func tlsIsVerifiedAgainstTheAuthoritiesNamed() throws {
        let server = try SubscriptionTests.fault
        var run = try Run()
        let url = server.base("https") + "/ok-\(UUID().uuidString).ics"
        let refused = try run([url])
        #expect(refused.status == 66)
        #expect(refused.stderr.contains("certificate"), "\(refused.stderr)")
        run.environment["SSL_CERT_FILE"] = server.folder.appendingPathComponent("ca.pem").path
        let trusted = try run([url])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(trusted.stdout.contains("Served event"))
        // webcal:// is read as https://
        let webcal = try run([url.replacingOccurrences(of: "https://", with: "webcal://")])
        #expect(webcal.status == 0, "\(webcal.stderr)")
        // SSL_CERT_DIR: a folder of authorities, hashed as OpenSSL reads it.
        let dir = run.cache.appendingPathComponent("authorities")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: server.folder.appendingPathComponent("ca.pem"),
            to: dir.appendingPathComponent("ca.pem"))
        let rehash = Process()
        rehash.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        rehash.arguments = ["openssl", "rehash", dir.path]
        #expect(try CLI.collect(rehash).status == 0)
        var fromDir = try Run()
        fromDir.environment["SSL_CERT_DIR"] = dir.path
        #expect(try fromDir([url]).status == 0)
    }

    /// A redirect from https to http is refused.
    @Test func httpsNeverFallsBackToHTTP() throws {
        let server = try SubscriptionTests.fault
        var run = try Run()
        run.environment["SSL_CERT_FILE"] = server.folder.appendingPathComponent("ca.pem").path
        let result = try run([server.base("https") + "/to-http"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("https"), "\(result.stderr)")
        #expect(!result.stdout.contains("Served event"))
    }

    /// Credentials come from ~/.netrc (or $NETRC).
    @Test func credentialsComeFromNetrc() throws {
        let server = try SubscriptionTests.fault
        var run = try Run()
        let url = server.base() + "/auth/basic.ics"
        let denied = try run([url])
        #expect(denied.status == 66)
        #expect(denied.stderr.contains("401"))
        let netrc = run.cache.appendingPathComponent(".netrc")
        try CLI.writePrivately("machine 127.0.0.1\n  login alice\n  password wonderland\n", to: netrc)
        run.environment["NETRC"] = nil  // ~/.netrc, HOME being the cache folder
        let allowed = try run([url])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains("Private event"))
    }

    /// `calendars` shows each URL calendar with the age of its copy.
    @Test func calendarsShowsTheCopysAge() throws {
        let server = try SubscriptionTests.fault
        let run = try Run()
        let url = server.base() + "/ok-\(UUID().uuidString).ics"
        _ = try run([url])
        try run.age(hours: 5)
        let text = try run(["calendars", "--no-config", "--offline", url, "Fixtures/sample.ics"], fixed: false)
        #expect(text.stdout.contains("Faults"))
        #expect(text.stdout.contains("copy 5 h old"), "\(text.stdout)")
        let json = try run(["calendars", "--no-config", "--offline", "--format", "json", url], fixed: false)
        #expect(json.stdout.contains("\"copy_age_seconds\":18"), "\(json.stdout)")  // 18000 s
    }

    /// A URL in the configuration file is read as a URL.
    @Test func aConfiguredURLIsRead() throws {
        let server = try SubscriptionTests.fault
        var run = try Run()
        try run.configure("# my calendars\n\(server.base())/ok-configured.ics\n--refresh 1h\n")
        let result = try CLI.run(["--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin", "--days", "7"],
            environment: run.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Served event"))
    }

    /// Radicale, a real CalDAV server: alice's collection by its URL, with
    /// her password from ~/.netrc; refused without it.
    @Test func aRadicaleCollectionIsReadByItsURL() throws {
        let server = try LoopbackServer.radicale.get()
        var run = try Run()
        let url = server.base() + "/alice/work/"
        let denied = try run([url])
        #expect(denied.status == 66)
        try CLI.writePrivately("machine 127.0.0.1 login alice password wonderland\n",
            to: run.cache.appendingPathComponent(".netrc"))
        run.environment["NETRC"] = nil
        let result = try run(["--show-calendar", url])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Standup  [Work at Radicale]"), "\(result.stdout)")
        #expect(result.stdout.contains("Quarterly review"))
        #expect(result.stdout.contains("Send the March report"))
        let listed = try run(["calendars", "--no-config", url], fixed: false)
        #expect(listed.stdout.contains("Work at Radicale"))
        #expect(listed.stdout.contains("copy less than a minute old"), "\(listed.stdout)")
    }

    /// The README's cron recipe, as written there: a Google-shaped secret
    /// address and a Radicale collection (its password in ~/.netrc) in the
    /// configuration, beside a vdir folder, read as cron reads them; then
    /// Google down: the mail still comes, from the copy, with one warning.
    @Test func theREADMERecipeWorks() throws {
        let fault = try SubscriptionTests.fault
        let radicale = try LoopbackServer.radicale.get()
        var run = try Run()
        run.environment["NETRC"] = nil
        let google = "/calendar/ical/you%40gmail.com/private-\(UUID().uuidString)/basic.ics"
        try run.configure("""
            # ~/.config/ics-agenda/config
            --tz Europe/Berlin
            --refresh 1h
            \(fault.base())\(google)
            \(radicale.base())/alice/work/
            \(CLI.root.appendingPathComponent("Fixtures/vdir/family").path)

            """)
        try CLI.writePrivately("machine 127.0.0.1 login alice password wonderland\n",
            to: run.cache.appendingPathComponent(".netrc"))
        run.environment["ICS_AGENDA_NOW"] = "2025-03-04T06:00:00+01:00"
        let morning = try CLI.run(["--from", "yesterday", "--days", "2"], environment: run.environment)
        #expect(morning.status == 0, "\(morning.stderr)")
        #expect(morning.stderr.isEmpty, "\(morning.stderr)")
        #expect(morning.stdout.contains("Served event"))
        #expect(morning.stdout.contains("Standup"))
        #expect(morning.stdout.contains("Quarterly review"))
        #expect(morning.stdout.contains("Swimming lessons"))
        _ = try fault.ask("/down" + google)
        try run.age(hours: 2)
        let down = try CLI.run(["--from", "yesterday", "--days", "2"], environment: run.environment)
        #expect(down.status == 0)
        #expect(down.stdout == morning.stdout)
        #expect(down.stderr.split(separator: "\n").count == 1, "\(down.stderr)")
        #expect(down.stderr.contains("/…/basic.ics: could not refresh: the server answered HTTP 503; read the copy from 2 h ago"), "\(down.stderr)")
        #expect(!down.stderr.contains("private-"))
    }

    /// `calendars` takes the configured --refresh and --offline (how URLs
    /// are fetched), and the lines before any section that it has; the
    /// agenda's own (`--group-by`) are left out there, not refused.
    @Test func calendarsTakesTheConfiguredOptionsItHas() throws {
        let server = try SubscriptionTests.fault
        var run = try Run()
        try run.configure("--offline\n--group-by week\n[agenda]\n--format json\n")
        let path = "/ok-\(UUID().uuidString).ics"
        let result = try CLI.run(["calendars", server.base() + path, "Fixtures/sample.ics"],
            environment: run.environment)
        #expect(result.status == 66)
        #expect(result.stderr.contains("--offline"), "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Fixtures\n"), "\(result.stdout)")
        #expect(try server.ask("/count" + path) == "0")
    }

    /// Text meant as a URL is never read as a file name nor printed whole:
    /// a line end copied along is left out; a blank inside, or a password
    /// with `/`, `?` or `#` in it, is a bad command line that names only the scheme.
    @Test func aURLThatCannotBeFetchedIsAUsageErrorThatKeepsItsSecret() throws {
        let server = try SubscriptionTests.fault
        let run = try Run()
        let copied = try run([server.base() + "/ok-\(UUID().uuidString).ics\r\n"])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.contains("Served event"))
        for bad in [
            "https://127.0.0.1:1/x/SECRETTOKEN/my cal.ics?key=SECRET",
            "https://uzer:pw0rd#SECRET@127.0.0.1:1/cal.ics", "https://uzer:pw0rd/SECRET@127.0.0.1:1/cal.ics",
            "https://uzer:pw0rd?SECRET@127.0.0.1:1/cal.ics", "webcal://127.0.0.1:1/x/SECRETTOKEN/\u{1B}[31mcal.ics",
        ] {
            let result = try run([bad, "Fixtures/sample.ics"])
            #expect(result.status == 64, "\(bad): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("not a URL that can be fetched"), "\(result.stderr)")
            for secret in ["SECRET", "uzer", "pw0rd"] { #expect(!result.stderr.contains(secret),
                "\(secret) in \(result.stderr)") }
        }
    }

    /// Blank lines or a comment after END:VCALENDAR are no cut transfer.
    @Test func whatFollowsTheCalendarIsNoCut() throws {
        let server = try SubscriptionTests.fault
        let run = try Run()
        let result = try run([server.base() + "/trailing-\(UUID().uuidString)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Trailing event"))
    }

    /// A copy damaged on disk is no copy: it is fetched again; offline, the
    /// URL is left out (66) and the other inputs are printed.
    @Test func aDamagedCopyIsFetchedAgain() throws {
        let server = try SubscriptionTests.fault
        let run = try Run()
        let path = "/ok-\(UUID().uuidString).ics"
        _ = try run([server.base() + path])
        for copy in try run.copies() { try Data("garbage".utf8).write(to: copy) }
        let offline = try run(["--offline", server.base() + path, "Fixtures/sample.ics"])
        #expect(offline.status == 66)
        #expect(offline.stdout.contains("Breakfast with Ana"))
        let again = try run([server.base() + path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("Served event"))
        #expect(try server.ask("/count" + path) == "2")
        #expect(try server.ask("/count304" + path) == "0")
    }

    /// One calendar, however its address is written: a fragment, the host's case.
    @Test func oneAddressWrittenTwiceIsFetchedAndListedOnce() throws {
        let server = try SubscriptionTests.fault
        let run = try Run()
        let path = "/ok-\(UUID().uuidString).ics"
        let result = try run(["--format", "json", server.base() + path, server.base() + path + "#week",
            "HTTP://127.0.0.1:\(server.ports["http"]!)" + path])
        #expect(result.stdout.split(separator: "\n").count == 1, "\(result.stdout)")
        #expect(try server.ask("/count" + path) == "1")
    }
}
