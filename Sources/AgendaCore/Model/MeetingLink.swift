import Foundation

/// The link to join a meeting online, found where producers put it.
///
/// First the properties that name it (`explicit`, in the contract's order:
/// CONFERENCE with FEATURE=VIDEO, any other CONFERENCE,
/// `X-GOOGLE-CONFERENCE`, `X-MICROSOFT-ONLINEMEETINGEXTERNALLINK`,
/// `X-MICROSOFT-SKYPETEAMSMEETINGURL`), then the first link to a known
/// meeting service in URL, LOCATION or DESCRIPTION. Outlook's Safe Links
/// (`*.safelinks.protection.outlook.com/?url=…`) are unwrapped, as are links
/// in `<…>` (Outlook's plain text) and in an HTML `href="…"`; trailing
/// punctuation is not part of a link.
package enum MeetingLink {
    package static func find(explicit: [String], url: String?, location: String?, description: String?) -> String? {
        // A named link that is no web link (a `tel:` dial-in, a `file:`,
        // words) is passed over: `join`'s line is handed to a browser.
        for value in explicit {
            let link = unwrapped(trimmed(value))
            if link.utf8.count <= maxLength, LinkParts(link) != nil { return link }
        }
        // One field at a time: no array made for the three, most hold no link.
        return firstMeeting(in: url) ?? firstMeeting(in: location) ?? firstMeeting(in: description)
    }

    private static func firstMeeting(in text: String?) -> String? {
        guard let text, mayHoldLink(text) else { return nil }
        return links(in: text).first(where: isMeeting)
    }

    /// Whether a text may hold a link at all (`://`): most titles, places
    /// and descriptions do not, and are passed over by their bytes (memchr).
    static func mayHoldLink(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard var p = bytes.baseAddress else { return false }
            let end = p + bytes.count
            while p < end, let colon = memchr(p, 0x3A, end - p) {
                let at = UnsafePointer<UInt8>(colon.assumingMemoryBound(to: UInt8.self))
                if end - at >= 3 && at[1] == 0x2F && at[2] == 0x2F { return true }
                p = at + 1
            }
            return false
        }
    }

    /// The http and https links in a text, in order, each unwrapped.
    static func links(in text: String) -> [String] {
        var found: [String] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i + 7 < bytes.count {
            guard bytes[i] | 0x20 == 0x68, startsLink(bytes, at: i), i == 0 || !isWordByte(bytes[i - 1]) else {
                i += 1
                continue
            }
            var end = i
            while end < bytes.count {
                if bytes[end] < 0x80 {
                    if stopsLink(bytes[end]) { break }
                    end += 1
                } else if let length = letterLength(bytes, at: end) {
                    end += length
                } else {
                    break
                }
            }
            guard end - i <= maxLength else {
                i = end
                continue
            }
            var link = String(decoding: bytes[i..<end], as: UTF8.self)
            link = withoutTrailingPunctuation(link)
            link = link.replacing("&amp;", with: "&")
            found.append(unwrapped(link))
            i = max(end, i + 1)
        }
        return found
    }

    /// `http://` or `https://` at `i`, in any case.
    private static func startsLink(_ b: [UInt8], at i: Int) -> Bool {
        func lower(_ k: Int) -> UInt8 { k < b.count ? b[k] | 0x20 : 0 }
        guard lower(i) == 0x68, lower(i + 1) == 0x74, lower(i + 2) == 0x74, lower(i + 3) == 0x70 else { return false }
        let rest = lower(i + 4) == 0x73 ? i + 5 : i + 4
        return rest + 2 < b.count && b[rest] == 0x3A && b[rest + 1] == 0x2F && b[rest + 2] == 0x2F
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A)
    }

    /// What ends a link in text: white space, control characters, and the
    /// quotes and brackets that wrap one (`<…>`, `href="…"`, `'…'`).
    private static func stopsLink(_ b: UInt8) -> Bool {
        b <= 0x20 || b == 0x7F || b == 0x22 || b == 0x27 || b == 0x3C || b == 0x3E || b == 0x5C || b == 0x60
            || b == 0x7B || b == 0x7D
    }

    /// The length of the character at `i` (outside ASCII) when it is a
    /// letter, mark or digit, part of a link (a room named
    /// `Geburtstag-Müller`); nil for a space or punctuation (a no-break
    /// space, `”`, `»`, `。`, `…`), which ends one, or a broken sequence.
    private static func letterLength(_ b: [UInt8], at i: Int) -> Int? {
        let length = b[i] >= 0xF0 ? 4 : b[i] >= 0xE0 ? 3 : b[i] >= 0xC0 ? 2 : 0
        guard length > 0, i + length <= b.count, b[(i + 1)..<(i + length)].allSatisfy({ $0 & 0xC0 == 0x80 }),
            let scalar = String(decoding: b[i..<(i + length)], as: UTF8.self).unicodeScalars.first
        else { return nil }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark,
            .spacingMark,
            .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return length
        default: return nil
        }
    }

    /// A link less the punctuation that ends the sentence around it; a
    /// closing bracket stays when the link opened one.
    static func withoutTrailingPunctuation(_ link: String) -> String {
        var text = Substring(link)
        // Brackets counted once; each one dropped is taken off the count.
        var opened = (round: 0, square: 0), closed = (round: 0, square: 0)
        for c in text {
            switch c {
            case "(": opened.round += 1
            case ")": closed.round += 1
            case "[": opened.square += 1
            case "]": closed.square += 1
            default: break
            }
        }
        while let last = text.last {
            if ".,;:!?*".contains(last) {
                text = text.dropLast()
            } else if last == ")" && closed.round > opened.round {
                closed.round -= 1
                text = text.dropLast()
            } else if last == "]" && closed.square > opened.square {
                closed.square -= 1
                text = text.dropLast()
            } else {
                break
            }
        }
        return String(text)
    }

    /// Whereby's own pages: what a first path segment names when it is no room.
    static let wherebyPages: Set<String> = [
        "information", "user", "login", "signup", "pricing", "blog", "support", "legal", "org", "download", "embed",
            "developers",
        "terms", "privacy", "about", "business", "personal", "careers", "contact", "features",
    ]

    /// Longer links are no meeting links (real ones, Safe Links included, are under 1,500 bytes).
    static let maxLength = 4096

    private static func trimmed(_ value: String) -> String {
        let text = value.trimmingWhitespace()
        return text.first == "<" && text.last == ">" ? String(text.dropFirst().dropLast()) : text
    }

    /// A Safe Links address's own link (`url=`, percent-decoded), else the link.
    static func unwrapped(_ link: String) -> String {
        guard let parts = LinkParts(link), parts.host.hasSuffix(".safelinks.protection.outlook.com") else {
            return link
        }
        for pair in parts.query.split(separator: "&") where pair.lowercased().hasPrefix("url=") {
            let inner = percentDecoded(pair.dropFirst(4))
            if LinkParts(inner) != nil { return unwrapped(inner) }
        }
        return link
    }

    static func percentDecoded(_ text: Substring) -> String {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x25, i + 2 < bytes.count, let high = HexDigits.value(bytes[i + 1]),
                let low = HexDigits.value(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i] == 0x2B ? 0x20 : bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether a link joins a meeting of a known service: its host, and
    /// where a service also links to help or settings pages, its path.
    static func isMeeting(_ link: String) -> Bool {
        guard let parts = LinkParts(link) else { return false }
        let host = parts.host, path = parts.path.lowercased()
        func on(_ domain: String) -> Bool { host == domain || host.hasSuffix("." + domain) }
        let hasPath = path.count > 1
        if on("zoom.us") || on("zoom.com") || on("zoomgov.com") {
            return ["/j/", "/my/", "/w/", "/s/", "/wc/"].contains { path.hasPrefix($0) }
        }
        if host == "meet.google.com" { return hasPath && !path.hasPrefix("/_") }
        if on("teams.microsoft.com") || on("teams.live.com") || on("teams.microsoft.us") {
            return path.hasPrefix("/l/meetup-join/") || path.hasPrefix("/meet/")
        }
        if on("webex.com") {
            return ["/meet/", "/join/", "/wbxmjs/joinservice/", "/webappng/sites/"].contains { path.hasPrefix($0) }
                || path.hasSuffix("/j.php")
        }
        if host == "meet.jit.si" || on("8x8.vc") {
            return hasPath && !["/static/", "/libs/", "/external_api", "/sounds/",
                "/images/"].contains { path.hasPrefix($0) }
        }
        if on("whereby.com") {
            // A room is its path's one segment; the site's own pages are not rooms.
            let first = path.dropFirst().prefix { $0 != "/" }
            // (On an organisation's own subdomain every path is a room.)
            let site = host == "whereby.com" || host == "www.whereby.com"
            return hasPath && !["help.whereby.com", "docs.whereby.com", "blog.whereby.com"].contains(host)
                && !(site && MeetingLink.wherebyPages.contains(String(first)))
        }
        if on("gotomeeting.com") { return path.hasPrefix("/join/") }
        if host == "meet.goto.com" { return hasPath }
        if on("bluejeans.com") { return hasPath && host != "www.bluejeans.com" && host != "support.bluejeans.com" }
        if on("chime.aws") { return hasPath }
        return false
    }
}

/// The host (lower case), path and query of an http or https link.
struct LinkParts {
    let host: String
    let path: String
    let query: Substring

    init?(_ link: String) {
        let lower = link.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            rest = link.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            rest = link.dropFirst(7)
        } else {
            return nil
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if let colon = authority.lastIndex(of: ":") { authority = authority[..<colon] }
        guard !authority.isEmpty else { return nil }
        host = authority.lowercased()
        let tail = rest[authorityEnd...]
        let queryStart = tail.firstIndex(of: "?")
        let fragment = tail.firstIndex(of: "#") ?? tail.endIndex
        path = String(tail[..<(queryStart.map { min($0, fragment) } ?? fragment)])
        query = queryStart.map { $0 < fragment ? tail[tail.index(after: $0)..<fragment] : "" } ?? ""
    }
}
