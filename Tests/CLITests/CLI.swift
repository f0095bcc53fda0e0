import Foundation

/// Runs the built binary as a user would, from the package root, with an
/// environment that holds no zone, locale or clock of the machine's.
enum CLI {
    struct Result {
        let stdout: String
        let stderr: String
        let status: Int32
    }

    /// The package root (this file is Tests/CLITests/CLI.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `ics-agenda` that `swift build` put beside the test bundle.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["ICS_AGENDA_BIN"] { return URL(fileURLWithPath: path) }
        var dir = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("ics-agenda")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL.appendingPathComponent("ics-agenda")
    }

    static func run(
        _ arguments: [String], stdinFile: String? = nil, environment extra: [String: String] = [:],
            executable: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable ?? binary
        process.arguments = arguments
        process.currentDirectoryURL = root
        // ICS_AGENDA_CONFIG: an empty file, so that the developer's own configuration is never read.
        var environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC", "ICS_AGENDA_CONFIG": "/dev/null"]
        // make test-asan: the sanitizer's options reach the binary too.
        for sanitizer in ["ASAN_OPTIONS",
            "LSAN_OPTIONS"] { environment[sanitizer] = ProcessInfo.processInfo.environment[sanitizer] }
        environment.merge(extra) { $1 }
        process.environment = environment
        if let stdinFile {
            process.standardInput = try FileHandle(forReadingFrom: root.appendingPathComponent(stdinFile))
        } else {
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")  // not a terminal, and empty
        }
        return try collect(process)
    }

    /// Runs a prepared process and takes its stdout, stderr and status.
    ///
    /// Both pipes are read as the child writes (a large output cannot block
    /// it), until each ends or the child has exited and nothing is left in
    /// them: a pipe whose write end also reached another process (a server
    /// started by another test in the same moment) ends only when that one
    /// goes, and the child's output is whole once the child has gone.
    static func collect(_ process: Process) throws -> Result {
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var outputs = [Data(), Data()]
        var polled = [out, err].map { pollfd(fd: $0.fileHandleForReading.fileDescriptor, events: Int16(POLLIN),
            revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while polled.contains(where: { $0.fd >= 0 }) {
            let exited = !process.isRunning
            let ready = poll(&polled, nfds_t(polled.count), exited ? 0 : 100)
            if ready == 0 && exited { break }
            if ready < 0 { if errno == EINTR { continue } else { break } }
            for i in polled.indices where polled[i].fd >= 0 && polled[i].revents != 0 {
                let count = read(polled[i].fd, &buffer, buffer.count)
                if count > 0 { outputs[i].append(contentsOf: buffer[..<count]) } else if count == 0
                    || errno != EINTR { polled[i].fd = -1 }
            }
        }
        process.waitUntilExit()
        return Result(stdout: String(decoding: outputs[0], as: UTF8.self),
            stderr: String(decoding: outputs[1], as: UTF8.self),
            status: process.terminationStatus)
    }

    /// Writes a netrc (or any secret) readable by its owner alone, as
    /// ics-agenda asks of a netrc whose passwords it uses (`chmod 600`).
    static func writePrivately(_ text: String, to url: URL) throws {
        try text.write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }

    /// `diff -u` of two texts, for a readable failure.
    static func diff(_ expected: String, _ actual: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-diff-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("expected"), b = dir.appendingPathComponent("actual")
        try? expected.write(to: a, atomically: true, encoding: .utf8)
        try? actual.write(to: b, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/diff")
        process.arguments = ["-u", a.path, b.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return "expected:\n\(expected)\nactual:\n\(actual)" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
