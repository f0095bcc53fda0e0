import Foundation
import Testing

/// The one rule for credentials (CONTRACT.md, *Subscriptions*,
/// Credentials), against the fault server's `/auth/...` paths (basic auth
/// alice:wonderland; `/authorization/PATH` says what each request sent):
/// the URL's own, else `--credential-helper`, else a netrc others cannot
/// read; never a password over plain HTTP but to loopback; a refused login
/// says where its password came from.
@Suite struct CredentialTests {
    typealias Run = SubscriptionTests.Run

    /// A path of its own under `/auth/`.
    static func private_() -> String { "/auth/\(UUID().uuidString).ics" }

    /// A credential helper written as a shell script into the run's
    /// folder: it keeps what it was told (`told`) and its arguments, one
    /// line a run (`calls`), then runs `body`.
    struct Helper {
        let path: URL
        let told: URL
        let calls: URL

        init(in folder: URL, named name: String = "cal-helper", _ body: String) throws {
            path = folder.appendingPathComponent(name)
            told = folder.appendingPathComponent("told.txt")
            calls = folder.appendingPathComponent("calls.txt")
            try """
                #!/bin/sh
                echo "$*" >> '\(calls.path)'
                cat > '\(told.path)'
                \(body)

                """.write(to: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path.path)
        }

