/// JSON's `overlaps` value: the UIDs a row's answer names (`DayOverlaps.answer`, named by UID), as a JSON array
/// written straight into the line's bytes.
extension DayOverlaps {
    /// The bytes of the JSON array of the UIDs `ranks`.
    func jsonLength(of ranks: ArraySlice<Int32>) -> Int {
        var length = 1
        for rank in ranks { length += names.bounds[Int(rank) + 1] - names.bounds[Int(rank)] + 1 }
        return max(length, 2)
    }

    /// Writes the JSON array of the UIDs `ranks` at `p`; the bytes written.
    func writeUIDs(_ ranks: ArraySlice<Int32>, at p: UnsafeMutablePointer<UInt8>) -> Int {
        var q = p
        q[0] = 0x5B
        q += 1
        names.bytes.withUnsafeBufferPointer { bytes in
            for (n, rank) in ranks.enumerated() {
                if n > 0 {
                    q[0] = 0x2C
                    q += 1
                }
                let from = names.bounds[Int(rank)], count = names.bounds[Int(rank) + 1] - from
                q.update(from: bytes.baseAddress! + from, count: count)
                q += count
            }
        }
        q[0] = 0x5D
        return q + 1 - p
    }
}
