import AgendaSystem
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
///    copy's, and whose ETags were listed in the last `listingInterval`,
///    is not asked again: an unchanged account costs this one request.
/// 3. For the others, at once: `sync-collection` from the copy's token
///    (RFC 6578; a report cut by a 507 is followed on from the token it
///    gives, up to `maxSyncPages`; an invalid token means a full listing),
///    else `PROPFIND Depth: 1` for `getetag`, diffed against the copy.
/// 4. `calendar-multiget` (RFC 4791 §7.9) of the changed hrefs, in
///    batches; what a batch did not give is asked again alone.
///
/// The copy never holds a token it has not earned: a calendar's new token
/// and ctag are written only when every item they cover is in the copy;
/// otherwise the old ones are, and the next run asks again (`DAVSyncReport`).
///
/// Never `calendar-query` with `time-range` or `expand`: recurrences are
/// expanded by ics-agenda, as for every input.
struct DAVSync {
    let client: DAVClient
    let copy: DAVCopy
    /// The time the listings are dated with.
    var now = Date()
    /// Hrefs a multiget asks for at once.
    var batch = 100
    /// How long a calendar goes without a whole listing of its ETags,
    /// whatever its token says: drift of any cause lasts no longer.
    var listingInterval: TimeInterval = 24 * 60 * 60
    /// Multigets of the first round asked together: their items are written
    /// while the next ones are asked for.
    var multigetsPerRound = 24
    /// Pages of a sync report cut by 507 followed in one run, before a full listing.
    var maxSyncPages = 16
    /// Items asked again alone in one run, when the reader refused their batch's answer.
    var maxSingles = 2 * 100

    /// Runs the whole sync; throws the first failure that leaves nothing
    /// to trust (the copy then stays as it was, calendar by calendar: each
    /// calendar's state is written after its items).
    func run() throws(DAVFailure) -> DAVSyncReport {
        var report = DAVSyncReport()
        var kept: DAVCopy.AccountState?
        switch copy.account() {
        case .kept(let account): kept = account.state
        case .refused: report.refusedStates.append("")
        case .none: break
        }
        var home: String
        if let found = kept?.home { home = found } else { home = try discover() }
        let listing = try listHome(&home, knownBefore: kept != nil)
        let entries = DAVSync.calendars(in: listing, home: home)
        var changes: [DAVChange] = []
        for (entry, listed) in entries {
            var old: DAVCopy.CalendarState?
            switch copy.calendarState(entry) {
            case .kept(let state): old = state
            case .refused: report.refusedStates.append(entry.name)
            case .none: break
            }
            let change = DAVSync.change(entry, listed: listed, old: old, now: now, interval: listingInterval)
            guard let change else {
                try write(entry)  // name or colour may have changed
                continue
            }
            changes.append(change)
        }
        let plans = try plan(changes)
        let writer = DAVCopyWriter()
        defer { writer.close() }
        let (fetched, unread) = try fetch(plans, writer: writer)
        report.unread = unread.flatMap { $0 }
        report.cutListings = plans.filter(\.cut).map(\.entry.name)
        for (i, plan) in plans.enumerated() {
            try write(plan, fetched[i], complete: unread[i].isEmpty) { () throws(CacheError) in try writer.commit(i) }
        }
        do {
            try DAVCopy.write(json: DAVCopy.AccountState(home: home, calendars: entries.map(\.entry)),
                to: copy.accountPath)
        } catch {
            throw .copy("\(error)")
        }
        // A calendar gone from the account: its copy goes too, once the account no longer names it
        // (a home listing the server cut short names only some: none is taken as gone).
        let listed = Set(entries.map(\.entry.folder))
        let homeCut = listing.responses.contains { DAVHref.key($0.href) == DAVHref.key(home) && $0.status == 507 }
        for old in kept?.calendars ?? [] where !listed.contains(old.folder) && !homeCut { copy.remove(old.folder) }
        return report
    }

    /// How a calendar is to be asked, or nil when its copy is up to date:
    /// its token (else ctag) is the copy's, and its ETags were listed
    /// within `interval` (and not in the future).
    static func change(_ entry: DAVCopy.CalendarEntry, listed: Multistatus.Response, old: DAVCopy.CalendarState?,
        now: Date, interval: TimeInterval) -> DAVChange?
    {
        let probe = DAVChange(entry: entry, listed: listed, old: old, ask: .listing)
        let listingDue = old?.listed.map { now.timeIntervalSince($0) >= interval || $0 > now + 60 } ?? true
        if let old, !listingDue,
            (probe.token != nil && probe.token == old.syncToken)
                || (probe.token == nil && probe.ctag != nil && probe.ctag == old.ctag)
        {
            return nil
        }
        if !listingDue, let token = old?.syncToken, probe.token != nil {
            return DAVChange(entry: entry, listed: listed, old: old, ask: .changesSince(token))
        }
        return probe
    }

