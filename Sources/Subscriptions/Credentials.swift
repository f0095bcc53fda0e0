import AgendaSystem
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The one rule for the login of every transfer of a run, URLs and CalDAV
/// accounts alike (CONTRACT.md, *Subscriptions*, Credentials). The login
/// comes from the first that has one: the URL itself; the credential
/// helper (`--credential-helper`), asked at most once for each protocol,
/// host and path; the netrc (`$NETRC`, else `~/.netrc`), read once, and
/// only when its group and others cannot read it. A password is never
/// sent over plain HTTP but to a loopback address: a URL that carries one
/// there is refused (`refusal(for:)`), and a stored one is not looked for.
/// Shared by the run's `SubscriptionFetch` and `DAVFetch`: what it has to
/// tell (a netrc others can read, a helper that failed) is told once, by
/// whoever calls `takeWarnings()`.
package final class Credentials: Sendable {
    /// What a login is asked for: one URL or CalDAV account.
    package struct Place: Sendable, Hashable {
        let isHTTPS: Bool
        /// The host, with `:port` when it is not the scheme's own.
        let host: String
        /// The host alone, lower case, without port or brackets.
        let hostName: String
        /// The path as written, without its first `/` and without query.
        let path: String
        /// The user the URL names, percent-decoded.
        let user: String?
        /// Whether the URL carries a password of its own.
        let hasPassword: Bool

        package init(_ url: SubscriptionURL) {
            let afterScheme = url.address[url.address.range(of: "://")!.upperBound...]
            let path = afterScheme.drop { $0 != "/" && $0 != "?" }.prefix { $0 != "?" }
            self.init(isHTTPS: url.isHTTPS, host: url.host, hostName: url.hostName, path: String(path),
                user: url.user, hasPassword: url.hasPassword)
        }

        package init(_ account: DAVAccount) {
            let host = account.origin[account.origin.range(of: "://")!.upperBound...]
            self.init(isHTTPS: account.isHTTPS, host: String(host), hostName: account.hostName, path: account.path,
                user: account.user, hasPassword: account.password != nil)
        }

        /// `host` without the scheme's own port, `path` without its first `/`.
        private init(isHTTPS: Bool, host: String, hostName: String, path: String, user: String?, hasPassword: Bool) {
            self.isHTTPS = isHTTPS
            let defaultPort = isHTTPS ? ":443" : ":80"
            self.host = host.hasSuffix(defaultPort) ? String(host.dropLast(defaultPort.count)) : host
            self.hostName = hostName
            self.path = String(path.drop { $0 == "/" })
            self.user = user
            self.hasPassword = hasPassword
        }
    }

    /// Where a login came from.
    package enum Source: Sendable, Equatable {
        /// The URL's own user and password (libcurl reads them from it).
        case url
        /// The credential helper: its name.
        case helper(String)
        /// The netrc, as shown: `~/.netrc` or `$NETRC`.
        case netrc(String)
        /// None was sent.
        case none
    }

    /// The login of one transfer, and where it came from.
    package struct Choice: Sendable, Equatable {
        /// What is handed to libcurl: nil when the URL carries its own, or none is sent.
        package let login: Netrc.Login?
        package let source: Source
        /// Why none was sent, when there was a reason (the netrc's
        /// problem, a stored password held back over plain HTTP).
        package let whyNone: String?
    }

    private struct State {
        var netrc: Netrc?
        /// The netrc's passwords are not used: others can read it.
        var netrcExposed = false
        var toldNetrc = false
        /// The helper's answer for each `protocol host/path` asked.
        var answers: [String: Result<Netrc.Login, CredentialHelper.Failure>] = [:]
        /// The helper's first failure, and the hosts it failed for, until told.
        var helperFailure: (reason: String, hosts: [String])?
        var warnings: [String] = []
    }

    private let environment: [String: String]
    private let helper: CredentialHelper?
    private let state = Mutex(State())

    /// - Parameter helper: the credential helper's program and arguments
    ///   (`--credential-helper`, split into words), or nil.
    package init(environment: [String: String], helper: [String]? = nil, helperTimeLimit: TimeInterval = 10) {
        self.environment = environment
        self.helper = helper.flatMap { $0.isEmpty ? nil : CredentialHelper(words: $0, timeLimit: helperTimeLimit) }
    }

    /// Why `place` is left out before anything is read of it: its URL
    /// carries a password, and would send it over plain HTTP to a host
    /// that is not a loopback address. Nil when it may be read.
    package static func refusal(for place: Place, davScheme: Bool = false) -> String? {
        guard place.hasPassword, !place.isHTTPS, !DAVAccount.isLoopback(place.hostName) else { return nil }
        return "a password is never sent over plain http but to a loopback address: write " +
            (davScheme ? "davs://" : "https://") + " for this server; left out"
    }

    /// The login for a transfer to `place` (one not refused). Ask only for
    /// what is fetched: the helper may be run, and the netrc read.
    package func login(for place: Place, urlLogin: Netrc.Login? = nil) -> Choice {
        if place.hasPassword { return Choice(login: urlLogin, source: .url, whyNone: nil) }
        guard place.isHTTPS || DAVAccount.isLoopback(place.hostName) else {
            return Choice(login: nil, source: .none, whyNone: "a password of --credential-helper or " +
                "\(netrcShown) is never sent over plain http but to a loopback address (write https:// or davs://)")
        }
        if let helper { return helperLogin(helper, for: place) }
        return netrcLogin(for: place)
    }

    /// What is to be told once, each line a warning; then nothing until there is more.
    package func takeWarnings() -> [String] {
        state.withLock { state in
            if let failure = state.helperFailure, let helper {
                state.warnings.append("--credential-helper \(helper.name) \(failure.reason) (asked for " +
                    "\(failure.hosts.joined(separator: ", "))): read without a password")
                state.helperFailure = nil
            }
            defer { state.warnings = [] }
            return state.warnings
        }
    }

    /// What a refused login (HTTP 401 or 403) is told as: where the
    /// password came from, or why none was sent. Without `choice`, the
    /// refusal alone.
    package static func refusedLogin(status: Int, choice: Choice?) -> String {
        let refused = "the server refused the login (HTTP \(status))"
        guard let choice else { return refused }
        switch choice.source {
        case .url: return refused + ": the password written in the URL is wrong"
        case .helper(let name): return refused + ": the password --credential-helper \(name) gave is wrong"
        case .netrc(let shown): return refused + ": the password in \(shown) is wrong"
        case .none: return refused + ": no password was sent (\(choice.whyNone ?? "none is kept for this host"))"
        }
    }

    /// `~/.netrc`, or `$NETRC` when that names it.
    private var netrcShown: String { (environment["NETRC"] ?? "").isEmpty ? "~/.netrc" : "$NETRC" }

    private func helperLogin(_ helper: CredentialHelper, for place: Place) -> Choice {
        let key = "\(place.isHTTPS ? "https" : "http") \(place.host)/\(place.path)"
        var answer = state.withLock { $0.answers[key] }
        if answer == nil {
            // Outside the lock: it may take seconds, and no other thread asks meanwhile.
            let asked = helper.login(for: place)
            state.withLock { state in
                state.answers[key] = asked
                if case .failure(let failure) = asked {
                    var told = state.helperFailure ?? (failure.reason, [])
                    if !told.hosts.contains(place.host) { told.hosts.append(place.host) }
                    state.helperFailure = told
                }
            }
            answer = asked
        }
        switch answer! {
        case .success(let login): return Choice(login: login, source: .helper(helper.name), whyNone: nil)
        case .failure(let failure):
            return Choice(login: nil, source: .none, whyNone: "--credential-helper \(helper.name) \(failure.reason)")
        }
    }

    private func netrcLogin(for place: Place) -> Choice {
        let shown = netrcShown
        return state.withLock { state in
            if state.netrc == nil {
                let path = Netrc.location(environment: environment)
                if let path, Credentials.othersCanRead(path) {
                    state.netrcExposed = true
                    state.netrc = Netrc(entries: [])
                } else {
                    state.netrc = Netrc.load(environment: environment)
                }
            }
            if state.netrcExposed {
                let exposed = "\(shown) can be read by other users: its passwords are not used (chmod 600 \(shown))"
                if !state.toldNetrc { state.warnings.append(exposed) }
                state.toldNetrc = true
                return Choice(login: nil, source: .none, whyNone: exposed)
            }
            let netrc = state.netrc!
            if let login = netrc.login(for: place.hostName, user: place.user) {
                return Choice(login: login, source: .netrc(shown), whyNone: nil)
            }
            return Choice(login: nil, source: .none, whyNone: netrc.problem ?? "\(shown) has none for this host")
        }
    }

    /// Whether `path` is a regular file (links followed) that its group or
    /// others can read. A stream (`NETRC=<(pass show netrc)`) is not.
    private static func othersCanRead(_ path: String) -> Bool {
        guard let info = try? Stat(path), info.type == .regular else { return false }
        return info.permissions.rawValue & 0o044 != 0
    }
}
