import Foundation
import Synchronization

/// A server the tests read from, on 127.0.0.1: one of the project's
/// scripts (`scripts/fault_server.py`, `radicale_server.py`,
/// `caldav_server.py`, `caldav_fault_server.py`). It stops by itself when
/// `stop()` is called or this process ends: its standard input is a pipe
/// that only this process holds open.
///
/// It is started with `posix_spawn` and every descriptor above standard
/// error closed in one step (`closefrom`), not with Foundation's Process:
/// that one closes a list made just before the spawn, so a pipe or socket
/// another test's thread opens in that moment reaches the server, and the
/// test reading that pipe, or waiting for its child (Foundation watches a
/// socket to see a child go), waits as long as the server lives. CI once
/// waited 20 minutes on that.
final class LoopbackServer: Sendable {
    /// The ports it printed: `http`, and `https` for the fault server.
    let ports: [String: Int]
    /// Its own folder (the fault server's certificates: `ca.pem`).
    let folder: URL
    /// The process's id, and the descriptors of its standard input and
    /// output held here; nil once stopped.
    private let running: Mutex<(pid: pid_t, input: Int32, output: Int32)?>

    /// Starts `script` with `python`, its own folder and `arguments`, and
    /// waits for the line that says where it listens.
    init(script: String, python: String = "/usr/bin/python3", arguments: [String] = []) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let started = try LoopbackServer.spawn([python, CLI.root.appendingPathComponent(script).path, folder.path]
            + arguments)
        running = Mutex(started)
        // The first line says where it listens: `http PORT [https PORT]`.
        var line = [UInt8]()
        var byte: UInt8 = 0
        while byte != 0x0A {
            let got = read(started.output, &byte, 1)
            if got == -1 && errno == EINTR { continue }
            guard got == 1 else { break }
            line.append(byte)
        }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
        var ports: [String: Int] = [:]
        for i in stride(from: 0, to: words.count - 1, by: 2) { ports[words[i]] = Int(words[i + 1]) }
        self.ports = ports
        guard ports["http"] != nil else {
            stop()
            throw Failure(message: "\(script) did not start: \(String(decoding: line, as: UTF8.self))")
        }
    }

    /// `arguments` run with standard input and output
    /// pipes of this process's, standard error this process's, and nothing
    /// else of it.
    private static func spawn(_ arguments: [String]) throws -> (pid: pid_t, input: Int32, output: Int32) {
        // glibc 2.34's closefrom action, and pipe2: Swift's Glibc module leaves out the GNU extensions.
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            throw Failure(message: "this C library has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34 has)")
        }
        let addCloseFrom = unsafeBitCast(symbol, to: CloseFrom.self)
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
        guard let pipe2Symbol = dlsym(nil, "pipe2") else { throw Failure(message: "this C library has no pipe2") }
        let pipe2 = unsafeBitCast(pipe2Symbol, to: Pipe2.self)
        // Close-on-exec from the start (pipe2): no other child started in
        // this moment gets them (the server's own ends are dup2'ed to 0 and 1).
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1]
        let opened = pipe2(&input, O_CLOEXEC) == 0 && pipe2(&output, O_CLOEXEC) == 0
        let error = errno
        func closeAll() { for fd in input + output where fd >= 0 { close(fd) } }
        guard opened else {
            closeAll()
            throw Failure(message: "pipe2: \(String(cString: strerror(error)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let planned = posix_spawn_file_actions_adddup2(&actions, input[0], 0) == 0
            && posix_spawn_file_actions_adddup2(&actions, output[1], 1) == 0 && addCloseFrom(&actions, 3) == 0
        guard planned else {
            closeAll()
            throw Failure(message: "posix_spawn_file_actions: could not plan the server's descriptors")
        }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        close(input[0])
        close(output[1])
        guard status == 0 else {
            close(input[1])
            close(output[0])
            throw Failure(message: "\(arguments[0]): \(String(cString: strerror(status)))")
        }
        return (pid, input[1], output[0])
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Its process id while it runs.
    var processIdentifier: pid_t? { running.withLock { $0?.pid } }

    /// Ends its standard input, and waits until it has stopped.
    func stop() {
        guard let started = running.withLock({ state in defer { state = nil }; return state }) else { return }
        close(started.input)
        var status: Int32 = 0
        while waitpid(started.pid, &status, 0) == -1 && errno == EINTR {}
        close(started.output)
        try? FileManager.default.removeItem(at: folder)
    }

    /// The port it serves plain HTTP on.
    var port: Int { ports["http"] ?? 0 }

    /// The Python that has Radicale and Xandikos: `.venv-servers` (`make
    /// test` makes it), or `ICS_AGENDA_RADICALE_PYTHON`.
    static func serversPython() throws -> String {
        let python = ProcessInfo.processInfo.environment["ICS_AGENDA_RADICALE_PYTHON"]
            ?? CLI.root.appendingPathComponent(".venv-servers/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failure(message: "no Python with Radicale at \(python): run `make test` (it installs Radicale into .venv-servers), or set ICS_AGENDA_RADICALE_PYTHON")
        }
        return python
    }

    /// `http://127.0.0.1:PORT` (`https` for the fault server's TLS port).
    func base(_ scheme: String = "http") -> String { "\(scheme)://127.0.0.1:\(ports[scheme] ?? 0)" }

    /// The body of a GET (the fault server's counters), with curl.
    func ask(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c",
            "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", base() + path]
        return try CLI.collect(process).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The fault server, with the system's Python (it needs nothing else, and openssl).
    static let fault: Result<LoopbackServer, any Error> = Result {
        try LoopbackServer(script: "scripts/fault_server.py")
    }

    /// Radicale serving `Fixtures/vdir/work`'s events as alice's collection
    /// "Work at Radicale" (`serversPython()`).
    static let radicale: Result<LoopbackServer, any Error> = Result {
        let python = try serversPython()
        let files = ["0b5c1e7a-standup.ics", "5f0d2b11-review.ics",
            "9a7e3c20-report.ics"].map { CLI.root.appendingPathComponent("Fixtures/vdir/work/\($0)").path }
        return try LoopbackServer(script: "scripts/radicale_server.py", python: python,
            arguments: ["Work at Radicale"] + files)
    }
}
