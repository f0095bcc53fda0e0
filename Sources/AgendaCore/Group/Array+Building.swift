extension Array {
    /// An empty array with room for `count` elements.
    static func reserved(_ count: Int) -> [Element] {
        var array: [Element] = []
        array.reserveCapacity(count)
        return array
    }
}

/// Slots of an array, each written by one thread (the parts a task is cut into, the threads' states).
struct SharedSlots<Element>: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<Element>
}

extension Array where Element: Equatable {
    /// Drops each element equal to the one before it (a sorted array keeps one of each).
    mutating func removeDuplicates() {
        var n = 0
        for k in indices where n == 0 || self[k] != self[n - 1] {
            self[n] = self[k]
            n += 1
        }
        removeLast(count - n)
    }
}
