import Foundation
import ICalAdapter

#if canImport(Glibc)
    import Glibc
#endif

/// Brings one account's copy up to date, asking only what changed:
///
/// 1. Discovery (RFC 6764 §5-6, RFC 5397, RFC 4791 §6.2.1), when the copy
///    has no home yet: `current-user-principal` on the URL, else on
///    `/.well-known/caldav`; `calendar-home-set` on the principal.
/// 2. The home, `Depth: 1`: each calendar's name, colour, components,
///    `getctag` and `sync-token`. A calendar whose token (else ctag) is the
///    copy's is not asked again: an unchanged account costs this one request.
/// 3. For the others, at once: `sync-collection` from the copy's token
///    (RFC 6578; an invalid token or a 507 means a full listing), else
///    `PROPFIND Depth: 1` for `getetag`, diffed against the copy.
/// 4. `calendar-multiget` (RFC 4791 §7.9) of the changed hrefs, in batches.
///
/// Never `calendar-query` with `time-range` or `expand`: recurrences are
/// expanded by ics-agenda, as for every input.
struct DAVSync {
    let client: DAVClient
    let copy: DAVCopy
    /// Hrefs a multiget asks for at once.
    var batch = 100

    typealias Failure = DAVClient.Failure

    static let homeProperties = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:a="http://apple.com/ns/ical/" \
        xmlns:cs="http://calendarserver.org/ns/"><d:prop><d:resourcetype/><d:displayname/><a:calendar-color/>\
        <c:supported-calendar-component-set/><cs:getctag/><d:sync-token/></d:prop></d:propfind>
        """
    static let principalProperties = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/><d:resourcetype/></d:prop></d:propfind>
        """
    static let homeSetProperties = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
        <d:prop><c:calendar-home-set/></d:prop></d:propfind>
        """
    static let etagProperties = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getetag/></d:prop></d:propfind>
        """

    /// What one changed calendar is to become: its new state, the items to
    /// fetch and those gone.
    typealias Plan = (entry: DAVCopy.CalendarEntry, state: DAVCopy.CalendarState, fetch: [DAVCopy.Item],
        removed: [DAVCopy.Item])
    typealias Change = (entry: DAVCopy.CalendarEntry, listed: Multistatus.Response, old: DAVCopy.CalendarState?)

    /// Runs the whole sync; throws the first failure (the copy then stays
    /// as it was, calendar by calendar: each calendar's state is written
    /// after its items). The stages: the home's listing, the calendars that
    /// changed, what each holds now, the changed items fetched, all written.
    func run() throws(Failure) {
        let kept = copy.account()?.state
        let previous = kept?.calendars ?? []
        var home: String
        if let found = kept?.home { home = found } else { home = try discover() }
        let listing = try listHome(&home, knownBefore: kept != nil)
        let entries = DAVSync.calendars(in: listing, home: home, client: client)
        var changed: [Change] = []
        for (entry, listed) in entries {
            let old = copy.calendarState(entry)
            let token = listed.text(DAVNamespace.dav, "sync-token")
            let ctag = listed.text(DAVNamespace.calendarServer, "getctag")
            if let old, (token != nil && token == old.syncToken) || (token == nil && ctag != nil && ctag == old.ctag) {
                try write(entry)  // name or colour may have changed
                continue
            }
            changed.append((entry, listed, old))
        }
        let plans = try plan(changed)
        let fetched = try fetch(plans)
        for (i, plan) in plans.enumerated() { try write(plan, fetched[i]) }
        do {
            try DAVCopy.write(json: DAVCopy.AccountState(home: home, calendars: entries.map(\.entry)),
                to: copy.accountPath)
        } catch {
            throw Failure(reason: "\(error)")
        }
        // A calendar gone from the account: its copy goes too, once the account no longer names it.
        let listed = Set(entries.map(\.entry.folder))
        for old in previous where !listed.contains(old.folder) { copy.remove(old.folder) }
    }

    /// The home's calendars (Depth 1); a home that moved since it was found is found again.
    private func listHome(_ home: inout String, knownBefore: Bool) throws(Failure) -> Multistatus {
        switch client.multistatus(.init(method: "PROPFIND", url: home, depth: "1", body: DAVSync.homeProperties)) {
        case .success(let found): return found.0
        case .failure(let failure) where knownBefore && [404, 301, 410].contains(failure.status ?? 0):
            home = try discover()
            return try client.multistatus(.init(method: "PROPFIND", url: home, depth: "1",
                body: DAVSync.homeProperties)).get().0
        case .failure(let failure): throw failure
        }
    }

