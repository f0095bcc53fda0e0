import Foundation
import Subscriptions
import Testing

/// libcurl's error buffer may hold the URL (a secret): it is told only with
/// the address taken out, and not at all when in doubt. libcurl itself
/// never prints (CURLOPT_VERBOSE and its kin are never set).
@Suite struct TransferDetailTests {
    static let url = try! SubscriptionURL(parsing: "https://alice:s3cret@cal.example.com:8443/private/token123/basic.ics?key=k9")

    @Test func aDetailIsToldWithoutTheAddress() {
        #expect(TransferFailure.detail("SSL certificate problem: self-signed certificate\n", hiding: TransferDetailTests.url)
            == "SSL certificate problem: self-signed certificate")
        let told = TransferFailure.detail("OpenSSL SSL_connect: Connection reset by peer in connection to cal.example.com:8443 ",
            hiding: TransferDetailTests.url)
        #expect(told == "OpenSSL SSL_connect: Connection reset by peer in connection to …", "\(told ?? "nil")")
        #expect(TransferFailure.detail("no alternative certificate subject name matches target host name 'CAL.example.com'",
            hiding: TransferDetailTests.url) == "no alternative certificate subject name matches target host name '…'")
    }

    /// What may still name a place is not told: a path, a user, another host.
    @Test(arguments: [
        "The requested URL returned error: https://cal.example.com/private/token123/other.ics",
        "Could not resolve host: redirected.example.org",
        "Failed to connect to 10.0.0.7 port 443",
        "Login denied for bob@cal.example.com",
        "",
    ])
    func whatMayNameAPlaceIsNotTold(buffer: String) {
        #expect(TransferFailure.detail(buffer, hiding: TransferDetailTests.url) == nil)
    }

    /// Nothing of libcurl reaches stderr: no source sets an option that makes it print.
    @Test func libcurlIsNeverToldToPrint() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        var setters: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            guard ["swift", "c", "h"].contains(url.pathExtension) else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for option in ["CURLOPT_VERBOSE,", "CURLOPT_VERBOSE)", "CURLOPT_STDERR", "CURLOPT_DEBUGFUNCTION",
                "CURLOPT_NOPROGRESS"] where text.contains(option) {
                setters.append("\(url.lastPathComponent): \(option)")
            }
        }
        #expect(setters.isEmpty, "\(setters)")
    }
}
