import AgendaSystem
import Foundation
import Testing

@testable import Subscriptions

#if canImport(Glibc)
    import Glibc
#endif

/// What `DAVSync` decides, against a canned server (`CannedCalDAVServer`)
/// with the quirks real servers have: the copy never keeps a token it has
/// not earned, hrefs go back encoded, a cut report is followed, drift
/// lasts at most a day, the state is data, and a lock that fails stops
/// the sync (CONTRACT.md, *CalDAV accounts*).
@Suite struct DAVSyncTests {
    /// A copy in a folder of its own, synced against `server`.
    struct Account {
        let server: CannedCalDAVServer
        let copy: DAVCopy
        var now = Date(timeIntervalSince1970: 1_750_000_000)

        init(_ server: CannedCalDAVServer = CannedCalDAVServer()) throws {
            self.server = server
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "ics-agenda-davsync-\(UUID().uuidString)")
            copy = DAVCopy(folder: folder.path)
        }

        /// One sync at `now`, `configure` setting its knobs; its report.
        @discardableResult
        func sync(_ configure: (inout DAVSync) -> Void = { _ in }) throws -> DAVSyncReport {
            let account = try DAVAccount(parsing: "dav://127.0.0.1:1/")
            let client = DAVClient(account: account, login: nil, transport: server)
            var sync = DAVSync(client: client, copy: copy, now: now)
            configure(&sync)
            return try sync.run()
        }

        var entry: DAVCopy.CalendarEntry { copy.account().state!.state.calendars[0] }
        var state: DAVCopy.CalendarState { copy.calendarState(entry).state! }

