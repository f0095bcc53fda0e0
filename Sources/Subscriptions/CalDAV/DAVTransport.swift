/// One WebDAV request as the sync sends it: a method with an XML body.
struct DAVRequest: Sendable, Equatable {
    let method: String
    /// A whole URL.
    let url: String
    let depth: String?
    let body: String
}

/// One HTTP answer, as it came: no redirect followed.
struct DAVResponse: Sendable {
    let status: Int
    let body: [UInt8]
    /// The `Location` header, as sent.
    let location: String?
}

/// What carries CalDAV's requests: libcurl in the program
/// (`CurlDAVTransport`), a canned server in the tests. It sends each
/// request once, with the login it is given, and follows no redirect:
/// redirects, logins and the reading of answers are `DAVClient`'s, the
/// decisions `DAVSync`'s, whatever carries them.
protocol DAVTransport {
    /// Every request, at once; each answer or failure in order.
    func send(_ requests: [(request: DAVRequest, login: Netrc.Login?)]) -> [Result<DAVResponse, DAVFailure>]
}

/// The program's transport: each request a `CurlTransfer` (same limits,
/// TLS and user agent as subscriptions), `atOnce` of them in flight at a
/// time on one `CurlMulti`, whose connections the next ones reuse. One account is one
/// server: 200 multigets of a large first sync are not 200 connections
/// (a server with a small listen backlog or a connection limit refuses
/// them), and each transfer's time limit starts when it is sent.
struct CurlDAVTransport: DAVTransport {
    let limits: CurlTransfer.Limits
    let userAgent: String
    /// Requests in flight at once, as browsers keep to one host.
    var atOnce = 6

    func send(_ requests: [(request: DAVRequest, login: Netrc.Login?)]) -> [Result<DAVResponse, DAVFailure>] {
        var results = [Result<DAVResponse, DAVFailure>?](repeating: nil, count: requests.count)
        var started: [(index: Int, transfer: CurlTransfer)] = []
        for (i, (request, login)) in requests.enumerated() {
            switch transfer(request, login: login) {
            case .success(let transfer): started.append((i, transfer))
            case .failure(let failure): results[i] = .failure(failure)
            }
        }
        if !started.isEmpty {
            let failures = CurlMulti.failures(running: started.map(\.transfer), atOnce: atOnce)
            for (job, failure) in zip(started, failures) {
                if let reason = failure {
                    results[job.index] = .failure(.transfer(reason))
                } else {
                    results[job.index] = .success(DAVResponse(status: job.transfer.responseCode,
                        body: job.transfer.body, location: job.transfer.location))
                }
            }
        }
        return results.map { $0 ?? .failure(.transfer("libcurl could not start the transfer")) }
    }

    private func transfer(_ request: DAVRequest, login: Netrc.Login?) -> Result<CurlTransfer, DAVFailure> {
        guard let url = try? SubscriptionURL(parsing: request.url) else { return .failure(.unaskableAddress) }
        if let reason = CurlTransfer.unavailable { return .failure(.transfer(reason)) }
        var headers = ["Content-Type: application/xml; charset=utf-8"]
        if let depth = request.depth { headers.append("Depth: \(depth)") }
        let method = CurlTransfer.DAVMethod(name: request.method, body: Array(request.body.utf8), headers: headers)
        guard
            let transfer = CurlTransfer(
                url, conditions: .none, login: login, limits: limits, userAgent: userAgent, method: method)
        else { return .failure(.transfer("libcurl could not start a transfer")) }
        return .success(transfer)
    }
}
