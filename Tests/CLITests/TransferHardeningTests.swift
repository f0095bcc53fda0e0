import Foundation
import Testing

/// The transfer layer against what a server, the disk, the clock or the
/// environment can hand it (issue 46), each as a class: validators that
/// are not well formed, files that are not regular files, a copy from the
/// future, a netrc that can be read once, failures told in their own words.
/// Against the project's fault server, each test with its own cache.
@Suite struct TransferHardeningTests {
    typealias Run = SubscriptionTests.Run

    static var fault: LoopbackServer { get throws { try LoopbackServer.fault.get() } }

    /// A run that is stopped after `seconds`: a run that blocks (on a FIFO)
    /// fails the test instead of holding the suite for ever.
    static func bounded(_ run: Run, _ arguments: [String], fixed: Bool = true, seconds: Double = 45) throws
        -> CLI.Result
    {
        let folder = run.cache.appendingPathComponent("out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("stdout")
        let err = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = (fixed ? SubscriptionTests.fixed : []) + arguments
        process.currentDirectoryURL = CLI.root
        process.environment = [
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC", "ICS_AGENDA_CONFIG": "/dev/null",
        ]
        .merging(run.environment) { $1 }
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let hung = process.isRunning
        if hung { process.terminate() }
        process.waitUntilExit()
        let stdout = try String(contentsOf: out, encoding: .utf8)
        let stderr = try String(contentsOf: err, encoding: .utf8)
        return CLI.Result(
            stdout: stdout, stderr: hung ? "HUNG after \(seconds) s\n" + stderr : stderr,
            status: hung ? -1 : process.terminationStatus)
    }

    /// The one file of the cache with this extension.
    static func file(_ run: Run, _ ext: String) throws -> URL {
        let found = try FileManager.default.contentsOfDirectory(at: run.folder, includingPropertiesForKeys: nil).filter
        { $0.pathExtension == ext }
        try #require(found.count == 1, "\(found)")
        return found[0]
    }

    /// Puts a FIFO where `file` was.
    static func fifo(at file: URL) throws {
        try FileManager.default.removeItem(at: file)
        try #require(mkfifo(file.path, 0o600) == 0)
    }

    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }

    // MARK: 1. Validators sent back raw

    /// RFC 9110 §8.8.3: a validator that is not well formed is never sent
    /// back (it would be a header of the server's choosing): the copy is
    /// asked for whole. A well-formed one still is.
    @Test(arguments: [
        "etag-control", "etag-cr", "etag-unquoted", "etag-quote", "etag-obs-text", "etag-fold", "lm-control", "lm-long",
        "lm-not-date",
    ])
    func aValidatorThatIsNotWellFormedIsNeverSentBack(_ kind: String) throws {
        let server = try TransferHardeningTests.fault
        let run = try Run()
        let path = "/validators/\(kind)/\(UUID().uuidString).ics"
        let first = try run([server.base() + path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Validated event"))
        let meta = try Data(contentsOf: TransferHardeningTests.file(run, "meta"))
        #expect(!meta.contains { ($0 < 0x20 && $0 != 0x0A) || $0 >= 0x7F }, "\(Array(meta))")
        try run.age(hours: 1)
        let second = try run([server.base() + path])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.isEmpty, "\(second.stderr)")
        #expect(try server.ask("/conditions" + path) == "'-' '-'\n'-' '-'")
    }

    @Test func aWellFormedValidatorIsSentBack() throws {
        let server = try TransferHardeningTests.fault
        let run = try Run()
        let path = "/validators/good/\(UUID().uuidString).ics"
        _ = try run([server.base() + path])
        try run.age(hours: 1)
        let second = try run([server.base() + path])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try server.ask("/conditions" + path) == "'-' '-'\n'W/\"v1\"' 'Mon, 03 Mar 2025 08:00:00 GMT'")
    }