        /// Its arguments, one line a run; none when it never ran.
        func runs() -> [String] {
            ((try? String(contentsOf: calls, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    /// The Authorization header each request of `path` sent (`-`: none).
    static func authorizations(_ server: LoopbackServer, _ path: String) throws -> [String] {
        try server.ask("/authorization" + path).split(separator: "\n").map(String.init)
    }

    static let alice = "Basic " + Data("alice:wonderland".utf8).base64EncodedString()

    /// The helper's password is sent; it was told the protocol, host and
    /// path (and was asked once for two URLs of one path); it is not run
    /// for a copy read as it is, nor with --offline; nothing of the
    /// password is printed or kept.
    @Test func aCredentialHelpersPasswordIsSent() throws {
        let server = try SubscriptionTests.fault
        let run = try Run()
        let helper = try Helper(in: run.cache, "printf 'username=alice\\npassword=wonderland\\nquit=1\\n'")
        let path = CredentialTests.private_()
        let url = server.base() + path
        let result = try run(["--credential-helper", "'\(helper.path.path)' --extra", url, url + "?again"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.contains("Private event"))
        #expect(helper.runs() == ["--extra get"])
        let told = try String(contentsOf: helper.told, encoding: .utf8)
        #expect(told == "protocol=http\nhost=127.0.0.1:\(server.port)\npath=\(path.dropFirst())\n\n")
        #expect(try CredentialTests.authorizations(server, path) == [CredentialTests.alice, CredentialTests.alice])
        _ = try run(["--credential-helper", helper.path.path, url])
        _ = try run(["--credential-helper", helper.path.path, "--offline", url])
        #expect(helper.runs().count == 1, "a fresh copy needs no password: \(helper.runs())")
        for copy in try run.copies() {
            #expect(!(try String(contentsOf: copy, encoding: .utf8)).contains("wonderland"))
        }
    }

    /// `--credential-helper` is a configuration line like any option; a
    /// helper that gives a password alone goes with the URL's user.
    @Test func aConfiguredHelperIsRun() throws {
        let server = try SubscriptionTests.fault
        var run = try Run()
        let helper = try Helper(in: run.cache, "echo password=wonderland")
        try run.configure("--credential-helper \(helper.path.path)\n")
        let path = CredentialTests.private_()
        let result = try CLI.run(["--days", "7", "--now", "2025-03-01T08:00:00+01:00",
            "http://alice@127.0.0.1:\(server.port)\(path)"], environment: run.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Private event"))
        #expect(helper.runs() == ["get"])
        #expect(try String(contentsOf: helper.told, encoding: .utf8).hasSuffix("\nusername=alice\n\n"))
    }

    /// A helper that fails, prints no password or cannot be run is told in
    /// one warning however many inputs it was asked for; they are read
    /// without a password (and the 401 says why).
    @Test(arguments: [("exit 3", "exited with status 3"), ("echo username=alice", "gave no password"),
        ("", "cannot be run: No such file or directory")])
    func aHelperThatGivesNoPasswordIsToldOnce(_ body: String, _ reason: String) throws {
        let server = try SubscriptionTests.fault
        let run = try Run()
        let helper = try Helper(in: run.cache, body)
        let program = body.isEmpty ? run.cache.appendingPathComponent("no-such-helper").path : helper.path.path
        let name = (program as NSString).lastPathComponent
        let paths = [CredentialTests.private_(), CredentialTests.private_()]
        let result = try run(["--credential-helper", program] + paths.map { server.base() + $0 })
        #expect(result.status == 66)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines.first == "ics-agenda: warning: --credential-helper \(name) \(reason) (asked for " +
            "127.0.0.1:\(server.port)): read without a password", "\(result.stderr)")
        #expect(lines.dropFirst().allSatisfy {
            $0.contains("cannot fetch: the server refused the login (HTTP 401): no password was sent " +
                "(--credential-helper \(name) \(reason))")
        }, "\(result.stderr)")
        for path in paths { #expect(try CredentialTests.authorizations(server, path) == ["-"]) }
    }

    /// A netrc its group or others can read gives no password: one warning
    /// a run, and the 401 says so; made private, it is used. A FIFO
    /// (`NETRC=<(pass show netrc)`) is not held to it.
    @Test func aNetrcOthersCanReadGivesNoPassword() throws {
        let server = try SubscriptionTests.fault
        var run = try Run()
        run.environment["NETRC"] = nil  // ~/.netrc, HOME being the cache folder
        let netrc = run.cache.appendingPathComponent(".netrc")
        try "machine 127.0.0.1 login alice password wonderland\n".write(to: netrc, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: netrc.path)
        let paths = [CredentialTests.private_(), CredentialTests.private_()]
        let exposed = try run(paths.map { server.base() + $0 })
        #expect(exposed.status == 66)
        let warning = "~/.netrc can be read by other users: its passwords are not used (chmod 600 ~/.netrc)"
        #expect(exposed.stderr.components(separatedBy: "ics-agenda: warning: \(warning)\n").count == 2,
            "\(exposed.stderr)")
        #expect(exposed.stderr.contains("the server refused the login (HTTP 401): no password was sent (\(warning))"),
            "\(exposed.stderr)")
        for path in paths { #expect(try CredentialTests.authorizations(server, path) == ["-"]) }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: netrc.path)
        let kept = try run(paths.map { server.base() + $0 })
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stderr.isEmpty, "\(kept.stderr)")
        let fifo = run.cache.appendingPathComponent("netrc.fifo")
        try #require(mkfifo(fifo.path, 0o644) == 0)
        let writer = Process()
        // Bounded: were the FIFO never opened, its writer would wait forever.
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        writer.arguments = ["-s", "KILL", "10", "/bin/sh", "-c", "cat \"$0\" > \"$1\"", netrc.path, fifo.path]
        try writer.run()
        run.environment["NETRC"] = fifo.path
        let streamed = try run([server.base() + CredentialTests.private_()])
        writer.waitUntilExit()
        #expect(streamed.status == 0, "\(streamed.stderr)")
    }

    /// An http:// URL that carries a password for a host that is not
    /// loopback is told and left out before anything is asked; the other
    /// inputs are printed, status 66; no helper is run for it.
    @Test func aPasswordIsNeverSentOverPlainHTTPToAnotherHost() throws {
        var run = try Run()
        let helper = try Helper(in: run.cache, "echo password=wonderland")
        // Were it asked after all, it would go to a port of loopback that nothing serves.
        run.environment["http_proxy"] = "http://127.0.0.1:1"
        let result = try run(["--credential-helper", helper.path.path, "http://alice:pw@calendar.invalid/x.ics",
            "Fixtures/sample.ics"])
        #expect(result.status == 66)
        #expect(!result.stdout.isEmpty)
        #expect(result.stderr == "ics-agenda: http://calendar.invalid/x.ics: a password is never sent over plain " +
            "http but to a loopback address: write https:// for this server; left out\n", "\(result.stderr)")
        #expect(helper.runs().isEmpty)
    }

    /// A refused login says where its password came from.
    @Test(arguments: ["url", "helper", "~/.netrc", "$NETRC", "none"])
    func aRefusedLoginNamesWhereItsPasswordCameFrom(_ source: String) throws {
        let server = try SubscriptionTests.fault
        var run = try Run()
        let path = CredentialTests.private_()
        var arguments = [server.base() + path]
        let netrc = run.cache.appendingPathComponent(source == "~/.netrc" ? ".netrc" : "netrc")
        try CLI.writePrivately("machine 127.0.0.1 login alice password wrong\n", to: netrc)
        let expected: String
        switch source {
        case "url":
            arguments = ["http://alice:wrong@127.0.0.1:\(server.port)\(path)"]
            expected = "the password written in the URL is wrong"
        case "helper":
            let helper = try Helper(in: run.cache, "echo password=wrong")
            arguments = ["--credential-helper", helper.path.path] + arguments
            expected = "the password --credential-helper cal-helper gave is wrong"
        case "~/.netrc":
            run.environment["NETRC"] = nil
            expected = "the password in ~/.netrc is wrong"
        case "$NETRC":
            run.environment["NETRC"] = netrc.path
            expected = "the password in $NETRC is wrong"
        default:
            expected = "no password was sent ($NETRC has none for this host)"
        }
        let result = try run(arguments)
        #expect(result.status == 66)
        #expect(result.stderr.contains("cannot fetch: the server refused the login (HTTP 401): \(expected);"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("wrong@") && !result.stderr.contains("password wrong"))
    }
}
