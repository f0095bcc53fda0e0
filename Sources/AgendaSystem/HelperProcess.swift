import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One run of a program that is given a few bytes on its standard input
/// and answers on its standard output (a credential helper), started as
/// `ChildProcess` starts every program: no shell, the program found on
/// PATH as `execvp` finds it, in a process group of its own, its standard
/// error this process's. Its standard input and output
/// are Unix sockets made close-on-exec (so no other child inherits them;
/// a helper that leaves without reading raises no SIGPIPE here); both are
/// closed and the process reaped before `run` returns, whatever happened.
package struct HelperProcess {
    /// The program and its arguments.
    package let arguments: [String]
    /// How long it may take in all; then it (and its process group) is killed.
    package var timeLimit: TimeInterval = 10
    /// The most of its output that is read; past it, it is killed.
    package var maxOutput = 64 << 10

    package init(arguments: [String], timeLimit: TimeInterval = 10) {
        self.arguments = arguments
        self.timeLimit = timeLimit
    }

    /// How a run ended.
    package enum End: Equatable {
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
    package func run(request: [UInt8]) -> End {
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, kind, 0, &toChild) == 0 else { return .notStarted(errno) }
        guard socketpair(AF_UNIX, kind, 0, &fromChild) == 0 else {
            let code = errno
            toChild.forEach { close($0) }
            return .notStarted(code)
        }
        let started = ChildProcess.start(arguments, input: .descriptor(FileDescriptor(rawValue: toChild[1])),
            output: .descriptor(FileDescriptor(rawValue: fromChild[1])), waitingForText: true)
        // The child's ends are the child's alone now.
        close(toChild[1])
        close(fromChild[1])
        let input = toChild[0], output = fromChild[0]
        let child: ChildProcess
        switch started {
        case .success(let running): child = running
        case .failure(let error):
            close(input)
            close(output)
            return .notStarted(error.rawValue)
        }
        let deadline = Date() + timeLimit
        let talked = talk(input: input, output: output, bytes: request, deadline: deadline)
        close(output)
        var status: Int32 = 0
        switch child.wait(until: deadline, lookingEvery: 2_000, stopNow: talked.end != nil, status: &status) {
        case .stopped: return talked.end ?? .timedOut
        case .lost: return .lost
        default: break
        }
        if let end = talked.end {
            child.killGroup()  // what it left behind holding its output (its process group)
            return end
        }
        switch ChildProcess.end(of: status) {
        case .exited(0): return .answered(talked.output)
        case .exited(let code): return .exited(code)
        case .signalled(let signal): return .signalled(signal)
        default: return .lost
        }
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
