internal import CCurl
import Foundation

/// What a failed transfer is told as: each libcurl result in words of its
/// own, so that a warning names what went wrong, not a neighbour of it
/// (an answer that is not HTTP was once told as a redirect). libcurl's
/// error buffer may hold a part of the URL, a secret: it is never quoted as
/// it is; only where the words alone say little (TLS, a code without words
/// of its own), and only with the address taken out (`detail`).
package enum TransferFailure {
    /// Why `transfer`, ended with `code`, failed, in words; nil when it did not.
    static func reason(_ code: CURLcode, transfer: CurlTransfer) -> String? {
        let limits = transfer.limits
        if transfer.tooLarge || code == CURLE_FILESIZE_EXCEEDED { return "larger than \(limits.maxBytes >> 20) MB" }
        return words(
            for: code, redirectRefused: transfer.redirectRefused, isHTTPS: transfer.url.isHTTPS, limits: limits,
            detail: transfer.detail)
    }

    /// Why a transfer that ended with `code` failed; nil for `CURLE_OK`.
    /// - Parameter redirectRefused: a redirect was followed to an address
    ///   of a scheme the URL may not go to (`CurlTransfer.redirectRefused`).
    /// - Parameter detail: libcurl's detail, already through `detail(_:hiding:)`.
    static func words(for code: CURLcode, redirectRefused: Bool, isHTTPS: Bool, limits: CurlTransfer.Limits,
        detail: String? = nil) -> String?
    {
        /// The detail in brackets, when it says more than libcurl's words for the code.
        var more: String {
            guard let detail, detail.lowercased() != libcurl(code).lowercased() else { return "" }
            return " (\(detail))"
        }
        switch code {
        case CURLE_OK: return nil
        // libcurl gives the same code for a redirect to a scheme refused and
        // (7.66 and later) for an answer without a status line, HTTP/0.9.
        case CURLE_UNSUPPORTED_PROTOCOL where redirectRefused:
            return isHTTPS
                ? "redirected from https to another scheme (refused)"
                : "redirected to a scheme other than http or https (refused)"
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_WEIRD_SERVER_REPLY:
            return "the server's answer is not HTTP as it must be (no status line, or a line of its header that " +
                "cannot be read)"
        case CURLE_OPERATION_TIMEDOUT:
            return "timed out (\(limits.connectSeconds) s to connect, \(limits.totalSeconds) s in all)"
        case CURLE_COULDNT_RESOLVE_HOST: return "unknown host"
        case CURLE_COULDNT_RESOLVE_PROXY: return "unknown proxy host (as http_proxy or https_proxy names it)"
        case CURLE_COULDNT_CONNECT: return "could not connect"
        case CURLE_PROXY: return "the proxy refused or broke the connection"
        case CURLE_TOO_MANY_REDIRECTS: return "more than \(limits.maxRedirects) redirects"
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR: return "the transfer was cut short"
        case CURLE_SEND_ERROR: return "the connection broke while the request was sent"
        case CURLE_GOT_NOTHING: return "the server closed the connection without an answer"
        case CURLE_BAD_CONTENT_ENCODING: return "the server's compressed body is damaged"
        case CURLE_HTTP2, CURLE_HTTP2_STREAM: return "the server broke the HTTP/2 exchange"
        case CURLE_HTTP3, CURLE_QUIC_CONNECT_ERROR: return "the server broke the HTTP/3 exchange"
        case CURLE_LOGIN_DENIED, CURLE_AUTH_ERROR: return "the server refused the login"
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_CRL_BADFILE:
            return "TLS: the server's certificate could not be verified: \(libcurl(code))\(more)"
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CIPHER: return "TLS: the handshake with the server failed\(more)"
        case CURLE_SSL_CERTPROBLEM, CURLE_SSL_CLIENTCERT, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_USE_SSL_FAILED:
            return "TLS: \(libcurl(code))\(more)"
        case CURLE_WRITE_ERROR: return "the body could not be kept in memory"
        // libcurl 7.x gives this code for a header line past its 100 KB too: far the likelier of the two.
        case CURLE_OUT_OF_MEMORY: return "the server's answer has a header line too long to read (over 100 KB), or " +
            "memory ran out"
        case CURLE_URL_MALFORMAT: return "libcurl cannot read the address"
        case CURLE_FAILED_INIT: return "libcurl could not start the transfer"
        default: return libcurl(code) + more
        }
    }

    /// libcurl's error buffer as it may be told: the address taken out (the
    /// whole URL, then each piece of it: user, password, host, port, path
    /// segments, query), on one line, at most 200 characters. Nil when
    /// nothing is left, or when what is left may still name a place: a `/`,
    /// `@` or `://`, or a dotted name (a host reached by a redirect, which is
    /// not this URL's). If in doubt, nothing is quoted.
    package static func detail(_ buffer: String, hiding url: SubscriptionURL) -> String? {
        var text = String(buffer.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        let address = url.address
        let afterScheme = address.range(of: "://").map { String(address[$0.upperBound...]) } ?? address
        var pieces = [address, afterScheme, url.host, url.hostName] + [url.user].compactMap { $0 }
        for piece in afterScheme.split(whereSeparator: { "/?#&=@:;,[]".contains($0) }).map(String.init) {
            pieces.append(piece)
            if let decoded = piece.removingPercentEncoding { pieces.append(decoded) }
        }
        for piece in Set(pieces).filter({ $0.count >= 2 }).sorted(by: { $0.count > $1.count }) {
            text = text.replacingOccurrences(of: piece, with: "…", options: .caseInsensitive)
        }
        text = text.trimmingCharacters(in: .whitespaces)
        if text.isEmpty || text.count > 200 || text.contains("/") || text.contains("@") { return nil }
        let scalars = Array(text.unicodeScalars)
        let isNamePart = { (s: Unicode.Scalar) in CharacterSet.alphanumerics.contains(s) || s == "-" }
        for i in scalars.indices.dropFirst().dropLast() where scalars[i] == "."
            && isNamePart(scalars[i - 1]) && isNamePart(scalars[i + 1]) {
            return nil
        }
        return text
    }

    /// libcurl's own words for `code` (`curl_easy_strerror`): they name no URL.
    private static func libcurl(_ code: CURLcode) -> String {
        String(cString: ics_curl_easy_strerror(code))
    }
}
