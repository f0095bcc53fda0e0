import Synchronization

/// One day's index, made by the first thread that asks for it; a thread
/// asking meanwhile waits for it.
final class DayIndex: Sendable {
    private let index = Mutex<DistinctOverlaps?>(nil)

    func get(_ make: () -> DistinctOverlaps) -> DistinctOverlaps {
        index.withLock { index in
            if let index { return index }
            let made = make()
            index = made
            return made
        }
    }

    /// Lets the index go; asked again, it is made again.
    func forget() { index.withLock { $0 = nil } }
}
