import Foundation

/// A server the subscription tests read from, on 127.0.0.1: the project's
/// fault server (`scripts/fault_server.py`) or Radicale
/// (`scripts/radicale_server.py`). Each is started once, the first time a
/// test asks, and stops by itself when this process ends: its standard
/// input is a pipe that only this process holds open.
final class LoopbackServer: Sendable {
    /// The ports it printed: `http`, and `https` for the fault server.
    let ports: [String: Int]
    /// Its own folder (the fault server's certificates: `ca.pem`).
    let folder: URL
    private let process: Process
    private let input: Pipe

    private init(script: String, python: String, arguments: [String]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [CLI.root.appendingPathComponent(script).path, folder.path] + arguments
        process.currentDirectoryURL = CLI.root
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The first line says where it listens: `http PORT [https PORT]`.
        var line = Data()
        while !line.contains(0x0A) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            line += more
        }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
        var ports: [String: Int] = [:]
        for i in stride(from: 0, to: words.count - 1, by: 2) { ports[words[i]] = Int(words[i + 1]) }
        guard ports["http"] != nil else { throw Failure(message: "\(script) did not start: \(String(decoding: line, as: UTF8.self))") }
        self.ports = ports
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// `http://127.0.0.1:PORT` (`https` for the fault server's TLS port).
    func base(_ scheme: String = "http") -> String { "\(scheme)://127.0.0.1:\(ports[scheme] ?? 0)" }

    /// The body of a GET (the fault server's counters), with curl.
    func ask(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", base() + path]
        return try CLI.collect(process).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The fault server, with the system's Python (it needs nothing else, and openssl).
    static let fault: Result<LoopbackServer, any Error> = Result {
        try LoopbackServer(script: "scripts/fault_server.py", python: "/usr/bin/python3", arguments: [])
    }

    /// Radicale serving `Fixtures/vdir/work`'s events as alice's collection
    /// "Work at Radicale", with the Python that has Radicale: `.venv-servers`
    /// (`make test` makes it), or `ICS_AGENDA_RADICALE_PYTHON`.
    static let radicale: Result<LoopbackServer, any Error> = Result {
        let python = ProcessInfo.processInfo.environment["ICS_AGENDA_RADICALE_PYTHON"]
            ?? CLI.root.appendingPathComponent(".venv-servers/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failure(message: "no Python with Radicale at \(python): run `make test` (it installs Radicale into .venv-servers), or set ICS_AGENDA_RADICALE_PYTHON")
        }
        let files = ["0b5c1e7a-standup.ics", "5f0d2b11-review.ics", "9a7e3c20-report.ics"].map { CLI.root.appendingPathComponent("Fixtures/vdir/work/\($0)").path }
        return try LoopbackServer(script: "scripts/radicale_server.py", python: python, arguments: ["Work at Radicale"] + files)
    }
}