    /// A `.meta` file written by an older version, or edited, is read as
    /// warily as a server's answer.
    @Test(arguments: [
        "etag: \"v1\"\u{01}", "etag: \"v1\"\rX-Injected: yes", "last-modified: Mon, 03 Mar 2025 08:00:00 GMT\u{1B}",
        "etag: v1",
    ])
    func aValidatorFromTheMetaFileThatIsNotWellFormedIsNeverSent(_ line: String) throws {
        let server = try TransferHardeningTests.fault
        let run = try Run()
        let path = "/ok-\(UUID().uuidString).ics"
        _ = try run([server.base() + path])
        let copy = try TransferHardeningTests.file(run, "ics")
        let size = try Data(contentsOf: copy).count
        try Data("size: \(size)\n\(line)\n".utf8).write(to: TransferHardeningTests.file(run, "meta"))
        try run.age(hours: 1)
        let second = try run([server.base() + path])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("Served event"))
        #expect(try server.ask("/conditions" + path) == "'-' '-'\n'-' '-'")
        #expect(try server.ask("/count304" + path) == "0")
    }

    // MARK: 2. Files that are not regular files

    /// A copy that is a FIFO (or a folder, or a symbolic link) is no copy:
    /// one warning names it and why, the URL is fetched whole, and the
    /// run never waits on it.
    @Test(arguments: ["fifo", "folder", "symlink"])
    func aCopyThatIsNotARegularFileIsToldAndFetchedAgain(_ kind: String) throws {
        let server = try TransferHardeningTests.fault
        let run = try Run()
        let path = "/ok-\(UUID().uuidString).ics"
        _ = try run([server.base() + path])
        let copy = try TransferHardeningTests.file(run, "ics")
        switch kind {
        case "fifo": try TransferHardeningTests.fifo(at: copy)
        case "folder":
            try FileManager.default.removeItem(at: copy)
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: false)
        default:
            let elsewhere = run.cache.appendingPathComponent("elsewhere.ics")
            try FileManager.default.moveItem(at: copy, to: elsewhere)
            try FileManager.default.createSymbolicLink(at: copy, withDestinationURL: elsewhere)
        }
        let offline = try TransferHardeningTests.bounded(
            run, ["--offline", server.base() + path, "Fixtures/sample.ics"])
        #expect(offline.status == 66, "\(offline.stderr)")
        #expect(offline.stdout.contains("Breakfast with Ana"))
        let told = TransferHardeningTests.lines(offline.stderr).filter { $0.contains("warning") }
        #expect(told.count == 1, "\(offline.stderr)")
        #expect(offline.stderr.contains(copy.path), "\(offline.stderr)")
        #expect(
            offline.stderr.contains(kind == "symlink" ? "symbolic link" : "not a regular file"), "\(offline.stderr)")
        let result = try TransferHardeningTests.bounded(run, [server.base() + path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Served event"))
        #expect(TransferHardeningTests.lines(result.stderr).count == 1, "\(result.stderr)")
        #expect(try server.ask("/count" + path) == "2")
        #expect(try server.ask("/count304" + path) == "0")
    }

    /// A `.meta` that is a FIFO: told once, the copy is read and asked for whole.
    @Test func aMetaFileThatIsAFIFOIsToldAndNotWaitedOn() throws {
        let server = try TransferHardeningTests.fault
        let run = try Run()
        let path = "/ok-\(UUID().uuidString).ics"
        _ = try run([server.base() + path])
        let meta = try TransferHardeningTests.file(run, "meta")
        try TransferHardeningTests.fifo(at: meta)
        try run.age(hours: 1)
        let result = try TransferHardeningTests.bounded(run, [server.base() + path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Served event"))
        #expect(TransferHardeningTests.lines(result.stderr).count == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(meta.path) && result.stderr.contains("not a regular file (a FIFO)"),
            "\(result.stderr)")
        #expect(try server.ask("/conditions" + path) == "'-' '-'\n'-' '-'")
        // The new validators replaced the FIFO.
        var info = stat()
        #expect(lstat(meta.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG)
    }

    /// A cache folder that is a symbolic link (to /tmp, say) is not used:
    /// nothing is written through it, its target's mode is not changed,
    /// one warning, and the calendar is read as fetched.
    @Test func aSymlinkedCacheFolderIsNeitherUsedNorReModed() throws {
        let server = try TransferHardeningTests.fault
        let run = try Run()
        let shared = run.cache.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
        #expect(chmod(shared.path, 0o1777) == 0)
        try FileManager.default.createSymbolicLink(at: run.folder, withDestinationURL: shared)
        let path = "/ok-\(UUID().uuidString).ics"
        for _ in 0..<2 {
            let result = try TransferHardeningTests.bounded(
                run, [server.base() + path, server.base() + path + "?again"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("Served event"))
            #expect(TransferHardeningTests.lines(result.stderr).count == 1, "\(result.stderr)")
            #expect(
                result.stderr.contains("symbolic link") && result.stderr.contains("read as fetched"), "\(result.stderr)"
            )
        }
        let mode = try FileManager.default.attributesOfItem(atPath: shared.path)[.posixPermissions] as? Int
        #expect(mode == 0o1777)
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared.path).isEmpty)
        #expect(try server.ask("/count" + path) == "4")
    }

    // MARK: 4. Clock faults

    /// A copy whose time is in the future is not "less than a minute old"
    /// for ever: it is asked for again (here a 304 makes it as young as now).
    @Test func aCopyFromTheFutureIsRefreshed() throws {
        let server = try TransferHardeningTests.fault
        let run = try Run()
        let path = "/ok-\(UUID().uuidString).ics"
        let url = server.base() + path
        _ = try run([url])
        try run.age(hours: -24)
        let listed = try run(["calendars", "--no-config", "--offline", url], fixed: false)
        #expect(!listed.stdout.contains("less than a minute"), "\(listed.stdout)")
        #expect(!listed.stdout.contains("copy -"), "\(listed.stdout)")
        #expect(listed.stderr.contains("in the future"), "\(listed.stderr)")
        let json = try run(["calendars", "--no-config", "--offline", "--format", "json", url], fixed: false)
        #expect(json.stdout.contains("\"copy_age_seconds\":null"), "\(json.stdout)")
        let result = try run([url])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(try server.ask("/count" + path) == "2")
        #expect(try server.ask("/count304" + path) == "1")
        let after = try run(["calendars", "--no-config", "--offline", url], fixed: false)
        #expect(after.stdout.contains("copy less than a minute old"), "\(after.stdout)")
        #expect(after.stderr.isEmpty, "\(after.stderr)")
    }

    /// A copy from the future kept through a failed refresh says so, not a
    /// negative or a zero age.
    @Test func aCopyFromTheFutureKeptThroughAFailureSaysSo() throws {
        let server = try TransferHardeningTests.fault
        let run = try Run()
        let url = server.base() + SubscriptionTests.unique("status/500")
        _ = try run([url])
        try run.age(hours: -3)
        let result = try run([url])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Kept event"))
        #expect(TransferHardeningTests.lines(result.stderr).count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("HTTP 500") && result.stderr.contains("in the future"), "\(result.stderr)")
        #expect(!result.stderr.contains("less than a minute"), "\(result.stderr)")
    }

    /// A few seconds ahead (clocks a little apart) is young, not the future.
    @Test func aCopyAFewSecondsAheadIsYoung() throws {
        let server = try TransferHardeningTests.fault
        let run = try Run()
        let path = "/ok-\(UUID().uuidString).ics"
        _ = try run([server.base() + path])
        try run.age(hours: -10.0 / 3600)
        let result = try run([server.base() + path])
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(try server.ask("/count" + path) == "1")
    }

    // MARK: 7. Credentials for every transfer

    /// The netrc is read once a run: one that is a FIFO, fed once, gives
    /// its login to every URL of its host.
    @Test func aNetrcThatIsAFIFOGivesEveryTransferItsLogin() throws {
        let server = try TransferHardeningTests.fault
        var run = try Run()
        let netrc = run.cache.appendingPathComponent("netrc.txt")
        try "machine 127.0.0.1 login alice password wonderland\n".write(to: netrc, atomically: true, encoding: .utf8)
        let fifo = run.cache.appendingPathComponent("netrc.fifo")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "cat \"$0\" > \"$1\"", netrc.path, fifo.path]
        try writer.run()
        run.environment["NETRC"] = fifo.path
        let urls = (0..<3).map { server.base() + "/auth/\($0)-\(UUID().uuidString).ics" }
        let result = try TransferHardeningTests.bounded(run, ["--format", "json"] + urls)
        writer.waitUntilExit()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.contains("Private event"))
    }

    /// As a shell hands it: `NETRC=<(...)`, a pipe that can be read once.
    @Test func aNetrcFromProcessSubstitutionGivesEveryTransferItsLogin() throws {
        let server = try TransferHardeningTests.fault
        let run = try Run()
        let netrc = run.cache.appendingPathComponent("netrc.txt")
        try "machine 127.0.0.1 login alice password wonderland\n".write(to: netrc, atomically: true, encoding: .utf8)
        let urls = (0..<2).map { server.base() + "/auth/\($0)-\(UUID().uuidString).ics" }
        let words = [CLI.binary.path] + SubscriptionTests.fixed + ["--format", "json"] + urls
        let script = "NETRC=<(cat '\(netrc.path)') exec " + words.map { "'\($0)'" }.joined(separator: " ")
        var environment = run.environment
        environment["NETRC"] = nil
        let result = try CLI.run(
            ["-c", script], environment: environment, executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    /// The login goes to its own host only: a redirect to another host
    /// does not carry it; one to the same host does.
    @Test func aLoginIsNotCarriedToAnotherHost() throws {
        let server = try TransferHardeningTests.fault
        var run = try Run()
        let netrc = run.cache.appendingPathComponent("netrc")
        try CLI.writePrivately("machine 127.0.0.1 login alice password wonderland\n", to: netrc)
        run.environment["NETRC"] = netrc.path
        let same = try run([server.base() + "/to-same-host/auth/\(UUID().uuidString).ics"])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.contains("Private event"))
        let other = try run([server.base() + "/to-other-host/auth/\(UUID().uuidString).ics"])
        #expect(other.status == 66, "\(other.stderr)")
        #expect(other.stderr.contains("HTTP 401"), "\(other.stderr)")
    }

    /// Credentials in the URL win over the netrc's, as in libcurl; a user
    /// named alone takes that user's password from the netrc.
    @Test func credentialsInTheURLWinOverTheNetrc() throws {
        let server = try TransferHardeningTests.fault
        var run = try Run()
        let netrc = run.cache.appendingPathComponent("netrc")
        try CLI.writePrivately("machine 127.0.0.1 login bob password nope\nmachine 127.0.0.1 login alice password " +
            "wonderland\n", to: netrc)
        run.environment["NETRC"] = netrc.path
        let port = server.ports["http"] ?? 0
        let path = "/auth/\(UUID().uuidString).ics"
        #expect(try run(["http://127.0.0.1:\(port)\(path)"]).status == 66)  // bob's, refused
        let whole = try run(["http://alice:wonderland@127.0.0.1:\(port)\(path)"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let userOnly = try run(["--refresh", "0", "http://alice@127.0.0.1:\(port)\(path)"])
        #expect(userOnly.status == 0, "\(userOnly.stderr)")
        let wrong = try run(["http://alice:wrong@127.0.0.1:\(port)\(path)x"])
        #expect(wrong.status == 66, "\(wrong.stderr)")
    }

    // MARK: 8. Messages that name the failure

    /// An answer with no status line (HTTP/0.9, which libcurl refuses) is
    /// told as not HTTP, over https as over http, not as a redirect.
    @Test(arguments: ["https", "http"])
    func anAnswerThatIsNotHTTPIsToldSo(_ scheme: String) throws {
        let server = try TransferHardeningTests.fault
        var run = try Run()
        run.environment["SSL_CERT_FILE"] = server.folder.appendingPathComponent("ca.pem").path
        let result = try run([server.base(scheme) + "/not-http"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("the server's answer is not HTTP"), "\(result.stderr)")
        #expect(!result.stderr.contains("redirect"), "\(result.stderr)")
    }

    /// A header line past libcurl's 100 KB, and one with no colon, are each
    /// told as what they are, not as memory running out or a missing status line.
    @Test(arguments: [("/huge-header", "a header line too long to read (over 100 KB)"),
        ("/bad-header", "a line of its header that cannot be read")])
    func aBrokenHeaderIsToldAsOne(_ path: String, _ words: String) throws {
        let server = try TransferHardeningTests.fault
        let run = try Run()
        let result = try run([server.base() + path, "Fixtures/sample.ics"])
        #expect(result.status == 66 && result.stdout.contains("Breakfast with Ana"))
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(words), "\(result.stderr)")
    }

    /// A redirect from https to http is still told as one.
    @Test func aRedirectToHTTPIsStillToldAsARedirect() throws {
        let server = try TransferHardeningTests.fault
        var run = try Run()
        run.environment["SSL_CERT_FILE"] = server.folder.appendingPathComponent("ca.pem").path
        let result = try run([server.base("https") + "/to-http"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("redirected from https to another scheme (refused)"), "\(result.stderr)")
    }
}
