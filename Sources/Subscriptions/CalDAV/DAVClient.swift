import CCurl
import Foundation

/// The HTTP side of one CalDAV account: PROPFIND and REPORT requests through
/// the subscriptions' libcurl owner types (`CurlTransfer`, `CurlMulti`:
/// same limits, TLS, netrc), several at once. Redirects are followed here,
/// not by libcurl (which sends a custom method again on 301-303, or turns
/// it into a GET): at most 5, never from https to http. The login goes only
/// to hosts of the account's own registrable domain, and never over plain
/// HTTP except to a loopback address.
final class DAVClient {
    struct Request {
        let method: String
        /// A whole URL.
        let url: String
        let depth: String?
        let body: String
    }

    struct Reply {
        let status: Int
        let body: [UInt8]
        /// The URL that answered (after redirects).
        let url: String
    }

    /// Why a request failed, in words that quote no URL.
    struct Failure: Error, CustomStringConvertible {
        let reason: String
        var status: Int? = nil
        var description: String { reason }
    }

    let account: DAVAccount
    let login: Netrc.Login?
    let limits: CurlTransfer.Limits
    let userAgent: String
    /// How many requests were sent (redirects each count): for tests and `make bench`.
    private(set) var sent = 0

    init(account: DAVAccount, login: Netrc.Login?, limits: CurlTransfer.Limits, userAgent: String) {
        self.account = account
        self.login = login
        self.limits = limits
        self.userAgent = userAgent
    }

    /// The login for a request to `url`: none to a host outside the
    /// account's registrable domain, none over plain HTTP but to loopback.
    func login(for url: SubscriptionURL) -> Netrc.Login? {
        guard let login else { return nil }
        let sameSite = DAVAccount.registrableDomain(url.hostName) == DAVAccount.registrableDomain(account.hostName)
        guard sameSite else { return nil }
        guard url.isHTTPS || DAVAccount.isLoopback(url.hostName) else { return nil }
        return login
    }

    /// One request; see `send(_:)`.
    func send(_ request: Request) -> Result<Reply, Failure> { send([request])[0] }

    /// Every request, at once; each reply in order. A 3xx with a Location
    /// is asked again there.
    func send(_ requests: [Request]) -> [Result<Reply, Failure>] {
        var results = [Result<Reply, Failure>?](repeating: nil, count: requests.count)
        var pending = requests.enumerated().map { (index: $0.offset, request: $0.element, redirects: 0) }
        while !pending.isEmpty {
            var transfers: [(index: Int, request: Request, redirects: Int, transfer: CurlTransfer)] = []
            for job in pending {
                switch transfer(for: job.request) {
                case .success(let transfer): transfers.append((job.index, job.request, job.redirects, transfer))
                case .failure(let failure): results[job.index] = .failure(failure)
                }
            }
            pending = []
            guard !transfers.isEmpty else { break }
            sent += transfers.count
            let codes =
                CurlMulti().map { $0.run(transfers.map(\.transfer)) } ?? transfers.map { _ in CURLE_FAILED_INIT }
            for (job, code) in zip(transfers, codes) {
                if let reason = SubscriptionFetch.failure(code, transfer: job.transfer, limits: limits) {
                    results[job.index] = .failure(Failure(reason: reason))
                    continue
                }
                let status = job.transfer.responseCode
                if [301, 302, 303, 307, 308].contains(status), let location = job.transfer.location {
                    guard job.redirects < limits.maxRedirects else {
                        results[job.index] = .failure(Failure(reason: "more than \(limits.maxRedirects) redirects"))
                        continue
                    }
                    let next = DAVClient.resolve(location, against: job.request.url)
                    guard !(job.request.url.lowercased().hasPrefix("https:") && !next.lowercased()
                        .hasPrefix("https:")) else {
                        results[job.index] = .failure(Failure(reason: "redirected from https to another " +
                            "scheme (refused)"))
                        continue
                    }
                    let request = Request(method: job.request.method, url: next, depth: job.request.depth,
                        body: job.request.body)
                    pending.append((job.index, request, job.redirects + 1))
                    continue
                }
                results[job.index] = .success(Reply(status: status, body: job.transfer.body, url: job.request.url))
            }
        }
        return results.map { $0 ?? .failure(Failure(reason: "libcurl could not start the transfer")) }
    }

    private func transfer(for request: Request) -> Result<CurlTransfer, Failure> {
        guard let url = try? SubscriptionURL(parsing: request.url), url.user == nil,
            !url.address.hasPrefix("webcal") else {
            return .failure(Failure(reason: "the server named an address that cannot be asked"))
        }
        if let reason = CurlTransfer.unavailable { return .failure(Failure(reason: reason)) }
        var headers = ["Content-Type: application/xml; charset=utf-8"]
        if let depth = request.depth { headers.append("Depth: \(depth)") }
        let method = CurlTransfer.DAVMethod(name: request.method, body: Array(request.body.utf8), headers: headers)
        guard
            let transfer = CurlTransfer(
                url, conditions: .none, login: login(for: url), limits: limits, userAgent: userAgent, method: method)
        else { return .failure(Failure(reason: "libcurl could not start a transfer")) }
        return .success(transfer)
    }

    /// `location` (a whole URL, a path, or relative) as a whole URL.
    static func resolve(_ location: String, against base: String) -> String {
        let lower = location.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return location }
        let schemeEnd = base.range(of: "://")!.upperBound
        let origin = base[..<(base[schemeEnd...].firstIndex(of: "/") ?? base.endIndex)]
        if location.hasPrefix("//") { return base[..<schemeEnd].dropLast(2) + location }
        if location.hasPrefix("/") { return origin + location }
        let path = base[origin.endIndex...]
        let folder = path.lastIndex(of: "/").map { path[...$0] } ?? "/"
        return origin + folder + location
    }

    /// A multistatus answer (207) to a request, or why there is none.
    func multistatus(_ request: Request) -> Result<(Multistatus, Reply), Failure> {
        send(request).flatMap { DAVClient.multistatus(of: $0) }
    }

    static func multistatus(of reply: Reply) -> Result<(Multistatus, Reply), Failure> {
        guard reply.status == 207 else {
            return .failure(Failure(reason: DAVClient.words(status: reply.status), status: reply.status))
        }
        do {
            return .success((try Multistatus(parsing: reply.body), reply))
        } catch {
            return .failure(Failure(reason: "\(error)"))
        }
    }

    static func words(status: Int) -> String {
        switch status {
        case 401, 403: Credentials.refusedLogin(status: status, choice: nil)
        default: "the server answered HTTP \(status)"
        }
    }
}
