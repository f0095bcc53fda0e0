/// The XML bodies the sync sends: each property set named once, hrefs and
/// tokens escaped, hrefs percent-encoded (`DAVHref.encoded`).
enum DAVBodies {
    static let homeProperties = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:a="http://apple.com/ns/ical/" \
        xmlns:cs="http://calendarserver.org/ns/"><d:prop><d:resourcetype/><d:displayname/><a:calendar-color/>\
        <c:supported-calendar-component-set/><cs:getctag/><d:sync-token/></d:prop></d:propfind>
        """
    static let principalProperties = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/><d:resourcetype/></d:prop></d:propfind>
        """
    static let homeSetProperties = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
        <d:prop><c:calendar-home-set/></d:prop></d:propfind>
        """
    static let etagProperties = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getetag/></d:prop></d:propfind>
        """

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// RFC 6578 §3.2: what changed since `token`.
    static func syncCollection(_ token: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(escaped(token))</d:sync-token><d:sync-level>1</d:sync-level>\
        <d:prop><d:getetag/></d:prop></d:sync-collection>
        """
    }

    /// RFC 4791 §7.9: the items at `hrefs`, each sent percent-encoded.
    static func multiget(_ hrefs: [String]) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
        <d:prop><d:getetag/><c:calendar-data/></d:prop>\
        \(hrefs.map { "<d:href>\(escaped(DAVHref.encoded($0)))</d:href>" }.joined())</c:calendar-multiget>
        """
    }
}
