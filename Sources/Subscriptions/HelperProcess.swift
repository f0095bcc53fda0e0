import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One run of a program that is given a few bytes on its standard input
/// and answers on its standard output (a credential helper): no shell, the
/// program found on PATH as `execvp` finds it, in a process group of its
/// own, its standard error this process's. Its standard input and output
/// are Unix sockets made close-on-exec (so no other child inherits them;
/// a helper that leaves without reading raises no SIGPIPE here); both are
/// closed and the process reaped before `run` returns, whatever happened.
struct HelperProcess {
    /// The program and its arguments.
    let arguments: [String]
    /// How long it may take in all; then it (and its process group) is killed.
    var timeLimit: TimeInterval = 10
    /// The most of its output that is read; past it, it is killed.
    var maxOutput = 64 << 10

    /// How a run ended.
    enum End: Equatable {
        /// It exited with status 0, and this is what it printed.
        case answered([UInt8])
        /// It could not be started (`errno`'s code: not found, not executable).
        case notStarted(Int32)
        case exited(Int32)
        case signalled(Int32)
        /// It ran past `timeLimit`, and was killed.
        case timedOut
        /// It printed more than `maxOutput`, and was killed.
        case tooLong
        /// Waiting for it failed (another part of the process reaped it).
        case lost
    }

    /// Runs the program with `request` on its standard input (then ended)
    /// and waits for its output to end and for it to exit.
    func run(request: [UInt8]) -> End {
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, kind, 0, &toChild) == 0 else { return .notStarted(errno) }
        guard socketpair(AF_UNIX, kind, 0, &fromChild) == 0 else {
            let code = errno
            toChild.forEach { close($0) }
            return .notStarted(code)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[1], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        var spawned = posix_spawnp(&pid, argv[0]!, &actions, &attributes, &argv, environ)
        // A script just written may still be open for writing in a process
        // being started elsewhere (ETXTBSY) for a moment: it is tried again.
        for _ in 0..<20 where spawned == ETXTBSY {
            usleep(10_000)
            spawned = posix_spawnp(&pid, argv[0]!, &actions, &attributes, &argv, environ)
        }
        // The child's ends are the child's alone now.
        close(toChild[1])
        close(fromChild[1])
        let input = toChild[0], output = fromChild[0]
        guard spawned == 0 else {
            close(input)
            close(output)
            return .notStarted(spawned)
        }
        let deadline = Date() + timeLimit
        let talked = talk(input: input, output: output, bytes: request, deadline: deadline)
        close(output)
        var status: Int32 = 0
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { return .lost }
            if talked.end != nil || Date() > deadline {
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return talked.end ?? .timedOut
            }
            usleep(2_000)
        }
        if let end = talked.end {
            kill(-pid, SIGKILL)  // what it left behind holding its output (its process group)
            return end
        }
        if status & 0x7F != 0 { return .signalled(status & 0x7F) }
        let code = (status >> 8) & 0xFF
        return code == 0 ? .answered(talked.output) : .exited(code)
    }

    /// Hands over the input (its socket is closed here) and reads the
    /// output to its end; `end` set when it must be killed.
    private func talk(input: Int32, output: Int32, bytes: [UInt8], deadline: Date) -> (output: [UInt8], end: End?) {
        var written = 0
        var inputOpen = true
        if bytes.isEmpty {
            close(input)
            inputOpen = false
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                if inputOpen { close(input) }
                return (received, .timedOut)
            }
            var watched = [pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
            if inputOpen { watched.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&watched, nfds_t(watched.count), Int32(min(left * 1000 + 1, 1000)))
            if ready < 0 && errno != EINTR { break }
            if inputOpen && watched.count > 1 && watched[1].revents != 0 {
                let n = bytes[written...].withUnsafeBytes {
                    send(input, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                if n > 0 { written += n }
                // Done, or it stopped reading: either way it gets no more.
                if written == bytes.count || (n < 0 && errno != EAGAIN && errno != EINTR) {
                    close(input)
                    inputOpen = false
                }
            }
            guard watched[0].revents != 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { recv(output, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                received += chunk[..<n]
                if received.count > maxOutput {
                    if inputOpen { close(input) }
                    return (received, .tooLong)
                }
            } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                break
            }
        }
        if inputOpen { close(input) }
        return (received, nil)
    }
}
