import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What signals do to a run: every signal that ends a program ends this
/// one at once, quietly, with the signal's status; a broken pipe is an
/// error the writer handles, not a signal.
enum Signals {
    /// The signals whose default is to end the program.
    static let ending: [Int32] = [
        SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
            SIGSYS,
        SIGABRT, SIGBUS, SIGSEGV, SIGILL, SIGFPE, SIGTRAP,
    ]
    /// Those the Swift runtime watches to print a crash report.
    static let crashes: [Int32] = [SIGABRT, SIGBUS, SIGSEGV, SIGILL, SIGFPE, SIGTRAP]

    /// The runtime's handler of each crash signal, for a real crash.
    nonisolated(unsafe) private static var crashHandlers: [Glibc.sigaction] = Array(repeating: Glibc.sigaction(),
        count: 65)

    /// Sets the signals up, before anything else runs.
    ///
    /// - The Swift runtime takes SIGQUIT for a crash (a 50-line backtrace,
    ///   after which the run went on and exited 0): it gets its default back.
    ///   A signal ignored when the program started (`nohup`) stays ignored.
    /// - A crash signal another process sends (`kill -SEGV`) ends the run
    ///   as its default would, without a crash report; a real fault still
    ///   gets the runtime's report.
    /// - A parent's thread that blocked them (a thread pool's) would leave
    ///   them pending for ever: they are unblocked.
    static func endRunsQuietly() {
        var current = sigaction()
        if sigaction(SIGQUIT, nil, &current) == 0, !isIgnored(current) { signal(SIGQUIT, SIG_DFL) }
        for signal in crashes {
            guard sigaction(signal, nil, &crashHandlers[Int(signal)]) == 0,
                !isIgnored(crashHandlers[Int(signal)]) else {
                continue
            }
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { signal, info, _ in
                let sent = info.map { $0.pointee.si_code <= 0 && $0.pointee._sifields._kill.si_pid != getpid() }
                    ?? false
                var next = sigaction()
                if sent {
                    next.__sigaction_handler.sa_handler = SIG_DFL
                } else {
                    next = Signals.crashHandlers[Int(signal)]
                }
                sigaction(signal, &next, nil)
                // Sent: delivered again when this returns, now to its default.
                // A fault: the instruction runs again and reaches the runtime's report.
                if sent { raise(signal) }
            }
            action.sa_flags = SA_SIGINFO | SA_ONSTACK
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in ending { sigaddset(&mask, signal) }
        sigprocmask(SIG_UNBLOCK, &mask, nil)
    }

    /// A write to a closed pipe fails with EPIPE (the run then ends with 0 or
    /// 74, as its writer decides) instead of ending the run by SIGPIPE. A
    /// SIGPIPE another process sends (`kill -PIPE`) still ends the run,
    /// quietly, with the signal's status: the kernel's own comes from this
    /// process (`si_pid`), a sent one from another.
    static func ignoreBrokenPipes() {
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { signal, info, _ in
            guard let info, info.pointee._sifields._kill.si_pid != getpid() else { return }
            var fallback = sigaction()
            fallback.__sigaction_handler.sa_handler = SIG_DFL
            sigaction(signal, &fallback, nil)
            raise(signal)
        }
        action.sa_flags = SA_SIGINFO | SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGPIPE, &action, nil)
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
