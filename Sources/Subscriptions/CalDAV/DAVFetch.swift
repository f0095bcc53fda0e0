import Foundation
import AgendaCore

/// Brings each CalDAV account's offline copy up to date (CONTRACT.md,
/// *CalDAV accounts*), as subscriptions are: a copy younger than `refresh`
/// is read as it is, `offline` reads the copy only; otherwise the account
/// is synced (`DAVSync`). On any failure the copy is read with one warning
/// for the account; with no copy, the account is told and left out.
package struct DAVFetch: Sendable {
    package var refresh: TimeInterval
    package var offline: Bool
    package var userAgent: String
    /// The cache folder (`SubscriptionCache.location`).
    var cacheFolder: String
    /// The run's one rule for logins, shared with the subscriptions.
    var credentials: Credentials
    var limits = CurlTransfer.Limits()

    /// With the subscriptions' own `--refresh`, `--offline` and cache.
    package init(as subscriptions: SubscriptionFetch) {
        refresh = subscriptions.refresh
        offline = subscriptions.offline
        userAgent = subscriptions.userAgent
        cacheFolder = subscriptions.cache.folder
        credentials = subscriptions.credentials
        limits = subscriptions.limits
    }

    /// What there is to read of one account.
    package struct Outcome: Sendable {
        package let account: DAVAccount
        /// Each calendar of its copy (none: nothing to read).
        package let calendars: [DAVCalendarCopy]
        /// How old the copy read is (0: just synced); nil when unknown.
        package let age: TimeInterval?
        /// A failure the copy was kept through: told once.
        package let warning: String?
        /// Nothing to read: told, and the run ends with status 66.
        package let error: String?
        /// Requests sent to the server.
        package let requests: Int
    }

    /// Every account's outcome, in order. Each account's login is asked of
    /// `credentials` only when it is synced.
    package func fetch(_ accounts: [DAVAccount], now: Date = Date()) -> [Outcome] {
        let policy = RefreshPolicy(refresh: refresh, offline: offline)
        return accounts.map { account in
            // An account that would send its own password in clear is not read at all, copy or not.
            if let refusal = Credentials.refusal(for: Credentials.Place(account), davScheme: true) {
                return Outcome(account: account, calendars: [], age: nil, warning: nil,
                    error: "\(account.redacted): \(refusal)", requests: 0)
            }
            let copy = DAVCopy(folder: cacheFolder + "/" + account.cacheKey)
            let confirmed = copy.account().state?.confirmed
            let age = confirmed.flatMap { RefreshPolicy.age(of: $0, at: now) }
            switch policy.decide(confirmed: confirmed, now: now) {
            case .readCopy(let age):
                let future = age == nil ? "\(account.redacted): \(RefreshPolicy.futureCopy)" : nil
                return outcome(account, copy, age: age, warning: future, requests: 0)
            case .nothingToRead:
                return Outcome(account: account, calendars: [], age: nil, warning: nil,
                    error: "\(account.redacted): \(RefreshPolicy.noCopyOffline)", requests: 0)
            case .ask: break
            }
            let choice = credentials.login(for: Credentials.Place(account), urlLogin: account.password.map {
                Netrc.Login(user: account.user ?? "", password: $0)
            })
            let transport = CurlDAVTransport(limits: limits, userAgent: userAgent)
            let client = DAVClient(account: account, login: choice.login, transport: transport,
                maxRedirects: limits.maxRedirects)
            let report: DAVSyncReport
            do {
                report = try copy.locked { () throws(DAVFailure) -> DAVSyncReport in
                    try DAVSync(client: client, copy: copy, now: now).run()
                }
            } catch {
                var reason = "\(error)"
                if let failure = error as? DAVFailure, let status = failure.status, status == 401 || status == 403 {
                    reason = Credentials.refusedLogin(status: status, choice: choice)
                }
                return failed(account, copy, kept: confirmed != nil, age: age, requests: client.sent, reason: reason)
            }
            return outcome(account, copy, age: 0, warning: DAVFetch.warning(report, account), requests: client.sent)
        }
    }

    /// What a sync that ended is told with, in one line: items not had,
    /// states refused; nil when there is nothing to tell.
    static func warning(_ report: DAVSyncReport, _ account: DAVAccount) -> String? {
        var parts: [String] = []
        if !report.refusedStates.isEmpty {
            parts.append("its copy's state named files that are not its own (refused; fetched again whole)")
        }
        if !report.cutListings.isEmpty {
            let count = report.cutListings.count
            parts.append("the server cut short its listing of \(count == 1 ? "a calendar" : "\(count) calendars") " +
                "(507); asked again on the next run")
        }
        if !report.unread.isEmpty {
            let count = report.unread.count
            let told = report.unread.compactMap { unread -> String? in
                guard case .unreadable(let words) = unread.reason else { return nil }
                return "\(DAVFetch.itemName(unread.href)): \(words)"
            }.prefix(3)
            let why = told.isEmpty ? "" : " (\(told.joined(separator: "; ")))"
            parts.append("\(count) \(count == 1 ? "item" : "items") could not be read\(why); the copy keeps what " +
                "it had of \(count == 1 ? "it" : "them") and asks again on the next run")
        }
        return parts.isEmpty ? nil : "\(account.redacted): " + parts.joined(separator: "; ")
    }

    /// An item's href as told: its last segment only (the path before it may be a secret).
    static func itemName(_ href: String) -> String {
        let last = href.split(separator: "/").last.map(String.init) ?? href
        return "…/" + PrintableText.escaped(last)
    }

    private func outcome(_ account: DAVAccount, _ copy: DAVCopy, age: TimeInterval?, warning: String?,
        requests: Int) -> Outcome {
        guard let (calendars, refused) = copy.calendars() else {
            let error = "\(account.redacted): its copy cannot be read; left out"
            return Outcome(account: account, calendars: [], age: nil, warning: warning, error: error,
                requests: requests)
        }
        var warning = warning
        if !refused.isEmpty, warning == nil {
            warning = "\(account.redacted): its copy's state named files that are not its own: " +
                "\(refused.count == 1 ? "a calendar was" : "\(refused.count) calendars were") not read"
        }
        return Outcome(account: account, calendars: calendars, age: age, warning: warning, error: nil,
            requests: requests)
    }

    private func failed(_ account: DAVAccount, _ copy: DAVCopy, kept: Bool, age: TimeInterval?, requests: Int,
        reason: String) -> Outcome {
        guard kept, let (calendars, _) = copy.calendars() else {
            let error = "\(account.redacted): cannot read the CalDAV account: \(reason); no copy of it is " +
                "kept, left out"
            return Outcome(account: account, calendars: [], age: nil, warning: nil, error: error, requests: requests)
        }
        return Outcome(
            account: account, calendars: calendars, age: age,
            warning: "\(account.redacted): could not refresh: \(reason); \(RefreshPolicy.copyRead(age: age))",
            error: nil, requests: requests)
    }
}
