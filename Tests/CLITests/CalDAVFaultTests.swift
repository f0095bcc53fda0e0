import Foundation
import Testing

/// CalDAV accounts against a server that misbehaves on demand
/// (`scripts/caldav_fault_server.py`), for what Radicale will not do: a
/// redirect of a PROPFIND, a home set on another host, a refused sync
/// token, a 507, duplicate hrefs, a DOCTYPE, a cut body. Each account is
/// its own path on one server, started once.
@Suite struct CalDAVFaultTests {
    final class FaultServer: Sendable {
        private let server: LoopbackServer
        var port: Int { server.port }

        init() throws { server = try LoopbackServer(script: "scripts/caldav_fault_server.py") }

        /// The body of a GET, with the system's Python.
        func ask(_ path: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c",
                "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())",
                "http://127.0.0.1:\(port)\(path)"]
            return try CLI.collect(process).stdout
        }

        /// The requests asked of one account, as `METHOD HOST PATH AUTH`.
        func log(_ name: String) throws -> [String] {
            try ask("/log").split(separator: "\n").map(String.init)
                .filter { $0.contains("/t/\(name)/") || $0.contains("-\(name)/") }
        }
    }

    static let server = Result { try FaultServer() }

    /// An account of its own: `/t/MODE-UUID/`.
    static func account(_ mode: String) throws -> (server: FaultServer, name: String, url: String) {
        let server = try CalDAVFaultTests.server.get()
        let name = "\(mode)-\(UUID().uuidString.prefix(8))"
        return (server, name, "dav://127.0.0.1:\(server.port)/t/\(name)/")
    }

    static func run(_ arguments: [String], cache: URL) throws -> CLI.Result {
        try CLI.writePrivately(
            "machine 127.0.0.1 login alice password wonderland\nmachine localhost login alice password wonderland\n",
            to: cache.appendingPathComponent(".netrc"))
        return try CLI.run(CalDAVAccountTests.fixed + arguments,
            environment: ["XDG_CACHE_HOME": cache.path, "HOME": cache.path])
    }

    static func cache() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-caldav-fault-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A 301 on the account's URL is followed by us with the same method
    /// (libcurl would have sent a GET), and the source stays the account as written.
    @Test func aMovedAccountIsFollowedWithItsOwnMethod() throws {
        let (server, name, url) = try CalDAVFaultTests.account("moved")
        let result = try CalDAVFaultTests.run(["--show-calendar", url], cache: try CalDAVFaultTests.cache())
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Fault plain one  [Fault plain]"), "\(result.stdout)")
        let log = try server.log(name)
        #expect(log.first?.hasPrefix("PROPFIND 127.0.0.1 /t/\(name)/") == true, "\(log)")
        #expect(log.contains { $0.hasPrefix("PROPFIND 127.0.0.1 /t/plain-\(name)/ ") }, "\(log)")
        #expect(!log.contains { $0.hasPrefix("GET") })
    }

    /// A refused login says where its password came from, in the words a
    /// URL's does (CredentialTests): the netrc, the URL, the helper.
    @Test func aRefusedLoginNamesWhereItsPasswordCameFrom() throws {
        let (server, name, url) = try CalDAVFaultTests.account("locked")
        let cache = try CalDAVFaultTests.cache()
        let good = try CalDAVFaultTests.run([url], cache: cache)
        #expect(good.status == 0 && good.stdout.contains("Fault locked one"), "\(good.stderr)")
        try CLI.writePrivately("machine 127.0.0.1 login alice password wrong\n",
            to: cache.appendingPathComponent(".netrc"))
        let environment = ["XDG_CACHE_HOME": cache.path, "HOME": cache.path]
        let netrc = try CLI.run(CalDAVAccountTests.fixed + ["--refresh", "0", url], environment: environment)
        #expect(netrc.status == 0)
        #expect(netrc.stderr.contains("could not refresh: the server refused the login (HTTP 401): the password in " +
            "~/.netrc is wrong; read the copy"), "\(netrc.stderr)")
        let written = url.replacingOccurrences(of: "dav://", with: "dav://alice:wrong@")
        let own = try CLI.run(CalDAVAccountTests.fixed + ["--refresh", "0", written], environment: environment)
        #expect(own.stderr.contains("(HTTP 401): the password written in the URL is wrong"), "\(own.stderr)")
        let helper = cache.appendingPathComponent("dav-helper")
        try "#!/bin/sh\necho password=wrong\n".write(to: helper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: helper.path)
        let helped = try CLI.run(CalDAVAccountTests.fixed + ["--refresh", "0", "--credential-helper", helper.path, url],
            environment: environment)
        #expect(helped.stderr.contains("(HTTP 401): the password --credential-helper dav-helper gave is wrong"),
            "\(helped.stderr)")
        #expect(try server.log(name).allSatisfy { $0.hasSuffix(" auth") })
    }

    /// RFC 6764 §5: no principal at the URL (404), so `/.well-known/caldav`
    /// is asked, whose 301 is followed with PROPFIND kept.
    @Test func withoutAPrincipalAtTheURLTheWellKnownAddressIsAsked() throws {
        let (server, name, url) = try CalDAVFaultTests.account("nowhere")
        let result = try CalDAVFaultTests.run(["--show-calendar", url], cache: try CalDAVFaultTests.cache())
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Fault plain one  [Fault plain]"), "\(result.stdout)")
        #expect(try server.log(name) == ["PROPFIND 127.0.0.1 /t/\(name)/ auth"])
        let wellKnown = try server.ask("/log").split(separator: "\n").filter { $0.contains("/.well-known/caldav") }
        #expect(wellKnown.allSatisfy { $0.hasPrefix("PROPFIND 127.0.0.1 /.well-known/caldav") }, "\(wellKnown)")
        #expect(!wellKnown.isEmpty)
    }

    /// A home set on another host (as iCloud's pNN-caldav.icloud.com) is
    /// followed; the login goes only to hosts of the account's own domain:
    /// `localhost` is not `127.0.0.1`'s, and gets none.
    @Test func aHomeOnAnotherHostIsFollowedWithoutTheLogin() throws {
        let (server, name, url) = try CalDAVFaultTests.account("crosshost")
        let result = try CalDAVFaultTests.run([url], cache: try CalDAVFaultTests.cache())
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Fault crosshost one"), "\(result.stdout)")
        let log = try server.log(name)
        #expect(log.contains("PROPFIND 127.0.0.1 /t/\(name)/ auth"), "\(log)")
        let elsewhere = log.filter { $0.contains(" localhost ") }
        #expect(!elsewhere.isEmpty, "\(log)")
        #expect(elsewhere.allSatisfy { $0.hasSuffix(" -") }, "the login went to another host: \(log)")
    }

    /// RFC 6578 §3.2: a sync token refused (403 valid-sync-token) or a 507
    /// means a full listing, and the change is still seen.
    @Test(arguments: ["badtoken", "full"])
    func aRefusedSyncReportFallsBackToAFullListing(mode: String) throws {
        let (server, name, url) = try CalDAVFaultTests.account(mode)
        let cache = try CalDAVFaultTests.cache()
        let first = try CalDAVFaultTests.run([url], cache: cache)
        #expect(first.status == 0, "\(first.stderr)")
        _ = try server.ask("/bump/\(name)")
        let second = try CalDAVFaultTests.run(["--refresh", "0", url], cache: cache)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.isEmpty, "\(second.stderr)")
        #expect(second.stdout.contains("Fault \(mode) two"), "\(second.stdout)")
        let log = try server.log(name)
        #expect(log.filter { $0.hasPrefix("REPORT") }.count == 3, "multiget, refused sync, multiget: \(log)")
    }

    /// An `http(s)://` input that answers as a WebDAV server (405 to a GET,
    /// or Nextcloud's "This is the WebDAV interface" page) gets a hint to
    /// write `dav(s)://`.
    @Test(arguments: ["/t/plain-hint/", "/webdav-page"])
    func aURLThatIsAWebDAVServerGetsAHint(path: String) throws {
        let server = try CalDAVFaultTests.server.get()
        let result = try CalDAVFaultTests.run(["http://127.0.0.1:\(server.port)\(path)"],
            cache: try CalDAVFaultTests.cache())
        #expect(result.status == 66)
        #expect(result.stderr.contains("if it is a CalDAV server, write dav:// in place of http://"),
            "\(result.stderr)")
    }

    /// One href twice in a multiget (Zimbra, DavMail) is one item.
    @Test func duplicateHrefsAreOneItem() throws {
        let (_, _, url) = try CalDAVFaultTests.account("dup")
        let result = try CalDAVFaultTests.run([url], cache: try CalDAVFaultTests.cache())
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "Fault dup one").count == 2, "\(result.stdout)")
    }

    /// A DOCTYPE (an external entity) and a body cut short are refused:
    /// with no copy, the account is told once and the status is 66; nothing
    /// of the entity's file is read.
    @Test(arguments: [("xxe", "DOCTYPE"), ("cut", "cut short")])
    func aHostileOrCutAnswerIsRefused(mode: String, words: String) throws {
        let (_, _, url) = try CalDAVFaultTests.account(mode)
        let result = try CalDAVFaultTests.run([url], cache: try CalDAVFaultTests.cache())
        #expect(result.status == 66)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(words), "\(result.stderr)")
        #expect(!result.stderr.contains("root:"))
    }

    /// A server that stops answering costs the transfer's time limit (30 s,
    /// ICS_AGENDA_TIMEOUT's when set), never a hang: the copy is read, with
    /// one warning that says the account timed out.
    @Test func aStalledServerCostsTheTimeoutAndTheCopyIsRead() throws {
        let (server, name, url) = try CalDAVFaultTests.account("stall")
        let cache = try CalDAVFaultTests.cache()
        let first = try CalDAVFaultTests.run([url], cache: cache)
        #expect(first.status == 0 && first.stdout.contains("Fault stall one"), "\(first.stderr)")
        _ = try server.ask("/bump/\(name)")
        try CLI.writePrivately("machine 127.0.0.1 login alice password wonderland\n",
            to: cache.appendingPathComponent(".netrc"))
        // make test waits 2 s; make check-all the 30 s of the default.
        var environment = ["XDG_CACHE_HOME": cache.path, "HOME": cache.path]
        if !FullChecks.enabled { environment["ICS_AGENDA_TIMEOUT"] = "2" }
        let stalled = try CLI.run(CalDAVAccountTests.fixed + ["--refresh", "0", url], environment: environment)
        #expect(stalled.status == 0, "\(stalled.stderr)")
        #expect(stalled.stdout.contains("Fault stall one"), "the copy is read: \(stalled.stdout)")
        #expect(!stalled.stdout.contains("Fault stall two"))
        #expect(stalled.stderr.split(separator: "\n").count == 1, "\(stalled.stderr)")
        #expect(stalled.stderr.contains("timed out"), "\(stalled.stderr)")
    }

    /// A server that writes a sync report's hrefs raw (`lunch@cafe 100%.ics`)
    /// while its listing encodes them, and answers 404 for a raw href in a
    /// multiget: the hrefs go back encoded, and the changed and new items
    /// are read (CONTRACT.md, *CalDAV accounts*: the copy never drifts).
    @Test func rawHrefsInASyncReportAreSentBackEncoded() throws {
        let (server, name, url) = try CalDAVFaultTests.account("rawhref")
        let cache = try CalDAVFaultTests.cache()
        let first = try CalDAVFaultTests.run([url], cache: cache)
        #expect(first.status == 0 && first.stdout.contains("Fault rawhref one"), "\(first.stderr)")
        _ = try server.ask("/bump/\(name)")
        let second = try CalDAVFaultTests.run(["--refresh", "0", url], cache: cache)
        #expect(second.status == 0)
        #expect(second.stderr.isEmpty, "\(second.stderr)")
        #expect(second.stdout.contains("Fault rawhref one moved"), "\(second.stdout)")
        #expect(second.stdout.contains("Fault rawhref two"), "\(second.stdout)")
    }

    /// RFC 6578 §3.6: a sync report cut by a 507 for the calendar itself
    /// is followed on from the token it gives, in the same run: the agenda
    /// of that run is whole, and no full listing was needed.
    @Test func aSyncReportCutBy507IsFollowedInTheSameRun() throws {
        let (server, name, url) = try CalDAVFaultTests.account("cut507")
        let cache = try CalDAVFaultTests.cache()
        #expect(try CalDAVFaultTests.run([url], cache: cache).status == 0)
        _ = try server.ask("/bump/\(name)")
        let second = try CalDAVFaultTests.run(["--refresh", "0", url], cache: cache)
        #expect(second.status == 0 && second.stderr.isEmpty, "\(second.stderr)")
        for word in ["one", "two", "three"] {
            #expect(second.stdout.contains("Fault cut507 \(word)"), "\(second.stdout)")
        }
        let log = try server.log(name)
        #expect(log.filter { $0.hasPrefix("REPORT") }.count == 4, "multiget; two pages, multiget: \(log)")
        #expect(log.filter { $0.hasPrefix("PROPFIND 127.0.0.1 /t/\(name)/home/cal/ ") }.count == 1, "\(log)")
    }

    /// An item a multiget leaves out is told in one warning, and the token
    /// is not kept: the next run asks for the same changes again, and
    /// warns again, rather than keeping the old item unseen for good.
    @Test func anItemLeftOutIsToldAndAskedForAgain() throws {
        let (server, name, url) = try CalDAVFaultTests.account("gap")
        let cache = try CalDAVFaultTests.cache()
        #expect(try CalDAVFaultTests.run([url], cache: cache).status == 0)
        _ = try server.ask("/bump/\(name)")
        for _ in 0..<2 {
            let run = try CalDAVFaultTests.run(["--refresh", "0", url], cache: cache)
            #expect(run.status == 0)
            #expect(run.stdout.contains("Fault gap one") && !run.stdout.contains("Fault gap two"), "\(run.stdout)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
            #expect(run.stderr.contains("1 item could not be read"), "\(run.stderr)")
        }
        let reports = try server.log(name).filter { $0.hasPrefix("REPORT") }
        #expect(reports.count == 1 + 2 * 3, "each run: the sync report, the multiget, the item again: \(reports)")
    }

    /// The multigets of a large first sync go to the server six at a time,
    /// on connections reused, not one connection each at once.
    @Test func aLargeSyncKeepsSixRequestsInFlight() throws {
        let (server, name, url) = try CalDAVFaultTests.account("bulk-1500-slow")
        let result = try CalDAVFaultTests.run(["--offline", "--refresh", "0", url], cache: try CalDAVFaultTests.cache())
        #expect(result.status == 66, "--offline with no copy: nothing asked")
        let synced = try CalDAVFaultTests.run([url], cache: try CalDAVFaultTests.cache())
        #expect(synced.status == 0 && synced.stderr.isEmpty, "\(synced.stderr)")
        #expect(try server.log(name).filter { $0.hasPrefix("REPORT") }.count == 15)
        let most = Int(try server.ask("/inflight/\(name)").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect((1...6).contains(most), "\(most) requests at once")
    }
}