    /// What each changed calendar holds now: by sync report, else by listing.
    private func plan(_ changed: [Change]) throws(Failure) -> [Plan] {
        let reports = client.send(changed.map { change -> DAVClient.Request in
            if let token = change.old?.syncToken, change.listed.text(DAVNamespace.dav, "sync-token") != nil {
                return .init(method: "REPORT", url: client.account.address(change.entry.href), depth: "0",
                    body: DAVSync.syncBody(token))
            }
            return .init(method: "PROPFIND", url: client.account.address(change.entry.href), depth: "1",
                body: DAVSync.etagProperties)
        })
        var plans: [Plan] = []
        for (change, report) in zip(changed, reports) {
            let wasSync = change.old?.syncToken != nil && change.listed.text(DAVNamespace.dav, "sync-token") != nil
            var members: Members
            switch report {
            case .success(let reply) where wasSync && DAVSync.tokenRefused(reply):
                members = try listAll(change.entry)
            case .success(let reply):
                let (answer, _) = try DAVClient.multistatus(of: reply).get()
                members = DAVSync.members(of: answer, calendar: change.entry.href, incremental: wasSync)
                if wasSync { members.token = answer.syncToken }
            case .failure(let failure): throw failure
            }
            var state = change.old ?? DAVCopy.CalendarState()
            if !wasSync { state.syncToken = nil }
            var fetch: [DAVCopy.Item] = []
            var removed: [DAVCopy.Item] = []
            if !members.incremental {
                for (key, item) in state.items where members.present[key] == nil { removed.append(item) }
            }
            for key in members.removed { if let item = state.items[key] { removed.append(item) } }
            for (key, listed) in members.present {
                if let held = state.items[key], held.etag != nil, held.etag == listed.etag { continue }
                fetch.append(DAVCopy.Item(href: listed.href, etag: listed.etag, file: DAVSync.fileName(key)))
            }
            state.syncToken = members.token ?? change.listed.text(DAVNamespace.dav, "sync-token")
            state.ctag = change.listed.text(DAVNamespace.calendarServer, "getctag")
            plans.append((change.entry, state, fetch.sorted { $0.file < $1.file }, removed))
        }
        return plans
    }

    /// The changed items, every calendar's batches at once (`calendar-multiget`).
    private func fetch(_ plans: [Plan]) throws(Failure) -> [[String: (item: DAVCopy.Item, data: [UInt8])]] {
        var requests: [(plan: Int, items: [DAVCopy.Item])] = []
        for (i, plan) in plans.enumerated() {
            for start in stride(from: 0, to: plan.fetch.count, by: batch) {
                requests.append((i, Array(plan.fetch[start..<min(start + batch, plan.fetch.count)])))
            }
        }
        let answers = client.send(requests.map { request in
            DAVClient.Request(method: "REPORT", url: client.account.address(plans[request.plan].entry.href), depth: "1",
                body: DAVSync.multigetBody(request.items.map(\.href)))
        })
        var fetched = [[String: (item: DAVCopy.Item, data: [UInt8])]](repeating: [:], count: plans.count)
        for (request, answer) in zip(requests, answers) {
            let (multistatus, _) = try answer.flatMap { DAVClient.multistatus(of: $0) }.get()
            let asked = Dictionary(request.items.map { (DAVHref.key($0.href), $0) }, uniquingKeysWith: { a, _ in a })
            for response in multistatus.responses {
                let key = DAVHref.key(response.href)
                guard var item = asked[key], let data = response.property(DAVNamespace.caldav,
                    "calendar-data")?.text else {
                    continue
                }
                let bytes = Array(data.utf8)
                guard CalendarText.looksLikeCalendar(bytes) else { continue }
                item.etag = response.text(DAVNamespace.dav, "getetag") ?? item.etag
                fetched[request.plan][key] = (item, bytes)
            }
        }
        return fetched
    }

    /// One calendar written: its items, then the state that names them, then what went.
    private func write(_ plan: Plan, _ fetched: [String: (item: DAVCopy.Item, data: [UInt8])]) throws(Failure) {
        var plan = plan
        let folder = copy.calendarFolder(plan.entry)
        do {
            try DAVCopy.makeFolder(folder)
            for (key, got) in fetched {
                try DAVCopy.write(got.data, to: folder + "/" + got.item.file)
                plan.state.items[key] = got.item
            }
            for item in plan.removed { plan.state.items[DAVHref.key(item.href)] = nil }
            try DAVCopy.write(json: plan.state, to: folder + "/.state.json")
            for item in plan.removed { unlink(folder + "/" + item.file) }
        } catch {
            throw Failure(reason: "\(error)")
        }
        try write(plan.entry)
    }

    /// The `displayname` and `color` files of a calendar's vdir, as vdirsyncer writes them.
    private func write(_ entry: DAVCopy.CalendarEntry) throws(Failure) {
        let folder = copy.calendarFolder(entry)
        do {
            try DAVCopy.makeFolder(folder)
            try DAVCopy.write(Array(entry.name.utf8), to: folder + "/displayname")
            if let color = entry.color { try DAVCopy.write(Array(color.utf8), to: folder + "/color") } else {
                unlink(folder + "/color")
            }
        } catch {
            throw Failure(reason: "\(error)")
        }
    }

    /// What a listing or a sync report says a calendar holds.
    struct Members {
        /// By `DAVHref.key`.
        var present: [String: (href: String, etag: String?)] = [:]
        var removed: [String] = []
        /// A sync report: what is not named did not change.
        var incremental = false
        var token: String?
    }

