@_exported import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The one place a system call is retried when a signal interrupts it
/// (EINTR), and its failure read from `errno`. Every wrapper of this
/// target that swift-system does not give (flock, fsync, rename, mmap,
/// opendir, ...) goes through `retrying`; swift-system's own calls
/// (`FileDescriptor.open`, `read`, `write`, `Stat`) retry as it does, and
/// throw the same `Errno`.
///
/// This target re-exports swift-system (`SystemPackage`): a target that
/// imports it names `FileDescriptor`, `Stat` and `Errno` as swift-system does.
package enum SystemCall {
    /// `call()` again for as long as it `failed` with EINTR: its last
    /// result, `errno` as that call left it. The loop every wrapper runs in.
    @inline(__always)
    static func retrying<Result>(_ call: () -> Result, failed: (Result) -> Bool) -> Result {
        while true {
            let result = call()
            if !failed(result) || errno != EINTR { return result }
        }
    }

    /// `call()` again for as long as a signal interrupts it (it returns a
    /// negative value with EINTR): its result, `errno` as the last call left it.
    @discardableResult
    @inline(__always)
    package static func retryingOnInterrupt<Value: BinaryInteger>(_ call: () -> Value) -> Value {
        retrying(call) { $0 < 0 }
    }

    /// `call()`'s result, again after a signal; a negative one throws `errno`.
    @discardableResult
    @inline(__always)
    package static func checked<Value: BinaryInteger>(_ call: () -> Value) throws(Errno) -> Value {
        let result = retryingOnInterrupt(call)
        guard result >= 0 else { throw Errno(rawValue: errno) }
        return result
    }

    /// `call()`'s pointer, again after a signal; nil throws `errno`.
    @inline(__always)
    static func checked<Pointer>(_ call: () -> Pointer?) throws(Errno) -> Pointer {
        guard let result = retrying(call, failed: { $0 == nil }) else { throw Errno(rawValue: errno) }
        return result
    }

    /// A swift-system call whose error is typed: it throws nothing but `Errno`.
    @discardableResult
    @inline(__always)
    static func typed<Value>(_ call: () throws -> Value) throws(Errno) -> Value {
        do { return try call() } catch { throw error as? Errno ?? Errno(rawValue: EIO) }
    }
}
