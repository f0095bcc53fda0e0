import AgendaSystem
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The system target's own promises: a signal is waited through in one
/// place (`SystemCall`), any other failure is thrown as its `Errno`; a
/// non-blocking stream is waited for; folders list their names; one
/// spawner runs a program and ends it.
@Suite struct SystemCallTests {
    /// A folder of its own, removed after.
    static func withFolder<T>(_ body: (String) throws -> T) rethrows -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sys-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try body(folder)
    }

    /// EINTR is tried again, as often as it comes; any other failure is thrown once.
    @Test func aSignalIsWaitedThroughAndOtherFailuresThrown() throws {
        var calls = 0
        let result = try SystemCall.checked { () -> Int32 in
            calls += 1
            errno = EINTR
            return calls < 3 ? -1 : 7
        }
        #expect(result == 7 && calls == 3, "a signal is waited through")
        calls = 0
        let failure = #expect(throws: Errno.self) {
            try SystemCall.checked { () -> Int32 in
                calls += 1
                errno = ENOLCK
                return -1
            }
        }
        #expect(failure == .noLocks && calls == 1, "no such lock here: thrown, not tried again")
    }

    /// A lock is held on a file it can be had on, and a descriptor that is
    /// none fails (a sync never runs unlocked).
    @Test func aLockIsHeldOrThrown() throws {
        try SystemCallTests.withFolder { folder in
            let fd = try FileDescriptor.openLockFile(folder + "/.lock")
            defer { try? fd.close() }
            try fd.lockExclusively()
            let mode = try Stat(folder + "/.lock").permissions
            #expect(mode == .ownerReadWrite)
        }
        #expect(throws: Errno.badFileDescriptor) { try FileDescriptor(rawValue: -1).lockExclusively() }
    }

    /// A file replaced whole is 0600 and holds the new bytes; one whose
    /// folder is not there fails at the temporary file's name.
    @Test func aFileIsReplacedWhole() throws {
        try SystemCallTests.withFolder { folder in
            let path = folder + "/state"
            try AtomicFile.replace(path, with: Array("old".utf8))
            try AtomicFile.replace(path, with: Array("new".utf8))
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
            #expect(try Stat(path).permissions == .ownerReadWrite)
            var names: [String] = []
            #expect(FolderEntries.forEach(in: folder) { name, _ in names.append(String(decoding: name, as: UTF8.self)) })
            #expect(names == ["state"], "no temporary file left, no . or ..")
            let batch = AtomicFile.Batch()
            try batch.add(folder + "/a.ics", bytes: [0x41])
            try batch.add(folder + "/b.ics", bytes: [0x42], named: false)
            try batch.commit()
            #expect(try String(contentsOfFile: folder + "/a.ics", encoding: .utf8) == "A")
            #expect(try String(contentsOfFile: folder + "/b.ics", encoding: .utf8) == "B")
            let failure = #expect(throws: AtomicFile.Failure.self) {
                try AtomicFile.replace(folder + "/none/state", with: [])
            }
            #expect(failure?.code == ENOENT && failure?.path == folder + "/none/state")
        }
        #expect(!FolderEntries.forEach(in: "/nonexistent/folder") { _, _ in })
    }

    /// A pipe a parent left non-blocking is read to its end all the same.
    @Test func aNonBlockingStreamIsWaitedFor() throws {
        let (reader, writer) = try FileDescriptor.pipe()
        defer { try? reader.close() }
        _ = fcntl(reader.rawValue, F_SETFL, fcntl(reader.rawValue, F_GETFL) | O_NONBLOCK)
        let late = Thread {
            usleep(50_000)
            _ = try? writer.writeAll(Array("late".utf8))
            try? writer.close()
        }
        late.start()
        #expect(try reader.readAll() == Array("late".utf8))
    }

    /// One spawner: a program's exit code, its signal, one that is not
    /// there, one stopped at the time limit.
    @Test func aProgramRunsAndEnds() {
        #expect(ChildProcess.run(["/bin/sh", "-c", "exit 3"], timeLimit: 10) == .exited(3))
        #expect(ChildProcess.run(["/bin/sh", "-c", "kill -9 $$"], timeLimit: 10) == .signalled(9))
        #expect(ChildProcess.run(["/nonexistent/program"], timeLimit: 10) == .notStarted(ENOENT))
        #expect(ChildProcess.run(["/bin/sh", "-c", "sleep 10"], timeLimit: 0.2) == .stopped)
    }
}
