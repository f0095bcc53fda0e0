/// One result a slot, each written by one worker and read once every
/// worker is done (concurrentPerform's return, or a DispatchGroup's wait,
/// orders the two): plain memory, so that no array is shared between threads.
package final class Slots<Value>: @unchecked Sendable {
    /// The slots, to be read or written in place.
    package let buffer: UnsafeMutableBufferPointer<Value>

    package init(count: Int, initial: Value) {
        buffer = .allocate(capacity: count)
        buffer.initialize(repeating: initial)
    }

    deinit {
        buffer.deinitialize()
        buffer.deallocate()
    }

    package subscript(i: Int) -> Value {
        get { buffer[i] }
        set { buffer[i] = newValue }
    }

    /// Every slot's value, in order.
    package var values: [Value] { Array(buffer) }
}