    /// The home's calendars (Depth 1); a home that moved since it was found is found again.
    private func listHome(_ home: inout String, knownBefore: Bool) throws(DAVFailure) -> Multistatus {
        let request = DAVRequest(method: "PROPFIND", url: home, depth: "1", body: DAVBodies.homeProperties)
        switch client.multistatus(request) {
        case .success(let found): return found.0
        case .failure(let failure) where knownBefore && [404, 301, 410].contains(failure.status ?? 0):
            home = try discover()
            return try client.multistatus(.init(method: "PROPFIND", url: home, depth: "1",
                body: DAVBodies.homeProperties)).get().0
        case .failure(let failure): throw failure
        }
    }

    /// What each changed calendar holds now: by sync report, else by listing.
    private func plan(_ changes: [DAVChange]) throws(DAVFailure) -> [DAVPlan] {
        let replies = client.send(changes.map { request(for: $0) })
        var plans: [DAVPlan] = []
        for (change, reply) in zip(changes, replies) {
            let members = try members(change, firstReply: reply)
            let folder = copy.calendarFolder(change.entry)
            plans.append(DAVSync.plan(change, members: members, now: now) { file in
                (try? Stat(folder + "/" + file, followTargetSymlink: false))?.type == .regular
            })
        }
        return plans
    }

    private func request(for change: DAVChange) -> DAVRequest {
        let url = client.account.address(change.entry.href)
        switch change.ask {
        case .changesSince(let token):
            return DAVRequest(method: "REPORT", url: url, depth: "0", body: DAVBodies.syncCollection(token))
        case .listing:
            return DAVRequest(method: "PROPFIND", url: url, depth: "1", body: DAVBodies.etagProperties)
        }
    }

    /// What one calendar's listing or report says it holds; a report cut
    /// short is followed on, a report refused becomes a listing.
    private func members(_ change: DAVChange, firstReply: Result<DAVClient.Reply, DAVFailure>)
        throws(DAVFailure) -> DAVMembers
    {
        guard case .changesSince(let first) = change.ask else {
            let (answer, _) = try firstReply.flatMap { DAVClient.multistatus(of: $0) }.get()
            return DAVMembers(of: answer, calendar: change.entry.href, incremental: false)
        }
        var members = DAVMembers(incremental: true)
        var reply = firstReply
        var token = first
        for page in 0..<maxSyncPages {
            let got = try reply.get()
            if DAVSync.tokenRefused(got) { return try listAll(change.entry) }
            let (answer, _) = try DAVClient.multistatus(of: got).get()
            members.add(DAVMembers(of: answer, calendar: change.entry.href, incremental: true))
            guard members.truncated else { return members }
            // Cut: go on from the token it gave, in this run (one that does not move would loop).
            guard let next = members.token, next != token, page + 1 < maxSyncPages else { break }
            token = next
            reply = client.send(DAVRequest(method: "REPORT", url: client.account.address(change.entry.href),
                depth: "0", body: DAVBodies.syncCollection(next)))
        }
        return try listAll(change.entry)
    }

    /// The plan of one calendar: what to fetch, what went, its new state.
    /// A listing also fetches an item whose file is not there (`isKept`):
    /// a copy damaged on disk is mended by the daily listing too.
    static func plan(_ change: DAVChange, members: DAVMembers, now: Date, isKept: (String) -> Bool = { _ in true })
        -> DAVPlan
    {
        let old = change.old ?? DAVCopy.CalendarState()
        var state = old
        var fetch: [DAVCopy.Item] = []
        var removed: [DAVCopy.Item] = []
        // A listing cut short names only some members: none is taken as gone.
        if !members.incremental && !members.truncated {
            for (key, item) in old.items where members.present[key] == nil { removed.append(item) }
            state.listed = now
        }
        for key in members.removed { if let item = old.items[key] { removed.append(item) } }
        for (key, listed) in members.present {
            let held = old.items[key]
            if let held, held.etag != nil, held.etag == listed.etag, members.incremental || isKept(held.file) {
                continue
            }
            // The href as the copy knew it (from a listing) is preferred: a sync
            // report may write it in another form.
            fetch.append(DAVCopy.Item(href: held?.href ?? listed.href, etag: listed.etag, file: DAVCopy.itemFile(key)))
        }
        state.syncToken = members.incremental ? members.token ?? change.token : change.token
        state.ctag = change.ctag
        return DAVPlan(entry: change.entry, state: state, fallback: (old.syncToken, old.ctag, old.listed),
            fetch: fetch.sorted { $0.file < $1.file }, removed: removed, cut: members.truncated)
    }

