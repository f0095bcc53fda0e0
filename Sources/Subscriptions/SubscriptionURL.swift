import Foundation

/// A calendar's address (`https://`, `http://`, `webcal://`, read as
/// `https://`). It may be a secret (a private calendar address is a
/// password): only `redacted` is ever printed.
public struct SubscriptionURL: Sendable, Hashable {
    /// What is fetched: the address as given, `webcal://` read as `https://`.
    public let address: String
    public let isHTTPS: Bool
    /// Scheme, host (and port) and last path segment, without user,
    /// password, query or the rest of the path:
    /// `https://calendar.example.com/…/basic.ics`.
    public let redacted: String
    /// The last path segment without `.ics`: the calendar's name when it
    /// has no `X-WR-CALNAME`.
    public let defaultName: String
    /// The host: what names the cached copy beside its hash.
    let host: String

    /// Nil when `text` is not a URL of a scheme this reads.
    public init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon].lowercased()
        guard ["https", "http", "webcal", "webcals"].contains(scheme), text[colon...].hasPrefix("://") else { return nil }
        let rest = text[text.index(colon, offsetBy: 3)...]
        guard !rest.isEmpty, !rest.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true }) else { return nil }
        isHTTPS = scheme != "http"
        address = (isHTTPS ? "https://" : "http://") + rest
        // authority ends at the first '/', '?' or '#'
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let hostPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        guard !hostPort.isEmpty else { return nil }
        host = String(hostPort).lowercased()
        let pathEnd = rest[authorityEnd...].firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        let path = rest[authorityEnd..<pathEnd]
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let last = segments.last.map { SubscriptionURL.percentDecoded(String($0)) } ?? ""
        let shownScheme = isHTTPS ? "https" : "http"
        switch segments.count {
        case 0: redacted = "\(shownScheme)://\(host)/"
        case 1: redacted = "\(shownScheme)://\(host)/\(last)"
        default: redacted = "\(shownScheme)://\(host)/…/\(last)"
        }
        let lower = last.lowercased()
        let base = lower.hasSuffix(".ics") || lower.hasSuffix(".ical") ? String(last[..<last.lastIndex(of: ".")!]) : last
        defaultName = base.isEmpty ? host : base
    }

    /// `%41` read as `A`; a sequence that is not UTF-8 is kept as written.
    static func percentDecoded(_ text: String) -> String {
        text.removingPercentEncoding ?? text
    }

    /// A name for the cached copy that does not give the address away:
    /// the host, then a hash of the whole address.
    var cacheKey: String {
        let safeHost = String(host.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }.prefix(64))
        return "\(safeHost)-\(Self.hex(Self.fnv1a(address, basis: 0xcbf2_9ce4_8422_2325)))\(Self.hex(Self.fnv1a(address, basis: 0x8422_2325_cbf2_9ce4)))"
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
