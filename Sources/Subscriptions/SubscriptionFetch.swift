import AgendaCore
import Foundation
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
    /// Where each transfer's login comes from: shared with the run's `DAVFetch`.
    package var credentials = Credentials(environment: ProcessInfo.processInfo.environment)
    var limits = CurlTransfer.Limits()

    package init(cache: SubscriptionCache) {
        self.cache = cache
    }

    /// A whole transfer ends after `seconds` instead of 30 (connecting
    /// after at most as many): `ICS_AGENDA_TIMEOUT`.
    package mutating func limitTransfers(toSeconds seconds: Int) {
        limits.totalSeconds = seconds
        limits.connectSeconds = min(limits.connectSeconds, seconds)
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

    /// Every URL's outcome, in order; the fetches run side by side. Each
    /// transfer's login is asked of `credentials` only when it is made.
    package func fetch(_ urls: [SubscriptionURL], now: Date = Date()) -> [Outcome] {
        var outcomes = [Outcome?](repeating: nil, count: urls.count)
        var asked:
            [(index: Int, copy: SubscriptionCache.Copy?, note: String?, choice: Credentials.Choice,
                transfer: CurlTransfer)] = []
        // A folder that cannot be used is told once, with the first URL;
        // every URL is then read as fetched, as if there were no cache.
        let unusable = cache.folderProblem()
        for (i, url) in urls.enumerated() {
            // A URL that would send its own password in clear is not read at all, copy or not.
            if let refusal = Credentials.refusal(for: Credentials.Place(url)) {
                outcomes[i] = Outcome(
                    url: url, content: nil, age: nil, warning: nil, error: "\(url.redacted): \(refusal)")
                continue
            }
            let lookup = unusable == nil ? cache.copy(of: url) : SubscriptionCache.Lookup(copy: nil, problem: nil)
            var note = lookup.problem.map { "\(url.redacted): \($0)" }
            if i == 0, let unusable {
                let then = offline ? "--offline has no copy to read" : "URLs are read as fetched"
                note = "\(unusable): it is not used (nothing is read from it or written to it); \(then)"
            }
            let copy = lookup.copy
            switch policy.decide(confirmed: copy?.confirmed, now: now) {
            case .readCopy(let age):
                let future = age == nil ? "\(url.redacted): \(RefreshPolicy.futureCopy)" : nil
                outcomes[i] = Outcome(
                    url: url, content: .file(copy!.path), age: age, warning: joined(note, future), error: nil)
                continue
            case .nothingToRead:
                let error = "\(url.redacted): \(RefreshPolicy.noCopyOffline)"
                outcomes[i] = Outcome(url: url, content: nil, age: nil, warning: note, error: error)
                continue
            case .ask: break
            }
            if let reason = CurlTransfer.unavailable {
                outcomes[i] = failed(url, copy: copy, reason: reason, note: note, now: now)
                continue
            }
            let choice = credentials.login(for: Credentials.Place(url))
            let conditions = copy?.validators ?? .none
            guard
                let transfer = CurlTransfer(
                    url, conditions: conditions, login: choice.login, limits: limits, userAgent: userAgent)
            else {
                outcomes[i] = failed(
                    url, copy: copy, reason: "libcurl could not start a transfer", note: note, now: now)
                continue
            }
            asked.append((i, copy, note, choice, transfer))
        }
        if !asked.isEmpty {
            let failures = CurlMulti.failures(running: asked.map(\.transfer))
            for (job, failure) in zip(asked, failures) {
                let url = urls[job.index]
                outcomes[job.index] = finish(
                    url, job.transfer, failure: failure, copy: job.copy, note: job.note, choice: job.choice,
                    keeps: unusable == nil, now: now)
            }
        }
        return outcomes.map { $0! }
    }

    /// When a copy is read as it is (`refresh`, `offline`).
    var policy: RefreshPolicy { RefreshPolicy(refresh: refresh, offline: offline) }

    /// What a finished transfer leaves to read; `note`, told with it.
    private func finish(
        _ url: SubscriptionURL, _ transfer: CurlTransfer, failure: String?, copy: SubscriptionCache.Copy?,
        note: String?, choice: Credentials.Choice, keeps: Bool, now: Date
    ) -> Outcome {
        if let reason = failure {
            return failed(url, copy: copy, reason: reason, note: note, now: now)
        }
        let status = transfer.responseCode
        if status == 304, let copy {
            cache.confirm(url)
            return Outcome(url: url, content: .file(copy.path), age: 0, warning: note, error: nil)
        }
        guard (200..<300).contains(status) else {
            let hint = status == 405 ? SubscriptionFetch.davHint(url) : ""
            let reason =
                status == 401 || status == 403
                ? Credentials.refusedLogin(status: status, choice: choice) : "the server answered HTTP \(status)\(hint)"
            return failed(url, copy: copy, reason: reason, note: note, now: now)
        }
        if let problem = SubscriptionFetch.problem(with: transfer.body) {
            let hint = SubscriptionFetch.speaksWebDAV(transfer.body) ? SubscriptionFetch.davHint(url) : ""
            return failed(url, copy: copy, reason: problem + hint, note: note, now: now)
        }
        guard keeps else { return Outcome(url: url, content: .bytes(transfer.body), age: 0, warning: note, error: nil) }
        do {
            try cache.store(transfer.body, validators: transfer.validators, for: url)
            return Outcome(url: url, content: .file(cache.copyPath(url)), age: 0, warning: note, error: nil)
        } catch {
            let warning = joined(note, "\(url.redacted): \(error); read as fetched")
            return Outcome(url: url, content: .bytes(transfer.body), age: 0, warning: warning, error: nil)
        }
    }

    /// The copy kept, with a warning; else nothing to read.
    private func failed(_ url: SubscriptionURL, copy: SubscriptionCache.Copy?, reason: String, note: String?, now: Date)
        -> Outcome
    {
        guard let copy else {
            let error = "\(url.redacted): cannot fetch: \(reason); no copy of it is kept, left out"
            return Outcome(url: url, content: nil, age: nil, warning: note, error: error)
        }
        let age = copy.age(at: now)
        let read = RefreshPolicy.copyRead(age: age)
        let warning = joined(note, "\(url.redacted): could not refresh: \(reason); \(read)")
        return Outcome(url: url, content: .file(copy.path), age: age, warning: warning, error: nil)
    }

    /// Two things told of one URL, as one warning.
    private func joined(_ first: String?, _ second: String?) -> String? {
        guard let first else { return second }
        guard let second else { return first }
        return "\(first); \(second)"
    }

    /// Whether END:VCALENDAR comes in the last megabyte, and no
    /// BEGIN:VCALENDAR after it (in any case; UTF-16's zero bytes aside).
    static func endsCalendar(_ body: [UInt8]) -> Bool {
        let end = Array("END:VCALENDAR".utf8)
        let begin = Array("BEGIN:VCALENDAR".utf8)
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

    /// What is told when a URL answers as a WebDAV server does (405 to a
    /// GET, or a page that says it is a WebDAV interface: Nextcloud's
    /// `/remote.php/dav`): it may be a CalDAV account, read as `davs://`.
    static func davHint(_ url: SubscriptionURL) -> String {
        url.isHTTPS
            ? "; if it is a CalDAV server, write davs:// in place of https:// to read its calendars"
            : "; if it is a CalDAV server, write dav:// in place of http:// to read its calendars"
    }

    /// Whether a body that is not iCalendar says it is a WebDAV interface.
    static func speaksWebDAV(_ body: [UInt8]) -> Bool {
        String(decoding: body.prefix(1 << 16), as: UTF8.self).lowercased().contains("webdav")
    }

    /// What keeps a body that arrived whole from being the new copy.
    static func problem(with body: [UInt8]) -> String? {
        let text = body.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        if text.isEmpty { return "the server sent an empty body" }
        guard CalendarText.looksLikeCalendar(body) else {
            return "the server sent something that is not iCalendar: \(CalendarText.describe(body))"
        }
        // A transfer cut where the server had not said how long it is ends
        // anywhere: the last calendar must have ended (blank lines, or a
        // comment some servers add, may follow).
        guard SubscriptionFetch.endsCalendar(body) else { return "the body ends before END:VCALENDAR: cut short" }
        return nil
    }
}
