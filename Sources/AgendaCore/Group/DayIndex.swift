import Synchronization

/// One day's index (`DayIndex`), swept answers (`DaySweepCache`, nil for
/// a day left to its index) or spans (`DaySpanCache`), made by the first
/// thread that asks for it; a thread asking meanwhile waits for it.
final class DayCache<Value>: Sendable {
    private let value = Mutex<Value?>(nil)

    func get(_ make: () -> Value) -> Value {
        value.withLock { value in
            if let value { return value }
            let made = make()
            value = made
            return made
        }
    }

    /// Lets the value go; asked again, it is made again.
    func forget() { value.withLock { $0 = nil } }
}

typealias DayIndex = DayCache<DistinctOverlaps>
typealias DaySweepCache = DayCache<SweptOverlaps?>
typealias DaySpanCache = DayCache<[Overlaps.Span]>
