import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A mapped file that is cut short while it is read (`curl -o` or a sync
/// tool rewriting it while cron runs) would end the run with SIGBUS at the
/// first page past its new end. While a mapping is guarded, such a fault
/// maps zero pages over the rest of it instead, and is remembered: the
/// reader goes on (the zeros read as the end of the text) and the file is
/// told as changed. A fault anywhere else is left to the handler that was
/// there before (the Swift runtime's crash report).
enum MappedFileGuard {
    /// The guarded mapping, and whether a fault was mended; one at a time.
    nonisolated(unsafe) private static var base: UInt = 0
    nonisolated(unsafe) private static var size: UInt = 0
    nonisolated(unsafe) private static var faulted: Int32 = 0
    /// The handler before the guard's, on the heap: a `sigaction()` kept in
    /// a static is emitted by Swift 6.3 as a packed constant of 148 bytes
    /// (the 4 bytes of padding before `sa_restorer` left out) while the
    /// struct is 152, so each copy read 4 bytes past it (AddressSanitizer:
    /// global-buffer-overflow, in the handler) and `sigaction` wrote them.
    /// Made once, before any handler that reads it is installed.
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)
        previous.initialize(to: sigaction())
        return previous
    }()
    private static let lock = NSLock()

    /// Gives a sent signal to the handler before, as it came, with its
    /// sender. raise() would name this process as the sender, and the
    /// handler before (`Signals`) reads a SIGBUS a process sends itself as
    /// a fault, which comes again, and so dropped it: the run went on.
    private static func handOn(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?,
        _ context: UnsafeMutableRawPointer?) {
        let before = previous.pointee
        let handler = unsafeBitCast(before.__sigaction_handler.sa_handler, to: Int.self)
        if handler == unsafeBitCast(SIG_IGN, to: Int.self) { return }
        // Its default: pending while this handler runs, delivered when it returns.
        if handler == unsafeBitCast(SIG_DFL, to: Int.self) { raise(signal); return }
        if before.sa_flags & SA_SIGINFO != 0 {
            before.__sigaction_handler.sa_sigaction?(signal, info, context)
        } else {
            before.__sigaction_handler.sa_handler?(signal)
        }
    }

    /// Runs `body` with faults past the end of `mapping` mended; whether one was.
    static func run<T>(_ mapping: UnsafeRawBufferPointer, _ body: () throws -> T) rethrows -> (T, cutShort: Bool) {
        lock.lock()
        defer { lock.unlock() }
        base = UInt(bitPattern: mapping.baseAddress)
        size = UInt(mapping.count)
        faulted = 0
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { signal, info, context in
            let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
            let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
            // A fault the kernel raised (si_code > 0), not a SIGBUS another process sent.
            let isFault = (info?.pointee.si_code ?? 0) > 0
            guard isFault, MappedFileGuard.size > 0, address >= MappedFileGuard.base,
                address < MappedFileGuard.base + MappedFileGuard.size else {
                // Not ours: the handler before takes it, as if this one had never
                // been: a fault comes again when this returns; a sent one is handed on.
                sigaction(signal, MappedFileGuard.previous, nil)
                if !isFault { MappedFileGuard.handOn(signal, info, context) }
                return
            }
            let start = address / page * page
            let end = MappedFileGuard.base + MappedFileGuard.size
            let length = (end - start + page - 1) / page * page
            _ = MappedFile.map(at: UnsafeMutableRawPointer(bitPattern: start), Int(length),
                flags: MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1)
            MappedFileGuard.faulted = 1
        }
        action.sa_flags = SA_SIGINFO
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, previous)
        defer {
            sigaction(SIGBUS, previous, nil)
            size = 0
        }
        let result = try body()
        return (result, faulted != 0)
    }
}
