import Foundation

/// The namespaces CalDAV answers are matched by (their URIs, never a prefix).
package enum DAVNamespace {
    package static let dav = "DAV:"
    package static let caldav = "urn:ietf:params:xml:ns:caldav"
    package static let apple = "http://apple.com/ns/ical/"
    static let calendarServer = "http://calendarserver.org/ns/"
}

/// A WebDAV `multistatus` answer (RFC 4918 §14.16, RFC 6578 §6.4): each
/// `response`'s href, its own status (a member removed, in a sync report)
/// and the properties the server found (those of a `propstat` with a 2xx
/// status; the others were not found). Two responses for one href (Zimbra,
/// DavMail) are one, the later's properties winning.
package struct Multistatus: Sendable {
    package struct Response: Sendable {
        /// The href as the server wrote it, blanks around it left out.
        package let href: String
        /// The status of the response itself, when it has one (a 404 of a member removed).
        package var status: Int?
        /// The properties found.
        package var properties: [XMLElement]

        /// The property `name` in `namespace`, when it was found.
        package func property(_ namespace: String, _ name: String) -> XMLElement? {
            properties.last { $0.is(namespace, name) }
        }

        /// The text of a property found, blanks around it left out; nil when
        /// not found or empty.
        package func text(_ namespace: String, _ name: String) -> String? {
            let text = property(namespace, name)?.text.trimmingCharacters(in: .whitespacesAndNewlines)
            return text?.isEmpty == false ? text : nil
        }

        /// The text of the first `DAV:href` inside a property found
        /// (`current-user-principal`, `calendar-home-set`).
        package func href(in namespace: String, _ name: String) -> String? {
            let href = property(namespace, name)?.child(DAVNamespace.dav, "href")?.text.trimmingCharacters(
                in: .whitespacesAndNewlines)
            return href?.isEmpty == false ? href : nil
        }

        /// Whether its `resourcetype` holds `name` in `namespace`.
        package func isResourceType(_ namespace: String, _ name: String) -> Bool {
            property(DAVNamespace.dav, "resourcetype")?.child(namespace, name) != nil
        }
    }

    package private(set) var responses: [Response] = []
    /// The `sync-token` a sync report ends with.
    package private(set) var syncToken: String?

    /// Reads `bytes` as a multistatus; throws when it is not XML, has a
    /// DOCTYPE, or its root is not `DAV:multistatus`.
    package init(parsing bytes: [UInt8]) throws(XMLDocument.Refusal) {
        let document = try XMLDocument(parsing: bytes)
        guard let root = document.root, root.is(DAVNamespace.dav, "multistatus") else {
            throw XMLDocument.Refusal(reason: "the answer is not a WebDAV multistatus")
        }
        self.init(root)
    }

    package init(_ root: XMLElement) {
        var index: [String: Int] = [:]
        for element in root.all(DAVNamespace.dav, "response") {
            guard let href = element.child(DAVNamespace.dav,
                "href")?.text.trimmingCharacters(in: .whitespacesAndNewlines),
                !href.isEmpty
            else { continue }
            let status = element.child(DAVNamespace.dav, "status").flatMap { Multistatus.status($0.text) }
            var properties: [XMLElement] = []
            for propstat in element.all(DAVNamespace.dav, "propstat") {
                let code = propstat.child(DAVNamespace.dav, "status").flatMap { Multistatus.status($0.text) } ?? 200
                guard (200..<300).contains(code) else { continue }
                for prop in propstat.all(DAVNamespace.dav, "prop") { properties += prop.children }
            }
            let key = DAVHref.key(href)
            if let i = index[key] {
                responses[i].properties += properties
                responses[i].status = status  // the later response's word wins: 404, then present again, is present
            } else {
                index[key] = responses.count
                responses.append(Response(href: href, status: status, properties: properties))
            }
        }
        syncToken = root.child(DAVNamespace.dav, "sync-token")
            .map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
            .flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `HTTP/1.1 404 Not Found` → 404.
    static func status(_ line: String) -> Int? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard words.count >= 2, words[0].hasPrefix("HTTP/") else { return nil }
        return Int(words[1])
    }
}
