import Foundation

/// A calendar's address (`https://`, `http://`, `webcal://`, read as
/// `https://`). It may be a secret (a private calendar address is a
/// password): only `redacted` is ever printed.
package struct SubscriptionURL: Sendable, Hashable {
    /// What is fetched: the address as given, `webcal://` read as `https://`.
    package let address: String
    let isHTTPS: Bool
    /// Scheme, host (and port) and last path segment, without user,
    /// password, query or the rest of the path:
    /// `https://calendar.example.com/…/basic.ics`.
    package let redacted: String
    /// The last path segment without `.ics`: the calendar's name when it
    /// has no `X-WR-CALNAME`.
    package let defaultName: String
    /// The host (and port): what names the cached copy beside its hash.
    let host: String
    /// The host alone, without port or brackets, in lower case: what a
    /// netrc's `machine` names (as curl matches it).
    let hostName: String
    /// The user the URL names (`https://USER[:PASSWORD]@host/...`),
    /// percent-decoded, or nil. A URL that names one brings its own
    /// credentials: they win over the netrc's, as in libcurl.
    let user: String?
    /// Whether the URL names a password too.
    let hasPassword: Bool

    /// A URL that cannot be fetched, and why (in words that quote none of it).
    package struct Invalid: Error, CustomStringConvertible {
        package let scheme: String
        package let reason: String
        /// All that is printed of it: its scheme.
        package var description: String { "\(scheme)://…: not a URL that can be fetched: \(reason)" }
    }

    static let schemes = ["https", "http", "webcal", "webcals"]

    /// Whether `text` is meant as a URL: it starts with a scheme this
    /// reads and `://` (blanks around it aside). Such text is never read
    /// as a file name, and never printed whole.
    package static func isMeant(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return schemes.contains { trimmed.hasPrefix($0 + "://") }
    }

    /// Nil when `text` is not a URL of a scheme this reads, or not one
    /// that can be fetched.
    package init?(_ text: String) {
        guard let url = try? SubscriptionURL(parsing: text) else { return nil }
        self = url
    }

    /// Reads a URL as RFC 3986 reads it: the authority ends at the first
    /// `/`, `?` or `#`; user and password come before its last `@`; the
    /// host is a name, an IPv4 or a bracketed IPv6 address, the port
    /// digits. Blanks around it (a line end copied along) are left out; a
    /// fragment is not sent.
    package init(parsing text: String) throws(Invalid) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let colon = trimmed.firstIndex(of: ":") else { throw Invalid(scheme: "?", reason: "it has no scheme") }
        let scheme = trimmed[..<colon].lowercased()
        guard SubscriptionURL.schemes.contains(scheme), trimmed[colon...].hasPrefix("://") else {
            throw Invalid(scheme: "?", reason: "its scheme is not https, http or webcal")
        }
        isHTTPS = scheme != "http"
        let shownScheme = isHTTPS ? "https" : "http"
        let rest = trimmed[trimmed.index(colon, offsetBy: 3)...]
        if rest.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            throw Invalid(
                scheme: shownScheme, reason: "it has a blank or a control character in it (write a blank as %20)")
        }
        let withoutFragment = rest[..<(rest.firstIndex(of: "#") ?? rest.endIndex)]
        let authorityEnd = withoutFragment.firstIndex { $0 == "/" || $0 == "?" } ?? withoutFragment.endIndex
        let authority = withoutFragment[..<authorityEnd]
        let at = authority.lastIndex(of: "@")
        let hostPort = at.map { authority[authority.index(after: $0)...] } ?? authority
        guard let (host, port) = SubscriptionURL.hostAndPort(hostPort) else {
            throw Invalid(
                scheme: shownScheme,
                reason: "it names no host that can be reached (a password with /, ? or # in it is written "
                    + "%2F, %3F, %23; better, it goes in ~/.netrc)")
        }
        self.host = host + (port.map { ":\($0)" } ?? "")
        hostName = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        let userInfo = at.map { authority[..<$0] }
        let userPart = userInfo.map { $0[..<($0.firstIndex(of: ":") ?? $0.endIndex)] }
        user = userPart.flatMap { $0.isEmpty ? nil : SubscriptionURL.percentDecoded(String($0)) }
        hasPassword = userInfo?.contains(":") ?? false
        address = "\(shownScheme)://\(userInfo.map { "\($0)@" } ?? "")\(self.host)\(withoutFragment[authorityEnd...])"
        let pathEnd = withoutFragment[authorityEnd...].firstIndex(of: "?") ?? withoutFragment.endIndex
        let segments = withoutFragment[authorityEnd..<pathEnd].split(separator: "/", omittingEmptySubsequences: true)
        let last = segments.last.map { SubscriptionURL.percentDecoded(String($0)) } ?? ""
        switch segments.count {
        case 0: redacted = "\(shownScheme)://\(self.host)/"
        case 1: redacted = "\(shownScheme)://\(self.host)/\(last)"
        default: redacted = "\(shownScheme)://\(self.host)/…/\(last)"
        }
        let lower = last.lowercased()
        let base =
            lower.hasSuffix(".ics") || lower.hasSuffix(".ical") ? String(last[..<last.lastIndex(of: ".")!]) : last
        defaultName = base.isEmpty ? host : base
    }

    /// The host (lower case) and port of an authority without its user, or
    /// nil when it holds something else.
    static func hostAndPort(_ text: Substring) -> (String, String?)? {
        var host = text
        var port: Substring? = nil
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[...close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                port = after.dropFirst()
            }
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return nil
            }
        } else {
            if let colon = text.lastIndex(of: ":") {
                host = text[..<colon]
                port = text[text.index(after: colon)...]
            }
            let allowed = { (c: Character) in
                c.isASCII && (c.isLetter || c.isNumber || c == "." || c == "-" || c == "_" || c == "~" || c == "%")
            }
            guard !host.isEmpty, host.allSatisfy(allowed) else { return nil }
        }
        if let port, !port.isEmpty {
            guard port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(port), n > 0, n < 65536
            else { return nil }
            return (host.lowercased(), String(port))
        }
        return port == nil || port!.isEmpty ? (host.lowercased(), nil) : nil
    }

    /// `%41` read as `A`; a sequence that is not UTF-8 is kept as written.
    static func percentDecoded(_ text: String) -> String {
        text.removingPercentEncoding ?? text
    }

    /// A name for the cached copy that does not give the address away:
    /// the host, then a hash of the whole address.
    var cacheKey: String {
        let safeHost = String(host.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }.prefix(64))
        let first = Self.hex(Self.fnv1a(address, basis: 0xcbf2_9ce4_8422_2325))
        let second = Self.hex(Self.fnv1a(address, basis: 0x8422_2325_cbf2_9ce4))
        return "\(safeHost)-\(first)\(second)"
    }

    private static func fnv1a(_ text: String, basis: UInt64) -> UInt64 {
        var hash = basis
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