    static func members(of answer: Multistatus, calendar href: String, incremental: Bool) -> Members {
        var members = Members(incremental: incremental)
        let own = DAVHref.key(href)
        for response in answer.responses {
            let key = DAVHref.key(response.href)
            if key == own || response.isResourceType(DAVNamespace.dav, "collection") { continue }
            if response.status == 404 {
                members.removed.append(key)
            } else if response.status == nil || (200..<300).contains(response.status!) {
                members.present[key] = (response.href, response.text(DAVNamespace.dav, "getetag"))
            }
        }
        return members
    }

    /// The whole listing of a calendar (`getetag` of each member).
    private func listAll(_ entry: DAVCopy.CalendarEntry) throws(Failure) -> Members {
        let (answer, _) = try client.multistatus(
            .init(method: "PROPFIND", url: client.account.address(entry.href), depth: "1", body: DAVSync.etagProperties)
        ).get()
        return DAVSync.members(of: answer, calendar: entry.href, incremental: false)
    }

    /// A sync report refused for its token (RFC 6578 §3.2: 403 or 409 with
    /// `valid-sync-token`), or cut for its size (507): a full listing follows.
    static func tokenRefused(_ reply: DAVClient.Reply) -> Bool {
        if reply.status == 507 { return true }
        guard reply.status == 403 || reply.status == 409 || reply.status == 400 else { return false }
        let root = (try? XMLDocument(parsing: reply.body))?.root
        return root?.child(DAVNamespace.dav, "valid-sync-token") != nil || reply.status != 403
    }

    /// Discovery: the home set's address.
    private func discover() throws(Failure) -> String {
        let account = client.account
        var principal: String?
        search: for start in [account.address(account.path), account.address("/.well-known/caldav")] {
            switch client.multistatus(.init(method: "PROPFIND", url: start, depth: "0",
                body: DAVSync.principalProperties)) {
            case .success(let (answer, reply)):
                if let href = answer.responses.lazy.compactMap({ $0.href(in: DAVNamespace.dav,
                    "current-user-principal") }).first {
                    principal = DAVClient.resolve(href, against: reply.url)
                    break search
                }
            case .failure(let failure):
                // A refused login or no answer at all ends it; a 404 or 405 tries the next place.
                if failure.status == nil || failure.status == 401 || failure.status == 403 { throw failure }
            }
        }
        guard let principal else {
            throw Failure(reason: "no CalDAV account found there (no current-user-principal at the URL or " +
                "/.well-known/caldav)")
        }
        let (answer, reply) = try client.multistatus(
            .init(method: "PROPFIND", url: principal, depth: "0", body: DAVSync.homeSetProperties)).get()
        guard let home = answer.responses.lazy.compactMap({ $0.href(in: DAVNamespace.caldav, "calendar-home-set") })
            .first else {
            throw Failure(reason: "the account names no calendar-home-set")
        }
        return DAVClient.resolve(home, against: reply.url)
    }

    /// The calendars a home's listing holds, each with its entry in the copy.
    static func calendars(in listing: Multistatus, home: String, client: DAVClient)
        -> [(entry: DAVCopy.CalendarEntry, listed: Multistatus.Response)]
    {
        listing.responses.compactMap { response in
            guard response.isResourceType(DAVNamespace.caldav, "calendar") else { return nil }
            let address = DAVClient.resolve(response.href, against: home)
            let key = DAVHref.key(address)
            let last = key.split(separator: "/").last.map(String.init) ?? key
            // Radicale answers a calendar without a displayname with its path (`alice/todo list`).
            let path = key.split(separator: "/").joined(separator: "/")
            let shown = response.text(DAVNamespace.dav, "displayname").flatMap { $0 == path ? nil : $0 }
            return (
                DAVCopy.CalendarEntry(
                    href: address, name: shown ?? last,
                    color: response.text(DAVNamespace.apple, "calendar-color"),
                    components: componentNames(response), folder: DAVAccount.hash(key)),
                response
            )
        }
    }

    /// The names in `supported-calendar-component-set` (`<c:comp name="VTODO"/>`).
    static func componentNames(_ response: Multistatus.Response) -> [String] {
        (response.property(DAVNamespace.caldav, "supported-calendar-component-set")?.all(DAVNamespace.caldav, "comp")
            ?? [])
            .compactMap { $0.attributes["name"]?.uppercased() }
    }

    static func fileName(_ key: String) -> String { DAVAccount.hash(key) + ".ics" }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    static func syncBody(_ token: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(escaped(token))</d:sync-token><d:sync-level>1</d:sync-level>\
        <d:prop><d:getetag/></d:prop></d:sync-collection>
        """
    }

    static func multigetBody(_ hrefs: [String]) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
        <d:prop><d:getetag/><c:calendar-data/></d:prop>\
        \(hrefs.map { "<d:href>\(escaped($0))</d:href>" }.joined())</c:calendar-multiget>
        """
    }
}
