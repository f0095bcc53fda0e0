#if canImport(Glibc)
    import Glibc
#endif

/// The one place a run ends before `main` returns: every status of the
/// contract's table leaves through here.
enum ProcessEnd {
    /// Ends the run with `status`, from the main thread, when the command
    /// is done or has failed: exit handlers run (LeakSanitizer's count
    /// among them). Done, the system takes the memory back at once,
    /// without freeing the occurrences one by one.
    static func finish(_ status: Int32) -> Never { exit(status) }

    /// Ends the run at once, from any thread (a worker that finds a pattern
    /// too slow to match, the writer that finds standard output gone): no
    /// exit handler runs beside threads still at work, and the agenda's
    /// memory goes back with the process (at `exit`, LeakSanitizer would
    /// count the abandoned agenda as lost).
    static func abandon(_ status: Int32) -> Never { _exit(status) }

    /// Says `message` on standard error, after `ics-agenda: `, and ends the
    /// run with `status` (from the main thread).
    static func fail(_ message: String, status: Int32) -> Never {
        StandardError.write("ics-agenda: \(message)\n")
        finish(status)
    }
}
