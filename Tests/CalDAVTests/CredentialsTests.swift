import AgendaSystem
import Foundation
import Testing

@testable import Subscriptions

/// The one rule for logins (`Credentials`) and the credential helper's
/// run (`HelperProcess`), without the network: what the rule decides for
/// a place, and how a helper that hangs, floods or leaves is ended.
@Suite struct CredentialsTests {
    /// A folder of its own, removed after.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-cred-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A netrc of the owner's alone, with alice's password for `host`.
    static func netrc(for host: String, in folder: URL) throws -> [String: String] {
        let path = folder.appendingPathComponent("netrc")
        try "machine \(host) login alice password wonderland\n".write(to: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path.path)
        return ["NETRC": path.path]
    }

    static func account(_ text: String) throws -> Credentials.Place {
        Credentials.Place(try DAVAccount(parsing: text))
    }

    /// A dav:// account on a host that is not loopback: the netrc's
    /// password is not sent (it is not even looked for), and a 401 says
    /// why; over davs://, or to loopback, it is.
    @Test func aStoredPasswordIsNotSentOverPlainHTTPButToLoopback() throws {
        let folder = try CredentialsTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let credentials = Credentials(environment: try CredentialsTests.netrc(for: "calendar.example.com", in: folder))
        let plain = credentials.login(for: try CredentialsTests.account("dav://calendar.example.com/dav/"))
        #expect(plain.login == nil)
        #expect(plain.source == .none)
        #expect(Credentials.refusedLogin(status: 401, choice: plain) == "the server refused the login (HTTP 401): no " +
            "password was sent (a password of --credential-helper or $NETRC is never sent over plain http but to a " +
            "loopback address (write https:// or davs://))")
        let secure = credentials.login(for: try CredentialsTests.account("davs://calendar.example.com/dav/"))
        #expect(secure.login == Netrc.Login(user: "alice", password: "wonderland"))
        #expect(secure.source == .netrc("$NETRC"))
        let local = Credentials(environment: try CredentialsTests.netrc(for: "127.0.0.1", in: folder))
        #expect(local.login(for: try CredentialsTests.account("dav://127.0.0.1:8080/")).source == .netrc("$NETRC"))
        #expect(credentials.takeWarnings().isEmpty)
    }

    /// A URL that carries its own password over plain HTTP is refused,
    /// but to loopback; over HTTPS it is its own login.
    @Test func aURLsOwnPasswordOverPlainHTTPIsRefused() throws {
        let plain = Credentials.Place(SubscriptionURL("http://alice:pw@calendar.invalid/x.ics")!)
        #expect(Credentials.refusal(for: plain) == "a password is never sent over plain http but to a loopback " +
            "address: write https:// for this server; left out")
        #expect(Credentials.refusal(for: try CredentialsTests.account("dav://alice:pw@calendar.invalid/"),
            davScheme: true)?.contains("write davs://") == true)
        #expect(Credentials.refusal(for: Credentials.Place(SubscriptionURL("http://alice:pw@127.0.0.1:80/x")!)) == nil)
        #expect(Credentials.refusal(for: Credentials.Place(SubscriptionURL("https://alice:pw@example.com/x")!)) == nil)
        #expect(Credentials.refusal(for: Credentials.Place(SubscriptionURL("http://alice@example.com/x")!)) == nil)
        let own = Credentials(environment: ["NETRC": "/dev/null"])
            .login(for: Credentials.Place(SubscriptionURL("https://alice:pw@example.com/x")!))
        #expect(own.source == .url && own.login == nil)  // libcurl reads it from the URL
    }

    /// What the helper is told: the host with a port only when it is not
    /// the scheme's own, the path without its `/` and query, the user.
    @Test func theHelperIsToldProtocolHostPathAndUser() throws {
        func told(_ url: String) -> String {
            String(decoding: CredentialHelper.request(for: Credentials.Place(SubscriptionURL(url)!)) ?? [],
                as: UTF8.self)
        }
        #expect(told("https://cal.example.com:443/a/b.ics?token=x") ==
            "protocol=https\nhost=cal.example.com\npath=a/b.ics\n\n")
        #expect(told("webcal://bob@cal.example.com:8443/") ==
            "protocol=https\nhost=cal.example.com:8443\npath=\nusername=bob\n\n")
        #expect(told("http://cal.example.com:80/x") == "protocol=http\nhost=cal.example.com\npath=x\n\n")
        #expect(told("https://a%0Ab@cal.example.com/x").isEmpty, "a line end in a value is never told")
        #expect(CredentialHelper.fields(of: Array("username=al=ice\r\npassword=p w\nother\npassword=2\n".utf8))
            == ["username": "al=ice", "password": "p w"])
    }

    /// A refused login names where the password came from.
    @Test func aRefusedLoginNamesItsSource() {
        func words(_ source: Credentials.Source, _ why: String? = nil) -> String {
            Credentials.refusedLogin(status: 403, choice: Credentials.Choice(login: nil, source: source, whyNone: why))
        }
        #expect(words(.url) == "the server refused the login (HTTP 403): the password written in the URL is wrong")
        #expect(words(.helper("pass-cal")).hasSuffix(": the password --credential-helper pass-cal gave is wrong"))
        #expect(words(.netrc("~/.netrc")).hasSuffix(": the password in ~/.netrc is wrong"))
        #expect(words(.none, "~/.netrc has none for this host").hasSuffix(
            ": no password was sent (~/.netrc has none for this host)"))
        #expect(Credentials.refusedLogin(status: 401, choice: nil) == "the server refused the login (HTTP 401)")
    }

    /// A helper that runs past its limit is killed (with what it started)
    /// and told once; the place is then without a password, and the
    /// helper is not asked again for it.
    @Test func aHelperThatHangsIsStoppedAndToldOnce() throws {
        let folder = try CredentialsTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let calls = folder.appendingPathComponent("calls")
        let credentials = Credentials(environment: ["NETRC": "/dev/null"],
            helper: ["/bin/sh", "-c", "echo >> '\(calls.path)'; sleep 30", "hang-helper"], helperTimeLimit: 0.5)
        let place = Credentials.Place(SubscriptionURL("https://cal.example.com/a.ics")!)
        let started = Date()
        let first = credentials.login(for: place)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(first.login == nil && first.source == .none)
        #expect(credentials.login(for: place) == first)
        #expect(try String(contentsOf: calls, encoding: .utf8) == "\n", "asked once")
        #expect(credentials.takeWarnings() == ["--credential-helper sh took longer than 1 s and was stopped " +
            "(asked for cal.example.com): read without a password"])
        #expect(credentials.takeWarnings().isEmpty)
    }

    /// The run's ends: a helper that floods its output is stopped; one that
    /// leaves without reading what it is told is no SIGPIPE here; runs leave
    /// no descriptor behind.
    @Test func aHelpersRunEndsCleanly() throws {
        let flood = HelperProcess(arguments: ["/bin/sh", "-c", "head -c 1000000 /dev/zero"], timeLimit: 10)
        #expect(flood.run(request: Array("x\n".utf8)) == .tooLong)
        let deaf = HelperProcess(arguments: ["/bin/sh", "-c", "echo password=p"], timeLimit: 10)
        #expect(deaf.run(request: [UInt8](repeating: 0x41, count: 1 << 20)) == .answered(Array("password=p\n".utf8)))
        #expect(HelperProcess(arguments: ["/nonexistent/helper"]).run(request: []) == .notStarted(ENOENT))
        #expect(HelperProcess(arguments: ["/bin/sh", "-c", "exit 4"]).run(request: []) == .exited(4))
        func descriptors() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count }
        let before = try descriptors()
        for _ in 0..<100 { _ = HelperProcess(arguments: ["/bin/true"]).run(request: Array("a\n".utf8)) }
        // Other tests open and close descriptors meanwhile: a leak would be 2 a run.
        #expect(try descriptors() < before + 50)
    }
}
