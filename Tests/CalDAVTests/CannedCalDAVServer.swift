import Foundation

@testable import Subscriptions

/// A CalDAV server in memory, as a `DAVTransport`: what `DAVSync` decides
/// is tested against it without a socket. One account: the principal
/// `/p/`, the home `/cal/`, one calendar `/cal/work/`. Its items change
/// with `put` and `delete`, each change a new sync token (`tok-N`) and
/// ctag; the quirks of real servers are switches.
final class CannedCalDAVServer: DAVTransport, @unchecked Sendable {
    struct Item {
        var summary: String
        var etag: String
    }

    /// By decoded path (`/cal/work/a.ics`).
    private(set) var items: [String: Item] = [:]
    private(set) var token = 1
    /// Each change: the token it made and the path it changed.
    private var changes: [(token: Int, path: String)] = []
    /// Every request, as sent.
    private(set) var requests: [DAVRequest] = []

    // The quirks.
    /// Hrefs in sync reports written as they are, unencoded (a blank, `@`, a
    /// lone `%`), while the listing encodes them: a widely deployed server does.
    var rawHrefsInSyncReports = false
    /// Paths a multiget leaves out of its answer.
    var multigetLeavesOut: Set<String> = []
    /// Paths a multiget answers 404 for.
    var multigetNotFound: Set<String> = []
    /// A multiget asking for any of these paths is answered with XML that cannot be read.
    var multigetBreaksOn: Set<String> = []
    /// Every multiget is answered with this status (a server error).
    var multigetStatus: Int?
    /// Every multiget is answered with a DOCTYPE (an external entity).
    var multigetHasDoctype = false
    /// Changes a sync report gives before it is cut by a 507 (RFC 6578 §3.6); nil: never cut.
    var syncPageSize: Int?
    /// A calendar's listing names only its first this-many items, and a 507 for the calendar itself.
    var listingCutAfter: Int?
    /// No `sync-token` at all: a ctag-only server.
    var ctagOnly = false

    static let calendar = "/cal/work/"

    /// Adds or changes an item: a new etag, a new token.
    func put(_ path: String, _ summary: String) {
        token += 1
        items[path] = Item(summary: summary, etag: "\"e\(token)\"")
        changes.append((token, path))
    }

    func delete(_ path: String) {
        token += 1
        items[path] = nil
        changes.append((token, path))
    }

    /// Changes an item and tells no one: no new token, no new ctag (drift).
    func changeSilently(_ path: String, _ summary: String) {
        items[path] = Item(summary: summary, etag: "\"s\(summary.hashValue & 0xffff)\"")
    }

    func count(_ method: String, _ marker: String = "") -> Int {
        requests.filter { $0.method == method && (marker.isEmpty || $0.body.contains(marker)) }.count
    }

    // MARK: DAVTransport

    func send(_ requests: [(request: DAVRequest, login: Netrc.Login?)]) -> [Result<DAVResponse, DAVFailure>] {
        requests.map { .success(answer($0.request)) }
    }