    /// The items had, by key; their data is `DAVCopyWriter`'s.
    typealias Fetched = [String: DAVCopy.Item]
    typealias Multiget = (plan: Int, items: [DAVCopy.Item])

    /// The changed items, every calendar's batches at once
    /// (`calendar-multiget`); then each item not had, asked again: those a
    /// readable answer left out or refused in batches, those of a batch
    /// whose answer could not be read (an item over the XML reader's limits
    /// spoils its whole batch) alone, `maxSingles` at most. A batch answered
    /// with an error status is not asked again in this run. What is still
    /// not had is unread, by calendar. A transfer that fails (no answer at
    /// all) ends the sync. Each item had goes to `writer` as it comes.
    private func fetch(_ plans: [DAVPlan], writer: DAVCopyWriter) throws(DAVFailure)
        -> ([Fetched], [[DAVUnreadItem]])
    {
        var fetched = [Fetched](repeating: [:], count: plans.count)
        var owed = [[DAVUnreadItem]](repeating: [], count: plans.count)
        var first: [Multiget] = []
        for (i, plan) in plans.enumerated() where !plan.fetch.isEmpty {
            do { try DAVCopy.makeFolder(copy.calendarFolder(plan.entry)) } catch { throw .copy("\(error)") }
            for start in stride(from: 0, to: plan.fetch.count, by: batch) {
                first.append((i, Array(plan.fetch[start..<min(start + batch, plan.fetch.count)])))
            }
        }
        var answered: [(Multiget, DAVUnreadItem.Reason?)] = []
        var reasons: [String: DAVUnreadItem.Reason] = [:]
        for start in stride(from: 0, to: first.count, by: multigetsPerRound) {
            let round = Array(first[start..<min(start + multigetsPerRound, first.count)])
            answered += try multiget(round, plans, into: &fetched, reasons: &reasons, writer: writer)
        }
        var again: [Multiget] = []
        var singles = 0
        for (request, failed) in answered {
            guard let failed else {
                let missing = request.items.filter { fetched[request.plan][DAVHref.key($0.href)] == nil }
                for start in stride(from: 0, to: missing.count, by: batch) {
                    again.append((request.plan, Array(missing[start..<min(start + batch, missing.count)])))
                }
                continue
            }
            // Only an answer the reader refused is split: a status (a 500, a 403) is the
            // server's word on the whole batch, and asking item by item would multiply it.
            if case .unreadable = failed, request.items.count > 1, singles < maxSingles {
                let split = request.items.prefix(maxSingles - singles)
                singles += split.count
                again += split.map { (request.plan, [$0]) }
                owed[request.plan] += request.items.dropFirst(split.count).map { .init(href: $0.href, reason: failed) }
            } else {
                owed[request.plan] += request.items.map { .init(href: $0.href, reason: failed) }
            }
        }
        reasons = [:]
        for (request, failed) in try multiget(again, plans, into: &fetched, reasons: &reasons, writer: writer) {
            for item in request.items where fetched[request.plan][DAVHref.key(item.href)] == nil {
                let reason = failed ?? reasons[DAVHref.key(item.href)] ?? .notAnswered
                owed[request.plan].append(.init(href: item.href, reason: reason))
            }
        }
        return (fetched, owed)
    }

