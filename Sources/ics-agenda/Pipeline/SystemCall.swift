import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The system calls of the command, written once: retried when a signal
/// interrupts them (EINTR), their failures read from `errno` in one place.
enum SystemCall {
    /// Why a file could not be opened or read, as `errno` said.
    struct Failure: Error {
        let code: Int32

        /// The words an unreadable input is reported with.
        var reason: String {
            switch code {
            case EACCES: "permission denied"
            case EISDIR: "is a directory"
            default: "cannot be read"
            }
        }
    }

    /// How a program `runProgram` ran ended.
    enum ProgramEnd: Equatable {
        /// It could not be started (`errno`'s code: not found, not executable).
        case notStarted(Int32)
        case exited(Int32)
        case signalled(Int32)
        /// It ran past the time limit, and its process group was killed.
        case stopped
        /// Waiting for it failed (another part of the process reaped it).
        case lost
    }

    /// Runs `arguments` (the program looked up on PATH) with standard input
    /// /dev/null, in a process group of its own (what it starts is stopped
    /// with it), and waits for it at most `timeLimit` seconds.
    static func runProgram(_ arguments: [String], timeLimit: TimeInterval) -> ProgramEnd {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0]!, &actions, &attributes, &argv, environ)
        guard spawned == 0 else { return .notStarted(spawned) }
        let deadline = Date() + timeLimit
        var status: Int32 = 0
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { return .lost }
            if Date() > deadline {
                kill(-pid, SIGKILL)
                retryingOnInterrupt { waitpid(pid, &status, 0) }
                return .stopped
            }
            usleep(5_000)
        }
        return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
    }

    /// `call()` again for as long as a signal interrupts it (it fails with
    /// EINTR): its result, `errno` as the last call left it.
    @discardableResult
    static func retryingOnInterrupt<Value: BinaryInteger>(_ call: () -> Value) -> Value {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// Opens `path` (as the system spells it) for reading.
    static func openForReading(_ path: UnsafePointer<CChar>) throws(Failure) -> Int32 {
        let fd = retryingOnInterrupt { open(path, O_RDONLY) }
        guard fd >= 0 else { throw Failure(code: errno) }
        return fd
    }

    /// Reads up to `buffer.count` bytes of `fd`: how many (0 at the end).
    /// A descriptor a parent left non-blocking (`O_NONBLOCK` on a shared
    /// pipe) is waited for, as a blocking one would be.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
        while true {
            let count = retryingOnInterrupt { Foundation.read(fd, buffer.baseAddress, buffer.count) }
            if count >= 0 { return count }
            let code = errno
            guard isWouldBlock(code) else { throw Failure(code: code) }
            waitUntilReady(fd, for: Int16(POLLIN))
        }
    }

    /// Writes some of `bytes` to `fd`: how many, or -1 with errno set.
    /// A non-blocking descriptor that is full is waited for.
    static func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        while true {
            let written = retryingOnInterrupt { Foundation.write(fd, bytes, count) }
            if written >= 0 || !isWouldBlock(errno) { return written }
            waitUntilReady(fd, for: Int16(POLLOUT))
        }
    }

    static func isWouldBlock(_ code: Int32) -> Bool { code == EAGAIN || code == EWOULDBLOCK }

    /// Waits until `fd` can be read or written (or has hung up: the next call says so).
    static func waitUntilReady(_ fd: Int32, for events: Int16) {
        var request = pollfd(fd: fd, events: events, revents: 0)
        _ = retryingOnInterrupt { poll(&request, 1, -1) }
    }

    /// Everything `fd` gives until its end. A regular file of about
    /// `sizeHint` bytes is read in one call: it reads short only at its end
    /// (`regularFile`), so no further call is made to hear that end.
    static func readAll(_ fd: Int32, sizeHint: Int = 0, regularFile: Bool = false) throws -> [UInt8] {
        // Exactly the hint and one byte to hear the end: thousands of small files are held at once.
        var bytes = [UInt8](repeating: 0, count: sizeHint > 0 ? sizeHint + 1 : 1 << 16)
        var count = 0
        while true {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
            let n = try bytes.withUnsafeMutableBytes { raw in
                try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[count...]))
            }
            if n == 0 { break }
            count += n
            if regularFile && count < bytes.count { break }
        }
        bytes.removeSubrange(count...)
        return bytes
    }
}