        /// The SUMMARY of each item file the state names, by path.
        var summaries: [String: String] {
            var found: [String: String] = [:]
            for (key, item) in state.items {
                let text = (try? String(contentsOfFile: copy.calendarFolder(entry) + "/" + item.file, encoding: .utf8))
                found[key] = text?.split(whereSeparator: \.isNewline).first { $0.hasPrefix("SUMMARY:") }.map {
                    String($0.dropFirst(8))
                }
            }
            return found
        }
    }

    static let lunch = "/cal/work/lunch@cafe 100%.ics"

    /// A server that writes a sync report's href raw (a blank, a `%` not
    /// followed by hex) while its listing encodes it: the href is sent back
    /// encoded, so the multiget finds the item and the new version is kept.
    @Test func aRawHrefInASyncReportIsSentBackEncoded() throws {
        let server = CannedCalDAVServer()
        server.put(DAVSyncTests.lunch, "Lunch")
        server.put("/cal/work/plain.ics", "Plain")
        server.rawHrefsInSyncReports = true
        let account = try Account(server)
        try account.sync()
        server.put(DAVSyncTests.lunch, "Lunch moved")
        server.put("/cal/work/new 50%.ics", "New")
        let report = try account.sync()
        #expect(report.unread.isEmpty, "\(report.unread)")
        #expect(account.summaries[DAVSyncTests.lunch] == "Lunch moved", "\(account.summaries)")
        #expect(account.summaries["/cal/work/new 50%.ics"] == "New", "\(account.summaries)")
        #expect(account.state.syncToken == "tok-\(server.token)")
        let sent = server.requests.filter { $0.body.contains("calendar-multiget") }.last!.body
        #expect(sent.contains("lunch%40cafe%20100%25.ics"), "the listing's form is preferred: \(sent)")
        #expect(sent.contains("new%2050%25.ics"), "\(sent)")
    }

    /// An item the multiget leaves out, or answers 404, is asked again in
    /// the same run; still missing, the old token is kept (the copy keeps
    /// its old version) and the next run asks for it again.
    @Test(arguments: [false, true])
    func anItemNotAnsweredKeepsTheOldToken(notFound: Bool) throws {
        let server = CannedCalDAVServer()
        server.put("/cal/work/a.ics", "A")
        server.put("/cal/work/b.ics", "B")
        let account = try Account(server)
        try account.sync()
        let earned = account.state.syncToken
        server.put("/cal/work/a.ics", "A changed")
        server.put("/cal/work/b.ics", "B changed")
        if notFound { server.multigetNotFound = ["/cal/work/b.ics"] } else { server.multigetLeavesOut = ["/cal/work/b.ics"] }
        let report = try account.sync()
        #expect(report.unread.map(\.href) == [server.encodedHref("/cal/work/b.ics")], "\(report.unread)")
        #expect(report.unread.first?.reason == (notFound ? .status(404) : .notAnswered))
        #expect(server.count("REPORT", "calendar-multiget") == 3, "first sync, batch, the item again")
        #expect(account.state.syncToken == earned, "the token is not kept for an incomplete copy")
        #expect(account.summaries["/cal/work/a.ics"] == "A changed")
        #expect(account.summaries["/cal/work/b.ics"] == "B", "the old version is kept")
        server.multigetNotFound = []
        server.multigetLeavesOut = []
        let next = try account.sync()
        #expect(next.unread.isEmpty)
        #expect(account.summaries["/cal/work/b.ics"] == "B changed")
        #expect(account.state.syncToken == "tok-\(server.token)")
    }

    /// The same on a server without sync tokens: the old ctag is kept, so
    /// the next run lists the calendar again.
    @Test func anItemNotAnsweredKeepsTheOldCtag() throws {
        let server = CannedCalDAVServer()
        server.ctagOnly = true
        server.put("/cal/work/a.ics", "A")
        let account = try Account(server)
        try account.sync()
        server.put("/cal/work/a.ics", "A changed")
        server.multigetLeavesOut = ["/cal/work/a.ics"]
        #expect(try account.sync().unread.count == 1)
        #expect(account.state.ctag == "2")
        server.multigetLeavesOut = []
        #expect(try account.sync().unread.isEmpty)
        #expect(account.summaries["/cal/work/a.ics"] == "A changed")
        #expect(account.state.ctag == "\(server.token)")
    }

    /// RFC 6578 §3.6: a report cut by a 507 goes on from the token it
    /// gives, in the same run; the copy is whole and holds the last token.
    @Test func aSyncReportCutBy507IsFollowedInTheSameRun() throws {
        let server = CannedCalDAVServer()
        for i in 0..<3 { server.put("/cal/work/\(i).ics", "Item \(i)") }
        let account = try Account(server)
        try account.sync()
        for i in 0..<5 { server.put("/cal/work/\(i).ics", "Item \(i) v2") }
        server.delete("/cal/work/2.ics")
        server.syncPageSize = 2
        let report = try account.sync()
        #expect(report.unread.isEmpty)
        #expect(server.count("REPORT", "sync-collection") == 3, "three pages of two changes")
        #expect(server.count("PROPFIND") == 5, "discovery (2), home and listing, then the home alone: \(server.requests.map(\.url))")
        #expect(account.summaries == ["/cal/work/0.ics": "Item 0 v2", "/cal/work/1.ics": "Item 1 v2",
            "/cal/work/3.ics": "Item 3 v2", "/cal/work/4.ics": "Item 4 v2"])
        #expect(account.state.syncToken == "tok-\(server.token)")
    }

    /// A report cut more often than the bound ends in a full listing: the
    /// copy is whole all the same.
    @Test func aReportCutPastTheBoundEndsInAFullListing() throws {
        let server = CannedCalDAVServer()
        server.put("/cal/work/0.ics", "Item 0")
        let account = try Account(server)
        try account.sync()
        for i in 0..<6 { server.put("/cal/work/\(i).ics", "Item \(i) v2") }
        server.syncPageSize = 1
        let report = try account.sync { $0.maxSyncPages = 3 }
        #expect(report.unread.isEmpty)
        #expect(server.count("REPORT", "sync-collection") == 3)
        #expect(server.count("PROPFIND") == 6, "the first sync (4), the home, the full listing")
        #expect(account.summaries.count == 6)
        #expect(account.summaries.values.allSatisfy { $0.hasSuffix("v2") }, "\(account.summaries)")
        #expect(account.state.syncToken == "tok-\(server.token)")
    }

    /// A change the token does not tell of (drift of any cause) lasts at
    /// most a day: an unchanged refresh is one request, and once a day the
    /// ETags are listed whole and compared.
    @Test func driftLastsAtMostADay() throws {
        let server = CannedCalDAVServer()
        server.put("/cal/work/a.ics", "A")
        var account = try Account(server)
        try account.sync()
        server.changeSilently("/cal/work/a.ics", "A drifted")
        let before = server.requests.count
        account.now += 23 * 3600
        try account.sync()
        #expect(server.requests.count == before + 1, "an unchanged refresh is one request")
        #expect(account.summaries["/cal/work/a.ics"] == "A")
        account.now += 2 * 3600
        try account.sync()
        #expect(server.requests.count == before + 1 + 3, "the home, the listing, the item")
        #expect(account.summaries["/cal/work/a.ics"] == "A drifted")
        #expect(account.state.listed == account.now)
    }

    /// The daily listing that finds drift, and then cannot fetch what it
    /// found, keeps the old listing time too: the next run lists again,
    /// rather than trusting the token for another day.
    @Test func aListingWhoseItemsAreNotHadIsMadeAgain() throws {
        let server = CannedCalDAVServer()
        server.put("/cal/work/a.ics", "A")
        var account = try Account(server)
        try account.sync()
        let listed = account.state.listed
        server.changeSilently("/cal/work/a.ics", "A drifted")
        server.multigetLeavesOut = ["/cal/work/a.ics"]
        account.now += 25 * 3600
        #expect(try account.sync().unread.count == 1)
        #expect(account.state.listed == listed, "the listing is not counted as done")
        server.multigetLeavesOut = []
        account.now += 60
        try account.sync()
        #expect(account.summaries["/cal/work/a.ics"] == "A drifted")
        #expect(account.state.listed == account.now)
    }

    /// A listing the server cuts short (a 507 for the calendar itself)
    /// names only some members: none it leaves out is taken as gone, and
    /// the token is not kept.
    @Test func aListingCutShortRemovesNothing() throws {
        let server = CannedCalDAVServer()
        for name in ["a", "b", "c"] { server.put("/cal/work/\(name).ics", name) }
        var account = try Account(server)
        try account.sync()
        server.put("/cal/work/a.ics", "a2")
        server.listingCutAfter = 1
        account.now += 25 * 3600
        let report = try account.sync()
        #expect(report.cutListings == ["Work"])
        #expect(account.summaries == ["/cal/work/a.ics": "a2", "/cal/work/b.ics": "b", "/cal/work/c.ics": "c"])
        #expect(account.state.syncToken == "tok-4", "the old token: the listing was not whole")
        #expect(DAVFetch.warning(report, try DAVAccount(parsing: "dav://127.0.0.1:1/x"))?.contains("cut short") == true)
    }

    /// An item file removed from the copy by hand is fetched again by the
    /// daily listing, though its ETag did not change.
    @Test func anItemFileRemovedFromTheCopyIsFetchedAgain() throws {
        let server = CannedCalDAVServer()
        server.put("/cal/work/a.ics", "A")
        var account = try Account(server)
        try account.sync()
        let file = account.copy.calendarFolder(account.entry) + "/" + account.state.items["/cal/work/a.ics"]!.file
        try FileManager.default.removeItem(atPath: file)
        account.now += 25 * 3600
        try account.sync()
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(account.summaries["/cal/work/a.ics"] == "A")
    }

    /// A state that names a path (`../../x`) is refused before any file is
    /// opened or removed: the calendar is fetched again whole, and the file
    /// it named is left alone.
    @Test func aStateThatNamesAPathIsRefused() throws {
        let server = CannedCalDAVServer()
        server.put("/cal/work/a.ics", "A")
        server.put("/cal/work/b.ics", "B")
        let account = try Account(server)
        try account.sync()
        let victim = FileManager.default.temporaryDirectory.appendingPathComponent("victim-\(UUID().uuidString)")
        try "keep me".write(to: victim, atomically: true, encoding: .utf8)
        var state = account.state
        state.items["/cal/work/b.ics"]!.file = "../../../../../../../.." + victim.path
        try DAVCopy.write(json: state, to: account.copy.calendarFolder(account.entry) + "/.state.json")
        #expect(account.copy.calendars()?.refused == ["Work"], "the reader refuses it too")
        server.delete("/cal/work/b.ics")
        let report = try account.sync()
        #expect(report.refusedStates == ["Work"])
        #expect(FileManager.default.fileExists(atPath: victim.path), "the file the state named is left")
        #expect(account.summaries == ["/cal/work/a.ics": "A"])
        #expect(account.state.isOwn)
        #expect(DAVFetch.warning(report, try DAVAccount(parsing: "dav://127.0.0.1:1/x"))?.contains(
            "not its own") == true)
    }

    /// An account state whose calendar folder is not the copy's own name is
    /// refused: the account is found again, and nothing is read from or
    /// removed at the path it named.
    @Test func anAccountStateThatNamesAPathIsRefused() throws {
        let server = CannedCalDAVServer()
        server.put("/cal/work/a.ics", "A")
        let account = try Account(server)
        try account.sync()
        var kept = account.copy.account().state!.state
        kept.calendars[0].folder = "../elsewhere"
        try DAVCopy.write(json: kept, to: account.copy.accountPath)
        guard case .refused = account.copy.account() else {
            Issue.record("the account state was not refused")
            return
        }
        #expect(account.copy.calendars() == nil)
        let report = try account.sync()
        #expect(report.refusedStates == [""])
        #expect(account.summaries == ["/cal/work/a.ics": "A"])
    }

    /// An answer the XML reader refuses (an item over libxml2's limits
    /// spoils its whole batch) costs only that item: the batch is asked
    /// again item by item, the item is told by its name, the others kept.
    @Test func anItemWhoseAnswerCannotBeReadCostsOnlyItself() throws {
        let server = CannedCalDAVServer()
        for name in ["a", "big", "c"] { server.put("/cal/work/\(name).ics", name) }
        server.multigetBreaksOn = ["/cal/work/big.ics"]
        let account = try Account(server)
        let report = try account.sync()
        #expect(account.summaries.keys.sorted() == ["/cal/work/a.ics", "/cal/work/c.ics"])
        #expect(report.unread.count == 1)
        guard case .unreadable = report.unread.first?.reason else {
            Issue.record("\(report.unread)")
            return
        }
        #expect(account.state.syncToken == nil, "no token for a copy that lacks an item")
        let warning = DAVFetch.warning(report, try DAVAccount(parsing: "dav://127.0.0.1:1/x"))
        #expect(warning?.hasPrefix("dav://127.0.0.1:1/…: 1 item could not be read (…/big.ics: ") == true,
            "\(warning ?? "")")
        server.multigetBreaksOn = []
        #expect(try account.sync().unread.isEmpty)
        #expect(account.summaries.count == 3)
    }

    /// A batch answered with an error status is the server's word on the
    /// whole batch: its items are owed, not asked again one by one (500
    /// items would be 500 requests more); the old token stays.
    @Test func aBatchAnsweredWithAnErrorIsNotSplit() throws {
        let server = CannedCalDAVServer()
        server.put("/cal/work/a.ics", "A")
        let account = try Account(server)
        try account.sync()
        for i in 0..<250 { server.put("/cal/work/\(i).ics", "Item \(i)") }
        server.multigetStatus = 500
        let report = try account.sync()
        #expect(report.unread.count == 250)
        #expect(report.unread.allSatisfy { $0.reason == .status(500) })
        #expect(server.count("REPORT", "calendar-multiget") == 1 + 3, "the first sync's, then three batches")
        #expect(account.state.syncToken == "tok-2")
        server.multigetStatus = nil
        #expect(try account.sync().unread.isEmpty)
        #expect(account.summaries.count == 251)
    }

    /// A DOCTYPE is the server's doing, not an item's: the whole sync
    /// stops, and nothing of it is written.
    @Test func aDoctypeInAMultigetStopsTheSync() throws {
        let server = CannedCalDAVServer()
        server.put("/cal/work/a.ics", "A")
        server.multigetHasDoctype = true
        let account = try Account(server)
        #expect(throws: DAVFailure.hostile("the XML has a DOCTYPE (refused: entities and DTDs are never read)")) {
            try account.sync()
        }
        #expect(server.count("REPORT", "calendar-multiget") == 1, "not asked again item by item")
        guard case .none = account.copy.account() else {
            Issue.record("an account state was written")
            return
        }
    }

    /// A lock that cannot be had is a failure, never a sync run unlocked
    /// (that a signal is waited through: AgendaSystemTests, `SystemCall`).
    @Test func aLockThatFailsStopsTheSync() throws {
        let failure = #expect(throws: CacheError.self) {
            try DAVCopy.lock(FileDescriptor(rawValue: -1), path: "/x/.lock")
        }
        #expect(failure?.path == "/x/.lock" && failure?.code == EBADF)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let copy = DAVCopy(folder: folder)
        #expect(try copy.locked { 7 } == 7, "a lock that can be had is held while the body runs")
    }

    /// Hrefs in one normal form: matched by their decoded path, sent back
    /// percent-encoded (RFC 3986 §3.3), `%XX` kept as it is.
    @Test func hrefsHaveOneNormalForm() {
        #expect(DAVHref.encoded("/cal/work/lunch@cafe 100%.ics") == "/cal/work/lunch@cafe%20100%25.ics")
        #expect(DAVHref.encoded("/cal/a%20b/c%2Fd.ics") == "/cal/a%20b/c%2Fd.ics")
        #expect(DAVHref.encoded("/cal/café?#.ics") == "/cal/caf%C3%A9%3F%23.ics")
        #expect(DAVHref.encoded("https://h.example:8443/a b/") == "https://h.example:8443/a%20b/")
        for href in ["/cal/work/lunch@cafe 100%.ics", "/x/%zz%4", "/a%20b c%"] {
            #expect(DAVHref.encoded(DAVHref.encoded(href)) == DAVHref.encoded(href))
            #expect(DAVHref.key(DAVHref.encoded(href)) == DAVHref.key(href), "\(href)")
        }
        #expect(DAVHref.key("/cal/work/lunch%40cafe%20100%25.ics") == DAVSyncTests.lunch)
        #expect(DAVHref.key("/a%20b c%") == "/a b c%")
        // Two items are never one key: escapes that are not UTF-8, and a `://` inside a path.
        #expect(DAVHref.key("/cal/%FF.ics") != DAVHref.key("/cal/%FE.ics"))
        #expect(DAVHref.key("/cal/%FF.ics") != DAVHref.key("/cal/%25FF.ics"))
        #expect(DAVHref.key("/cal/a://x/1.ics") != DAVHref.key("/cal/b://y/1.ics"))
        #expect(DAVHref.key("https://h.example/cal/a.ics") == "/cal/a.ics")
        #expect(DAVHref.encoded("/cal/a://x/1 .ics") == "/cal/a://x/1%20.ics")
    }

    /// One refresh rule for URLs and accounts.
    @Test func oneRefreshPolicy() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let policy = RefreshPolicy(refresh: 900, offline: false)
        #expect(policy.decide(confirmed: nil, now: now) == .ask)
        #expect(policy.decide(confirmed: now - 60, now: now) == .readCopy(age: 60))
        #expect(policy.decide(confirmed: now - 900, now: now) == .ask)
        #expect(policy.decide(confirmed: now + 30, now: now) == .readCopy(age: 0))
        #expect(policy.decide(confirmed: now + 3600, now: now) == .ask, "a copy from the future is asked again")
        let offline = RefreshPolicy(refresh: 900, offline: true)
        #expect(offline.decide(confirmed: nil, now: now) == .nothingToRead)
        #expect(offline.decide(confirmed: now + 3600, now: now) == .readCopy(age: nil))
        #expect(RefreshPolicy(refresh: 0, offline: false).decide(confirmed: now, now: now) == .ask)
    }

    /// Loopback is an address, not a name that begins like one.
    @Test func loopbackIsAnAddress() {
        for host in ["127.0.0.1", "127.1.2.3", "::1", "localhost"] { #expect(DAVAccount.isLoopback(host), "\(host)") }
        for host in ["127.attacker.example", "127.0.0.1.example", "128.0.0.1", "example.com"] {
            #expect(!DAVAccount.isLoopback(host), "\(host)")
        }
    }

    /// A `davs://` account's server that names a plain http address (here
    /// its principal) is refused: anyone on the way could answer it.
    @Test func anHTTPSAccountIsNeverReadOverHTTP() throws {
        final class PlainPrincipal: DAVTransport, @unchecked Sendable {
            var asked: [String] = []
            func send(_ requests: [(request: DAVRequest, login: Netrc.Login?)]) -> [Result<DAVResponse, DAVFailure>] {
                requests.map { request in
                    asked.append(request.request.url)
                    let body = """
                        <d:multistatus xmlns:d="DAV:"><d:response><d:href>/</d:href><d:propstat><d:prop>\
                        <d:current-user-principal><d:href>http://h.example/p/</d:href></d:current-user-principal>\
                        </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>
                        """
                    return .success(DAVResponse(status: 207, body: Array(body.utf8), location: nil))
                }
            }
        }
        let transport = PlainPrincipal()
        let client = DAVClient(account: try DAVAccount(parsing: "davs://h.example/"), login: nil, transport: transport)
        let copy = DAVCopy(folder: FileManager.default.temporaryDirectory.appendingPathComponent(
            "ics-agenda-davsync-\(UUID().uuidString)").path)
        #expect(throws: DAVFailure.insecureAddress) { try DAVSync(client: client, copy: copy).run() }
        #expect(transport.asked == ["https://h.example/"])
    }
}