    /// One round of multigets, at once: each item an answer gave goes into
    /// `fetched` and its data to `writer`; an item answered with an error
    /// or with data that is not iCalendar into `reasons`; each request with
    /// the reason it failed as a whole (nil: it was answered; an item may
    /// still be missing from the answer).
    private func multiget(_ requests: [Multiget], _ plans: [DAVPlan], into fetched: inout [Fetched],
        reasons: inout [String: DAVUnreadItem.Reason], writer: DAVCopyWriter) throws(DAVFailure)
        -> [(Multiget, DAVUnreadItem.Reason?)]
    {
        guard !requests.isEmpty else { return [] }
        let answers = client.send(requests.map { request in
            DAVRequest(method: "REPORT", url: client.account.address(plans[request.plan].entry.href), depth: "1",
                body: DAVBodies.multiget(request.items.map(\.href)))
        })
        var results: [(Multiget, DAVUnreadItem.Reason?)] = []
        for (request, answer) in zip(requests, answers) {
            let multistatus: Multistatus
            switch answer.flatMap({ DAVClient.multistatus(of: $0) }) {
            case .success(let (got, _)): multistatus = got
            case .failure(.status(let status)):
                results.append((request, .status(status)))
                continue
            case .failure(.unreadable(let words)):
                results.append((request, .unreadable(words)))
                continue
            case .failure(let failure): throw failure
            }
            let asked = Dictionary(request.items.map { (DAVHref.key($0.href), $0) }, uniquingKeysWith: { a, _ in a })
            for response in multistatus.responses {
                let key = DAVHref.key(response.href)
                guard var item = asked[key] else { continue }
                if let status = response.status, !(200..<300).contains(status) {
                    reasons[key] = .status(status)
                    continue
                }
                guard let data = response.property(DAVNamespace.caldav, "calendar-data")?.text else { continue }
                let bytes = Array(data.utf8)
                guard CalendarText.looksLikeCalendar(bytes) else {
                    reasons[key] = .notCalendar
                    continue
                }
                item.etag = response.text(DAVNamespace.dav, "getetag") ?? item.etag
                fetched[request.plan][key] = item
                // An item the old state names is read until the new state is written: replaced, not overwritten.
                let plan = plans[request.plan]
                writer.add(request.plan, path: copy.calendarFolder(plan.entry) + "/" + item.file, bytes: bytes,
                    named: plan.state.items[key] != nil)
            }
            results.append((request, nil))
        }
        return results
    }

    /// One calendar written: its items made durable together and put in
    /// place (`commitItems`), then the state that names them (its new
    /// token only when `complete`), then what went.
    private func write(_ plan: DAVPlan, _ fetched: Fetched, complete: Bool,
        commitItems: () throws(CacheError) -> Void) throws(DAVFailure)
    {
        var state = plan.state
        if !complete || plan.cut { (state.syncToken, state.ctag, state.listed) = plan.fallback }
        let folder = copy.calendarFolder(plan.entry)
        do {
            try DAVCopy.makeFolder(folder)
            try commitItems()
            for (key, item) in fetched { state.items[key] = item }
            for item in plan.removed { state.items[DAVHref.key(item.href)] = nil }
            try DAVCopy.write(json: state, to: folder + "/.state.json")
            for item in plan.removed { try? FileNames.remove(folder + "/" + item.file) }
        } catch {
            throw .copy("\(error)")
        }
        try write(plan.entry)
    }

    /// The `displayname` and `color` files of a calendar's vdir, as vdirsyncer writes them.
    private func write(_ entry: DAVCopy.CalendarEntry) throws(DAVFailure) {
        let folder = copy.calendarFolder(entry)
        do {
            try DAVCopy.makeFolder(folder)
            try DAVCopy.write(Array(entry.name.utf8), to: folder + "/displayname")
            if let color = entry.color { try DAVCopy.write(Array(color.utf8), to: folder + "/color") } else {
                try? FileNames.remove(folder + "/color")
            }
        } catch {
            throw .copy("\(error)")
        }
    }

    /// The whole listing of a calendar (`getetag` of each member).
    private func listAll(_ entry: DAVCopy.CalendarEntry) throws(DAVFailure) -> DAVMembers {
        let (answer, _) = try client.multistatus(
            .init(method: "PROPFIND", url: client.account.address(entry.href), depth: "1",
                body: DAVBodies.etagProperties)
        ).get()
        return DAVMembers(of: answer, calendar: entry.href, incremental: false)
    }

    /// A sync report refused for its token (RFC 6578 §3.2: 403 or 409 with
    /// `valid-sync-token`), or refused whole with a 507: a full listing follows.
    static func tokenRefused(_ reply: DAVClient.Reply) -> Bool {
        if reply.status == 507 { return true }
        guard reply.status == 403 || reply.status == 409 || reply.status == 400 else { return false }
        let root = (try? XMLDocument(parsing: reply.body))?.root
        return root?.child(DAVNamespace.dav, "valid-sync-token") != nil || reply.status != 403
    }
}
