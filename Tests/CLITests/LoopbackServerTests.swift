import Foundation
import Synchronization
import Testing

/// The test harness itself: a pipe or socket that reaches a long-lived
/// process must not hold a test until that process goes (CI once waited
/// 20 minutes on one, then the server was gone).
@Suite struct LoopbackServerTests {
    /// A server holds nothing of the test process's but its standard input
    /// and output: not a pipe, not a socket another test holds (Foundation's
    /// Process opens neither with close-on-exec).
    @Test func aServerHoldsNothingOfTheTestProcesss() throws {
        let other = Pipe()
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { pair.forEach { close($0) } }
        let ours = Set([other.fileHandleForReading.fileDescriptor, other.fileHandleForWriting.fileDescriptor, pair[0],
            pair[1]]
            .map { LoopbackServerTests.target(of: $0, in: getpid()) })
        let server = try LoopbackServer(script: "scripts/caldav_fault_server.py")
        defer { server.stop() }
        let pid = try #require(server.processIdentifier)
        let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap(Int32.init)
        #expect(held.count >= 3)
        for fd in held { #expect(!ours.contains(LoopbackServerTests.target(of: fd, in: pid)),
            "the server holds \(fd) of ours") }
    }

    /// What a descriptor of a process is: `pipe:[INODE]`, `socket:[INODE]`, a path.
    static func target(of fd: Int32, in pid: pid_t) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) ?? "?"
    }

    /// `CLI.collect` takes a child's output once the child has gone, even
    /// while a process it left behind holds its pipes.
    @Test func collectEndsWithTheChildNotWithWhoeverHoldsItsPipes() throws {
        // The process left behind holds stdout and stderr, and nothing else
        // (Foundation's own socket, by which it sees the child go, is not passed
        // on). It would sleep an hour; a watchdog ends it after `patience`, so
        // that a collect that waits for it fails here instead of holding the run.
        let patience: TimeInterval = 60
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("holder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: pidFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", """
            import subprocess, sys
            holder = subprocess.Popen(["sleep", "3600"], stdout=sys.stdout, stderr=sys.stderr, close_fds=True)
            open(sys.argv[1], "w").write(str(holder.pid))
            print(holder.pid, flush=True)
            print("said", file=sys.stderr)
            """, pidFile.path]
        let returned = Atomic<Bool>(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + patience) {
            guard !returned.load(ordering: .sequentiallyConsistent),
                let text = try? String(contentsOf: pidFile, encoding: .utf8), let pid = Int32(text) else { return }
            kill(pid, SIGKILL)
        }
        let started = Date()
        let result = try CLI.collect(process)
        returned.store(true, ordering: .sequentiallyConsistent)
        let waited = Date().timeIntervalSince(started)
        let holder = try #require(Int32(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(holder, SIGKILL) }
        #expect(result.status == 0)
        #expect(result.stderr == "said\n")
        #expect(waited < patience, "collect waited \(Int(waited)) s, until the process left behind was killed")
        let state = try? String(contentsOfFile: "/proc/\(holder)/stat", encoding: .utf8)
        #expect(state.map { !$0.contains(") Z ") } ?? false, "the process left behind had already gone")
    }
}
