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
        accounts.map { account in
            // An account that would send its own password in clear is not read at all, copy or not.
            if let refusal = Credentials.refusal(for: Credentials.Place(account), davScheme: true) {
                return Outcome(account: account, calendars: [], age: nil, warning: nil,
                    error: "\(account.redacted): \(refusal)", requests: 0)
            }
            let copy = DAVCopy(folder: cacheFolder + "/" + account.cacheKey)
            let kept = copy.account()
            let age = kept.map { max(0, now.timeIntervalSince($0.confirmed)) }
            if let kept, offline || (refresh > 0 && now.timeIntervalSince(kept.confirmed) < refresh
                && now.timeIntervalSince(kept.confirmed) > -60) {
                return outcome(account, copy, age: age, warning: nil, requests: 0)
            }
            if offline {
                return Outcome(
                    account: account, calendars: [], age: nil, warning: nil,
                    error: "\(account.redacted): no copy of it is kept (--offline fetches nothing); left out",
                        requests: 0)
            }
            let choice = credentials.login(for: Credentials.Place(account), urlLogin: account.password.map {
                Netrc.Login(user: account.user ?? "", password: $0)
            })
            let client = DAVClient(account: account, login: choice.login, limits: limits, userAgent: userAgent)
            do {
                try copy.locked { try DAVSync(client: client, copy: copy).run() }
            } catch {
                var reason = "\(error)"
                if let failure = error as? DAVClient.Failure, let status = failure.status, status == 401 || status == 403 {
                    reason = Credentials.refusedLogin(status: status, choice: choice)
                }
                return failed(account, copy, kept: kept != nil, age: age, requests: client.sent, reason: reason)
            }
            return outcome(account, copy, age: 0, warning: nil, requests: client.sent)
        }
    }

    private func outcome(_ account: DAVAccount, _ copy: DAVCopy, age: TimeInterval?, warning: String?,
        requests: Int) -> Outcome {
        guard let calendars = copy.calendars() else {
            let error = "\(account.redacted): its copy cannot be read; left out"
            return Outcome(account: account, calendars: [], age: nil, warning: warning, error: error,
                requests: requests)
        }
        return Outcome(account: account, calendars: calendars, age: age, warning: warning, error: nil,
            requests: requests)
    }

    private func failed(_ account: DAVAccount, _ copy: DAVCopy, kept: Bool, age: TimeInterval?, requests: Int,
        reason: String) -> Outcome {
        guard kept, let calendars = copy.calendars() else {
            let error = "\(account.redacted): cannot read the CalDAV account: \(reason); no copy of it is " +
                "kept, left out"
            return Outcome(account: account, calendars: [], age: nil, warning: nil, error: error, requests: requests)
        }
        let read = age.map { "read the copy from \(CalendarListFormatter.describe(age: $0)) ago" } ?? "read the copy"
        return Outcome(
            account: account, calendars: calendars, age: age,
            warning: "\(account.redacted): could not refresh: \(reason); \(read)", error: nil, requests: requests)
    }
}
