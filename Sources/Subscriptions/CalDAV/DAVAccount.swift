import Foundation

/// A CalDAV account as the user names it: `davs://HOST[:PORT][/PATH]`
/// (HTTPS) or `dav://...` (HTTP). Its path and any user or password in it
/// may be secrets: only `redacted` is ever printed.
package struct DAVAccount: Sendable, Hashable {
    /// `https://host[:port]` or `http://...`: where requests go, without user or password.
    package let origin: String
    /// The path as written (percent-encoded), `/` when none.
    package let path: String
    let isHTTPS: Bool
    /// The host alone, lower case, without port or brackets.
    let hostName: String
    /// User and password written in the URL, percent-decoded.
    let user: String?
    let password: String?
    /// `davs://host/…` (`davs://host/` for the root): never the path, user or password.
    package let redacted: String

    static let schemes = ["davs", "dav"]

    /// Whether `text` is meant as a CalDAV account (`dav://` or `davs://`).
    package static func isMeant(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return schemes.contains { trimmed.hasPrefix($0 + "://") }
    }

    /// Reads the URL as a subscription's is read (`SubscriptionURL`), with
    /// `davs` for `https` and `dav` for `http`.
    package init(parsing text: String) throws(SubscriptionURL.Invalid) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let colon = trimmed.firstIndex(of: ":")!
        let scheme = trimmed[..<colon].lowercased()
        isHTTPS = scheme == "davs"
        let shown = isHTTPS ? "davs" : "dav"
        let url: SubscriptionURL
        do {
            url = try SubscriptionURL(parsing: (isHTTPS ? "https" : "http") + trimmed[colon...])
        } catch {
            throw SubscriptionURL.Invalid(scheme: shown, reason: error.reason)
        }
        if url.address.contains("?") {
            throw SubscriptionURL.Invalid(scheme: shown, reason: "a CalDAV account's address has no query (?...)")
        }
        origin = (isHTTPS ? "https://" : "http://") + url.host
        hostName = url.hostName
        user = url.user
        // The password, as written after the user's `:` (percent-decoded).
        let afterScheme = url.address[url.address.range(of: "://")!.upperBound...]
        let authority = afterScheme.prefix { $0 != "/" }
        if url.hasPassword, let at = authority.lastIndex(of: "@"), let sep = authority[..<at].firstIndex(of: ":") {
            password = SubscriptionURL.percentDecoded(String(authority[authority.index(after: sep)..<at]))
        } else {
            password = nil
        }
        let rest = String(afterScheme.dropFirst(authority.count))
        path = rest.isEmpty ? "/" : rest
        redacted = "\(shown)://\(url.host)/" + (path == "/" ? "" : "…")
    }

    /// The address of `path` (an href, `/...`) on the account's origin, or
    /// `path` itself when it is a whole URL; percent-encoded (`DAVHref.encoded`).
    func address(_ path: String) -> String {
        let encoded = DAVHref.encoded(path)
        if encoded.lowercased().hasPrefix("http://") || encoded.lowercased().hasPrefix("https://") { return encoded }
        return origin + (encoded.hasPrefix("/") ? encoded : "/" + encoded)
    }

    /// Whether `host` (a name or address, lower case) is a loopback
    /// address, where plain HTTP may carry a password (tests, a local proxy).
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        // An IPv4 address in 127.0.0.0/8, read as an address: `127.example.com` is a name, not loopback.
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return false }
        return UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    /// The part of a host name that one owner holds (`icloud.com` for
    /// `p42-caldav.icloud.com`): its last two labels, or three under a
    /// known two-label public suffix (`example.co.uk`). An address is
    /// itself. Not the whole Public Suffix List: a suffix it does not know
    /// gives a domain too wide only for hosts under such a suffix.
    static func registrableDomain(_ host: String) -> String {
        if host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) { return host }
        let labels = host.split(separator: ".").map(String.init)
        guard labels.count > 2 else { return host }
        let lastTwo = labels.suffix(2).joined(separator: ".")
        let secondLevel = ["co", "com", "net", "org", "ac", "gov", "edu", "or", "ne"]
        let take = secondLevel.contains(labels[labels.count - 2]) && labels.last!.count == 2 ? 3 : 2
        return take == 2 ? lastTwo : labels.suffix(3).joined(separator: ".")
    }

    /// A name for the copy's folder that gives away neither path nor user:
    /// the host, then a hash of scheme, user, host and path.
    var cacheKey: String {
        let host = origin.split(separator: "/").last.map(String.init) ?? hostName
        let safeHost = String(host.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }.prefix(64))
        return "caldav-\(safeHost)-\(DAVAccount.hash("\(isHTTPS) \(user ?? "") \(origin)\(path)"))"
    }

    /// 128 bits of FNV-1a, in hex: file names that say nothing of what they name.
    static func hash(_ text: String) -> String {
        func fnv(_ basis: UInt64) -> String {
            var hash = basis
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            let digits = String(hash, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return fnv(0xcbf2_9ce4_8422_2325) + fnv(0x8422_2325_cbf2_9ce4)
    }
}
