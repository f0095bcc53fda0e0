import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program this process started (`posix_spawnp`), the one spawner of
/// every program it runs (`alarms --exec`, a credential helper): no shell,
/// the program found on PATH as `execvp` finds it, in a process group of
/// its own (what it starts is stopped with it); its standard error this
/// process's. It is waited for with a time limit, past which its group is
/// killed and it is reaped.
package struct ChildProcess {
    package let pid: pid_t

    /// Where one of its standard streams comes from or goes.
    package enum Stream {
        /// This process's own.
        case inherited
        /// /dev/null.
        case nullDevice
        /// This descriptor (the child's end of a socket or pipe).
        case descriptor(FileDescriptor)
    }

    /// How a program ended.
    package enum End: Equatable {
        /// It could not be started (`errno`'s code: not found, not executable).
        case notStarted(Int32)
        case exited(Int32)
        case signalled(Int32)
        /// It ran past the time limit (or was told to stop), and its process group was killed.
        case stopped
        /// Waiting for it failed (another part of the process reaped it).
        case lost
    }

    /// Starts `arguments`; the code `posix_spawnp` failed with when it
    /// cannot. A program just written may still be open for writing in a
    /// process being started elsewhere (ETXTBSY) for a moment: with
    /// `waitingForText`, it is tried again (20 times, 10 ms apart).
    package static func start(_ arguments: [String], input: Stream, output: Stream = .inherited,
        waitingForText: Bool = false) -> Result<ChildProcess, Errno>
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (stream, target, mode) in [(input, Int32(0), O_RDONLY), (output, 1, O_WRONLY)] {
            switch stream {
            case .inherited: break
            case .nullDevice: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", mode, 0)
            case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd.rawValue, target)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        var spawned = posix_spawnp(&pid, argv[0]!, &actions, &attributes, &argv, environ)
        for _ in 0..<(waitingForText ? 20 : 0) where spawned == ETXTBSY {
            usleep(10_000)
            spawned = posix_spawnp(&pid, argv[0]!, &actions, &attributes, &argv, environ)
        }
        return spawned == 0 ? .success(ChildProcess(pid: pid)) : .failure(Errno(rawValue: spawned))
    }

    /// Waits for it to exit, looking every `interval` microseconds, until
    /// `deadline` or until `stopNow` says to stop; then kills its group and
    /// reaps it (`stopped`). Nil for an exit: its status is `status`.
    package func wait(until deadline: Date, lookingEvery interval: useconds_t, stopNow: Bool = false,
        status: inout Int32) -> End?
    {
        while true {
            let done = SystemCall.retryingOnInterrupt { waitpid(pid, &status, WNOHANG) }
            if done == pid { return nil }
            if done < 0 { return .lost }
            if stopNow || Date() > deadline {
                killGroup()
                SystemCall.retryingOnInterrupt { waitpid(pid, &status, 0) }
                return .stopped
            }
            usleep(interval)
        }
    }

    /// Kills its process group (SIGKILL): it, and what it started.
    package func killGroup() {
        kill(-pid, SIGKILL)
    }

    /// How a status `wait` gave ended: an exit and its code, or a signal.
    package static func end(of status: Int32) -> End {
        status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
    }

    /// Runs `arguments` with standard input /dev/null, and waits for it at
    /// most `timeLimit` seconds.
    package static func run(_ arguments: [String], timeLimit: TimeInterval) -> End {
        let child: ChildProcess
        switch start(arguments, input: .nullDevice) {
        case .success(let started): child = started
        case .failure(let error): return .notStarted(error.rawValue)
        }
        var status: Int32 = 0
        return child.wait(until: Date() + timeLimit, lookingEvery: 5_000, status: &status) ?? end(of: status)
    }
}
