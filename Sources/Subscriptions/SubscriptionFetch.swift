import CCurl
import Foundation
import AgendaCore
import ICalAdapter

/// Brings each subscribed calendar's copy up to date, all of them at once
/// (CONTRACT.md, *Subscriptions*): a copy younger than `refresh` is read as
/// it is; an older one is asked for again with its validators (a 304 costs
/// no download); a failed fetch of any kind keeps the last good copy, with
/// one warning; with no copy, the URL is told and left out.
package struct SubscriptionFetch: Sendable {
    package var refresh: TimeInterval = 15 * 60
    package var offline = false
    package var userAgent = "ics-agenda"
    package var cache: SubscriptionCache
    var limits = CurlTransfer.Limits()

    package init(cache: SubscriptionCache) {
        self.cache = cache
    }

    /// What there is to read of one URL.
    package struct Outcome: Sendable {
        package let url: SubscriptionURL
        /// The calendar's text: its copy's path, or the body itself when
        /// the cache could not be written.
        package let content: Content?
        /// How old the copy read is (0: just fetched or confirmed).
        package let age: TimeInterval?
        /// A failure the copy was kept through, or a cache that could not be written: told once.
        package let warning: String?
        /// Nothing to read: told, and the run ends with status 66.
        package let error: String?
    }

    package enum Content: Sendable {
        case file(String)
        case bytes([UInt8])
    }

    /// Every URL's outcome, in order; the fetches run side by side.
    package func fetch(_ urls: [SubscriptionURL], now: Date = Date()) -> [Outcome] {
        var outcomes = [Outcome?](repeating: nil, count: urls.count)
        var asked: [(index: Int, copy: SubscriptionCache.Copy?, transfer: CurlTransfer)] = []
        for (i, url) in urls.enumerated() {
            let copy = cache.copy(of: url)
            if let copy, offline || (refresh > 0 && now.timeIntervalSince(copy.confirmed) < refresh) {
                outcomes[i] = Outcome(url: url, content: .file(copy.path), age: max(0, now.timeIntervalSince(copy.confirmed)), warning: nil, error: nil)
                continue
            }
            if offline {
                outcomes[i] = Outcome(url: url, content: nil, age: nil, warning: nil, error: "\(url.redacted): no copy of it is kept (--offline fetches nothing); left out")
                continue
            }
            if let reason = CurlTransfer.unavailable {
                outcomes[i] = failed(url, copy: copy, reason: reason, now: now)
                continue
            }
            guard let transfer = CurlTransfer(url, conditions: (copy?.etag, copy?.lastModified), limits: limits, userAgent: userAgent) else {
                outcomes[i] = failed(url, copy: copy, reason: "libcurl could not start a transfer", now: now)
                continue
            }
            asked.append((i, copy, transfer))
        }
        if !asked.isEmpty {
            let codes = CurlMulti().map { $0.run(asked.map(\.transfer)) } ?? asked.map { _ in CURLE_FAILED_INIT }
            for (job, code) in zip(asked, codes) {
                outcomes[job.index] = finish(urls[job.index], job.transfer, code, copy: job.copy, now: now)
            }
        }
        return outcomes.map { $0! }
    }

    /// What a finished transfer leaves to read.
    private func finish(_ url: SubscriptionURL, _ transfer: CurlTransfer, _ code: CURLcode, copy: SubscriptionCache.Copy?, now: Date) -> Outcome {
        if let reason = SubscriptionFetch.failure(code, transfer: transfer, url: url, limits: limits) {
            return failed(url, copy: copy, reason: reason, now: now)
        }
        let status = transfer.responseCode
        if status == 304, let copy {
            cache.confirm(url)
            return Outcome(url: url, content: .file(copy.path), age: 0, warning: nil, error: nil)
        }
        guard (200..<300).contains(status) else {
            let netrc = ProcessInfo.processInfo.environment["NETRC"].flatMap { $0.isEmpty ? nil : "$NETRC" } ?? "~/.netrc"
            let why = status == 401 || status == 403 ? " (the credentials in \(netrc) were refused, or there are none)" : ""
            return failed(url, copy: copy, reason: "the server answered HTTP \(status)\(why)", now: now)
        }
        if let problem = SubscriptionFetch.problem(with: transfer.body) {
            return failed(url, copy: copy, reason: problem, now: now)
        }
        do {
            try cache.store(transfer.body, etag: transfer.etag, lastModified: transfer.lastModified, for: url)
            return Outcome(url: url, content: .file(cache.copyPath(url)), age: 0, warning: nil, error: nil)
        } catch {
            return Outcome(url: url, content: .bytes(transfer.body), age: 0, warning: "\(url.redacted): \(error); read as fetched", error: nil)
        }
    }

    /// The copy kept, with a warning; else nothing to read.
    private func failed(_ url: SubscriptionURL, copy: SubscriptionCache.Copy?, reason: String, now: Date) -> Outcome {
        guard let copy else {
            return Outcome(url: url, content: nil, age: nil, warning: nil, error: "\(url.redacted): cannot fetch: \(reason); no copy of it is kept, left out")
        }
        let age = max(0, now.timeIntervalSince(copy.confirmed))
        return Outcome(
            url: url, content: .file(copy.path), age: age,
            warning: "\(url.redacted): could not refresh: \(reason); read the copy from \(CalendarListFormatter.describe(age: age)) ago", error: nil)
    }

    /// Why a transfer failed, in words; nil when it did not.
    static func failure(_ code: CURLcode, transfer: CurlTransfer, url: SubscriptionURL, limits: CurlTransfer.Limits) -> String? {
        if transfer.tooLarge || code == CURLE_FILESIZE_EXCEEDED { return "larger than \(limits.maxBytes >> 20) MB" }
        switch code {
        case CURLE_OK: return nil
        case CURLE_OPERATION_TIMEDOUT: return "timed out (\(limits.connectSeconds) s to connect, \(limits.totalSeconds) s in all)"
        case CURLE_COULDNT_RESOLVE_HOST: return "unknown host"
        case CURLE_COULDNT_CONNECT: return "could not connect"
        case CURLE_TOO_MANY_REDIRECTS: return "more than \(limits.maxRedirects) redirects"
        case CURLE_UNSUPPORTED_PROTOCOL where url.isHTTPS: return "redirected from https to another scheme (refused)"
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR: return "the transfer was cut short"
        case CURLE_GOT_NOTHING: return "the server closed the connection without an answer"
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
            return "TLS: the server's certificate could not be verified: \(String(cString: ics_curl_easy_strerror(code)))"
        case CURLE_SSL_CONNECT_ERROR:
            return "TLS: the handshake with the server failed"
        default: return String(cString: ics_curl_easy_strerror(code))
        }
    }

    /// Whether END:VCALENDAR comes in the last megabyte, and no
    /// BEGIN:VCALENDAR after it (in any case; UTF-16's zero bytes aside).
    static func endsCalendar(_ body: [UInt8]) -> Bool {
        let end = Array("END:VCALENDAR".utf8), begin = Array("BEGIN:VCALENDAR".utf8)
        var text = body.suffix(1 << 20).filter { $0 != 0 }
        for i in text.indices where text[i] >= 0x61 && text[i] <= 0x7A { text[i] -= 0x20 }
        func last(_ word: [UInt8]) -> Int? {
            guard text.count >= word.count else { return nil }
            var i = text.count - word.count
            while i >= 0 {
                if text[i] == word[0] && text[i..<(i + word.count)].elementsEqual(word) { return i }
                i -= 1
            }
            return nil
        }
        guard let ended = last(end) else { return false }
        var i = ended
        while i + begin.count <= text.count {
            if text[i] == begin[0] && text[i..<(i + begin.count)].elementsEqual(begin) { return false }
            i += 1
        }
        return true
    }

    /// What keeps a body that arrived whole from being the new copy.
    static func problem(with body: [UInt8]) -> String? {
        let text = body.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        if text.isEmpty { return "the server sent an empty body" }
        guard CalendarText.looksLikeCalendar(body) else { return "the server sent something that is not iCalendar: \(CalendarText.describe(body))" }
        // A transfer cut where the server had not said how long it is ends
        // anywhere: the last calendar must have ended (blank lines, or a
        // comment some servers add, may follow).
        guard SubscriptionFetch.endsCalendar(body) else { return "the body ends before END:VCALENDAR: cut short" }
        return nil
    }
}
