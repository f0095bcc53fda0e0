import Foundation
import Subscriptions
import Testing

/// Reading CalDAV's XML answers (RFC 4918 §14.16, RFC 6578 §6.4) with
/// libxml2: namespaces by URI, duplicate hrefs, control characters, and
/// what is refused (a DOCTYPE: XXE and billion laughs).
@Suite struct CalDAVMultistatusTests {
    static func parse(_ text: String) throws(XMLDocument.Refusal) -> Multistatus {
        try Multistatus(parsing: Array(text.utf8))
    }

    /// Prefixes are the server's choice: `D:`, `d:`, none, or another
    /// namespace's prefix; only the URI decides.
    @Test func elementsAreMatchedByNamespaceURINotPrefix() throws {
        let answer = try CalDAVMultistatusTests.parse("""
            <?xml version="1.0" encoding="utf-8"?>
            <x:multistatus xmlns:x="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="http://apple.com/ns/ical/">
              <x:response><x:href>/cal/work/</x:href>
                <x:propstat><x:prop>
                  <x:displayname>Work</x:displayname>
                  <x:resourcetype><x:collection/><C:calendar/></x:resourcetype>
                  <A:calendar-color>#FF0000FF</A:calendar-color>
                </x:prop><x:status>HTTP/1.1 200 OK</x:status></x:propstat>
                <x:propstat><x:prop><x:getctag/></x:prop><x:status>HTTP/1.1 404 Not Found</x:status></x:propstat>
              </x:response>
              <response xmlns="DAV:"><href>/cal/home/</href><propstat><prop><displayname>Home</displayname></prop>
                <status>HTTP/1.1 200 OK</status></propstat></response>
              <D:response xmlns:D="urn:not-dav"><D:href>/nope/</D:href></D:response>
            </x:multistatus>
            """)
        #expect(answer.responses.map(\.href) == ["/cal/work/", "/cal/home/"])
        let work = answer.responses[0]
        #expect(work.text(DAVNamespace.dav, "displayname") == "Work")
        #expect(work.isResourceType(DAVNamespace.caldav, "calendar"))
        #expect(work.text(DAVNamespace.apple, "calendar-color") == "#FF0000FF")
        #expect(work.property(DAVNamespace.dav, "getctag") == nil, "a 404 propstat is a property not found")
        #expect(work.text(DAVNamespace.caldav, "displayname") == nil,
            "the same name in another namespace is another property")
        #expect(answer.responses[1].text(DAVNamespace.dav, "displayname") == "Home")
    }

    /// A DOCTYPE is refused before anything is parsed: no entity is ever
    /// defined, so none is substituted or fetched (XXE, billion laughs).
    @Test(arguments: [
        """
        <?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>
        <d:multistatus xmlns:d="DAV:"><d:response><d:href>&x;</d:href></d:response></d:multistatus>
        """,
        """
        <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
        <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
        <d:multistatus xmlns:d="DAV:"><d:response><d:href>&d;</d:href></d:response></d:multistatus>
        """,
        "<!DOCTYPE multistatus SYSTEM \"http://127.0.0.1:1/dtd\"><multistatus xmlns=\"DAV:\"/>",
    ])
    func aDoctypeIsRefused(body: String) throws {
        #expect(throws: XMLDocument.Refusal.self) { try CalDAVMultistatusTests.parse(body) }
        do {
            _ = try CalDAVMultistatusTests.parse(body)
        } catch {
            #expect(error.description.contains("DOCTYPE"))
            #expect(!error.description.contains("passwd"))
        }
    }

    /// An entity that is not defined is an error (no DTD is read to find it), not text.
    @Test func anUndefinedEntityIsNotRead() throws {
        #expect(throws: XMLDocument.Refusal.self) {
            try CalDAVMultistatusTests.parse("<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>&x;</d:href></d:response></d:multistatus>")
        }
    }

    /// Zimbra and DavMail send one href twice, and control characters in
    /// calendar data: both are read (the second response's properties join the first's).
    @Test func duplicateHrefsAndControlCharactersAreTolerated() throws {
        let answer = try CalDAVMultistatusTests.parse("""
            <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
              <d:response><d:href>/cal/a%40b.ics</d:href><d:propstat><d:prop><d:getetag>"1"</d:getetag></d:prop>
                <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
              <d:response><d:href>/cal/a@b.ics</d:href><d:propstat><d:prop>
                <c:calendar-data>BEGIN:VCALENDAR\u{01}\u{0B}
            END:VCALENDAR</c:calendar-data></d:prop>
                <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            </d:multistatus>
            """)
        #expect(answer.responses.count == 1)
        #expect(answer.responses[0].text(DAVNamespace.dav, "getetag") == "\"1\"")
        #expect(answer.responses[0].text(DAVNamespace.caldav, "calendar-data")?.hasPrefix("BEGIN:VCALENDAR") == true)
    }

    /// RFC 6578 §6.4: a member removed since the token comes back as a 404
    /// response of its own; the report ends with the new token.
    @Test func aSyncReportGivesRemovedMembersAndTheNewToken() throws {
        let answer = try CalDAVMultistatusTests.parse("""
            <multistatus xmlns="DAV:">
              <response><href>/cal/gone.ics</href><status>HTTP/1.1 404 Not Found</status></response>
              <response><href>http://example.com/cal/new%20one.ics</href><propstat><prop><getetag>"7"</getetag></prop>
                <status>HTTP/1.1 200 OK</status></propstat></response>
              <sync-token>http://example.com/sync/42</sync-token>
            </multistatus>
            """)
        #expect(answer.responses[0].status == 404)
        #expect(answer.responses[1].status == nil)
        #expect(DAVHref.key(answer.responses[1].href) == "/cal/new one.ics")
        #expect(answer.syncToken == "http://example.com/sync/42")
    }

    /// A body that is not a multistatus (a login page, a cut body) is refused, saying why.
    @Test(arguments: ["<html><body>Login</body></html>", "<d:multistatus xmlns:d=\"DAV:\"><d:response>", "", "not xml"])
    func whatIsNotAMultistatusIsRefused(body: String) throws {
        #expect(throws: XMLDocument.Refusal.self) { try CalDAVMultistatusTests.parse(body) }
    }

    /// An element's text over libxml2's 10 MB limit (a calendar-data of
    /// 10,000 events, its line ends sent as `&#13;`) is refused in words, and
    /// libxml2 prints nothing: not its diagnostic line, not the server's
    /// bytes it would quote after it. (libxml2 2.9 also gave back the
    /// document, its text cut at the limit, as if nothing had happened.)
    @Test func aTextOverLibxml2sLimitIsRefusedInWordsAndNothingIsPrinted() throws {
        let line = "DESCRIPTION:server-bytes-\(String(repeating: "x", count: 80))&#13;\n"
        let body = """
            <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
              <d:response><d:href>/cal/big.ics</d:href><d:propstat><d:prop><c:calendar-data>BEGIN:VCALENDAR&#13;
            \(String(repeating: line, count: 110_000))END:VCALENDAR&#13;
            </c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            </d:multistatus>
            """
        var refusal: XMLDocument.Refusal?
        let written = try CalDAVMultistatusTests.standardError {
            do { _ = try CalDAVMultistatusTests.parse(body) } catch let error as XMLDocument.Refusal { refusal = error } catch {}
        }
        #expect(refusal?.reason.contains("over libxml2's 10 MB limit") == true, "\(String(describing: refusal))")
        #expect(refusal.map { !$0.reason.contains("server-bytes") && !$0.reason.contains("memory") } == true)
        // Other tests of this process may write to fd 2 while it is captured
        // (Swift Testing's own lines): nothing of libxml2's, nor of the body.
        #expect(!written.contains("answer.xml") && !written.contains("parser error")
            && !written.contains("huge text node") && !written.contains("server-bytes"), "\(written.prefix(400))")
    }

    /// What is written to fd 2 while `body` runs (a file, not a pipe: a
    /// writer of more than a pipe's buffer never waits).
    static func standardError(_ body: () -> Void) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString)").path
        let file = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        guard file >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(file); unlink(path) }
        fflush(nil)
        let saved = dup(2)
        dup2(file, 2)
        body()
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        return String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    /// Only `Subscriptions/XML/` imports libxml2.
    @Test func onlyTheXMLFolderMeetsLibxml2() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        var importers: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            if text.contains("import CLibXML2") || text.contains("ReadMemory(") {
                importers.append(String(url.path.dropFirst(sources.path.count + 1)))
            }
        }
        #expect(!importers.isEmpty)
        #expect(importers.allSatisfy { $0.hasPrefix("Subscriptions/XML/") }, "\(importers)")
    }

    /// One href twice in a sync report: the later response's word wins
    /// (404, then present again, is present).
    @Test func theLaterResponseForAnHrefWins() throws {
        let answer = try CalDAVMultistatusTests.parse("""
            <d:multistatus xmlns:d="DAV:">
              <d:response><d:href>/cal/x.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>
              <d:response><d:href>/cal/x.ics</d:href><d:propstat><d:prop><d:getetag>"2"</d:getetag></d:prop>
                <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            </d:multistatus>
            """)
        #expect(answer.responses.count == 1)
        #expect(answer.responses[0].status == nil)
        #expect(answer.responses[0].text(DAVNamespace.dav, "getetag") == "\"2\"")
    }
}
