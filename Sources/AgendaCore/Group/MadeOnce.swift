import Synchronization

/// A value made by the first thread that asks for it (another asking
/// meanwhile waits), then read without a lock: it is asked for on every row.
final class MadeOnce<Value: AnyObject & Sendable>: Sendable {
    private let made = AtomicLazyReference<Value>()
    private let making = Mutex(())

    func get(_ make: () -> Value) -> Value {
        if let value = made.load() { return value }
        return making.withLock { _ in made.load() ?? made.storeIfNil(make()) }
    }
}