    private func answer(_ request: DAVRequest) -> DAVResponse {
        self.requests.append(request)
        let path = String(request.url.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" })
        switch (request.method, path) {
        case ("PROPFIND", "/"):
            return multistatus(response("/", "<d:current-user-principal><d:href>/p/</d:href></d:current-user-principal>"))
        case ("PROPFIND", "/p/"):
            return multistatus(response("/p/", "<c:calendar-home-set><d:href>/cal/</d:href></c:calendar-home-set>"))
        case ("PROPFIND", "/cal/"):
            let sync = ctagOnly ? "" : "<d:sync-token>tok-\(token)</d:sync-token>"
            return multistatus(response("/cal/", "<d:resourcetype><d:collection/></d:resourcetype>")
                + response(CannedCalDAVServer.calendar, "<d:resourcetype><d:collection/><c:calendar/></d:resourcetype>"
                    + "<d:displayname>Work</d:displayname><cs:getctag>\(token)</cs:getctag>\(sync)"))
        case ("PROPFIND", CannedCalDAVServer.calendar):
            let named = items.keys.sorted().prefix(listingCutAfter ?? items.count)
            let members = named.map { response(encodedHref($0), etag($0)) }.joined()
            let cut = listingCutAfter == nil ? "" : response(CannedCalDAVServer.calendar, status: 507)
            return multistatus(response(CannedCalDAVServer.calendar,
                "<d:resourcetype><d:collection/><c:calendar/></d:resourcetype>") + members + cut)
        case ("REPORT", CannedCalDAVServer.calendar) where request.body.contains("sync-collection"):
            return syncReport(request.body)
        case ("REPORT", CannedCalDAVServer.calendar) where request.body.contains("calendar-multiget"):
            return multiget(request.body)
        default:
            return DAVResponse(status: 404, body: [], location: nil)
        }
    }

    private func syncReport(_ body: String) -> DAVResponse {
        guard let since = texts("d:sync-token", in: body).first.flatMap({ Int($0.dropFirst(4)) }), since <= token
        else {
            return DAVResponse(status: 403, body: Array("""
                <?xml version="1.0"?><d:error xmlns:d="DAV:"><d:valid-sync-token/></d:error>
                """.utf8), location: nil)
        }
        var later = changes.filter { $0.token > since }
        var cut = false
        if let size = syncPageSize, later.count > size {
            later = Array(later.prefix(size))
            cut = true
        }
        let upTo = later.last?.token ?? token
        var inner = ""
        for path in Set(later.map(\.path)).sorted() {
            let href = rawHrefsInSyncReports ? path : encodedHref(path)
            inner += items[path] == nil ? response(href, status: 404) : response(href, etag(path))
        }
        if cut { inner += response(CannedCalDAVServer.calendar, status: 507) }
        return multistatus(inner, token: "tok-\(cut ? upTo : token)")
    }

    private func multiget(_ body: String) -> DAVResponse {
        let asked = texts("d:href", in: body).map {
            $0.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
        if let status = multigetStatus { return DAVResponse(status: status, body: [], location: nil) }
        if multigetHasDoctype {
            return DAVResponse(status: 207, body: Array("""
                <?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>                <d:multistatus xmlns:d="DAV:">&x;</d:multistatus>
                """.utf8), location: nil)
        }
        var inner = ""
        for href in asked {
            // As a strict server reads a request: an href not percent-encoded names nothing.
            guard href.allSatisfy({ $0 != " " }), let path = href.removingPercentEncoding, href.utf8.allSatisfy({
                $0 < 0x80 }) else {
                inner += response(href, status: 404)
                continue
            }
            if multigetBreaksOn.contains(path) {
                return DAVResponse(status: 207, body: Array("<d:multistatus xmlns:d=\"DAV:\"><d:response>".utf8),
                    location: nil)
            }
            if multigetLeavesOut.contains(path) { continue }
            guard let item = items[path], !multigetNotFound.contains(path) else {
                inner += response(href, status: 404)
                continue
            }
            let data = """
                BEGIN:VCALENDAR\r
                VERSION:2.0\r
                PRODID:-//canned//EN\r
                BEGIN:VEVENT\r
                UID:\(path)\r
                DTSTAMP:20250101T000000Z\r
                DTSTART:20250303T090000Z\r
                SUMMARY:\(item.summary)\r
                END:VEVENT\r
                END:VCALENDAR\r

                """
            inner += response(href, etag(path) + "<c:calendar-data>\(DAVBodies.escaped(data))</c:calendar-data>")
        }
        return multistatus(inner)
    }

    // MARK: XML

    private func etag(_ path: String) -> String {
        "<d:getetag>\(DAVBodies.escaped(items[path]?.etag ?? ""))</d:getetag>"
    }

    /// The path as a server's listing writes it: every byte RFC 3986 does not allow in a path encoded.
    func encodedHref(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "@")))!
    }

    private func response(_ href: String, _ properties: String = "", status: Int? = nil) -> String {
        let escaped = DAVBodies.escaped(href)
        if let status {
            return "<d:response><d:href>\(escaped)</d:href><d:status>HTTP/1.1 \(status) X</d:status></d:response>"
        }
        return "<d:response><d:href>\(escaped)</d:href><d:propstat><d:prop>\(properties)</d:prop>"
            + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
    }

    private func multistatus(_ inner: String, token: String? = nil) -> DAVResponse {
        let tail = token.map { "<d:sync-token>\($0)</d:sync-token>" } ?? ""
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" \
            xmlns:cs="http://calendarserver.org/ns/">\(inner)\(tail)</d:multistatus>
            """
        return DAVResponse(status: 207, body: Array(body.utf8), location: nil)
    }

    /// The texts of every `<tag>…</tag>` in `body`.
    private func texts(_ tag: String, in body: String) -> [String] {
        body.components(separatedBy: "<\(tag)>").dropFirst().compactMap {
            $0.components(separatedBy: "</\(tag)>").first
        }
    }
}
