import Foundation

/// The HTTP side of one CalDAV account: PROPFIND and REPORT requests over
/// a `DAVTransport` (libcurl in the program), several at once. Redirects
/// are followed here, not by libcurl (which sends a custom method again on 301-303, or turns
/// it into a GET): at most 5, never from https to http. The login goes only
/// to hosts of the account's own registrable domain, and never over plain
/// HTTP except to a loopback address.
final class DAVClient {
    typealias Request = DAVRequest

    struct Reply {
        let status: Int
        let body: [UInt8]
        /// The URL that answered (after redirects).
        let url: String
    }

    let account: DAVAccount
    let login: Netrc.Login?
    let transport: any DAVTransport
    let maxRedirects: Int
    /// How many requests were sent (redirects each count): for tests and `make bench`.
    private(set) var sent = 0

    init(account: DAVAccount, login: Netrc.Login?, transport: any DAVTransport, maxRedirects: Int = 5) {
        self.account = account
        self.login = login
        self.transport = transport
        self.maxRedirects = maxRedirects
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
    func send(_ request: Request) -> Result<Reply, DAVFailure> { send([request])[0] }

    /// Every request, at once; each reply in order. A 3xx with a Location
    /// is asked again there, with the same method.
    func send(_ requests: [Request]) -> [Result<Reply, DAVFailure>] {
        var results = [Result<Reply, DAVFailure>?](repeating: nil, count: requests.count)
        var pending = requests.enumerated().map { (index: $0.offset, request: $0.element, redirects: 0) }
        while !pending.isEmpty {
            var asked: [(index: Int, request: Request, redirects: Int, login: Netrc.Login?)] = []
            for job in pending {
                guard let url = try? SubscriptionURL(parsing: job.request.url), url.user == nil,
                    !url.address.hasPrefix("webcal") else {
                    results[job.index] = .failure(.unaskableAddress)
                    continue
                }
                // An https account is read over https alone, whatever address its server names.
                guard url.isHTTPS || !account.isHTTPS else {
                    results[job.index] = .failure(.insecureAddress)
                    continue
                }
                asked.append((job.index, job.request, job.redirects, login(for: url)))
            }
            pending = []
            guard !asked.isEmpty else { break }
            sent += asked.count
            let answers = transport.send(asked.map { ($0.request, $0.login) })
            for (job, answer) in zip(asked, answers) {
                let response: DAVResponse
                switch answer {
                case .success(let got): response = got
                case .failure(let failure):
                    results[job.index] = .failure(failure)
                    continue
                }
                if [301, 302, 303, 307, 308].contains(response.status), let location = response.location {
                    guard job.redirects < maxRedirects else {
                        results[job.index] = .failure(.tooManyRedirects(maxRedirects))
                        continue
                    }
                    let next = DAVClient.resolve(location, against: job.request.url)
                    guard !(job.request.url.lowercased().hasPrefix("https:") && !next.lowercased()
                        .hasPrefix("https:")) else {
                        results[job.index] = .failure(.insecureRedirect)
                        continue
                    }
                    let request = Request(method: job.request.method, url: next, depth: job.request.depth,
                        body: job.request.body)
                    pending.append((job.index, request, job.redirects + 1))
                    continue
                }
                results[job.index] = .success(Reply(status: response.status, body: response.body,
                    url: job.request.url))
            }
        }
        return results.map { $0 ?? .failure(.transfer("libcurl could not start the transfer")) }
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
    func multistatus(_ request: Request) -> Result<(Multistatus, Reply), DAVFailure> {
        send(request).flatMap { DAVClient.multistatus(of: $0) }
    }

    static func multistatus(of reply: Reply) -> Result<(Multistatus, Reply), DAVFailure> {
        guard reply.status == 207 else { return .failure(.status(reply.status)) }
        if XMLDocument.hasDoctype(reply.body) {
            return .failure(.hostile("the XML has a DOCTYPE (refused: entities and DTDs are never read)"))
        }
        do {
            return .success((try Multistatus(parsing: reply.body), reply))
        } catch {
            return .failure(.unreadable(error.reason))
        }
    }
}
