/// JSON's `overlaps` value: the UIDs `Overlaps.uidRanks` found for a row,
/// as a JSON array written straight into the line's bytes.
extension Overlaps {
    /// The bytes of the JSON array of `ranks`.
    func jsonLength(of ranks: [Int32], names: ItemNames? = nil) -> Int {
        var length = 1
        let bounds = (names ?? uids).bounds
        for rank in ranks { length += bounds[Int(rank) + 1] - bounds[Int(rank)] + 1 }
        return max(length, 2)
    }

    /// The row's JSON `overlaps` value, as text.
    package func json(of row: AgendaRow) -> String {
        var ranks: [Int32] = []
        _ = uidRanks(of: row, into: &ranks)
        let length = jsonLength(of: ranks)
        var bytes = [UInt8](repeating: 0, count: length)
        let written = bytes.withUnsafeMutableBufferPointer {
            row.overlap >= 0 ? writeUIDs(ranks, at: $0.baseAddress!) : 0
        }
        return row.overlap >= 0 ? String(decoding: bytes[..<written], as: UTF8.self) : "[]"
    }

    /// Writes the JSON array of `ranks` (from `uidRanks`) at `p`; the bytes written.
    /// `names`: the agenda's `uids`, when the caller holds them (asking for
    /// them counted a reference to one object on every thread, a row at a time).
    func writeUIDs(_ ranks: [Int32], at p: UnsafeMutablePointer<UInt8>, names: ItemNames? = nil) -> Int {
        var q = p
        q[0] = 0x5B
        q += 1
        let uids = names ?? self.uids, bounds = uids.bounds
        uids.bytes.withUnsafeBufferPointer { bytes in
            for (n, rank) in ranks.enumerated() {
                if n > 0 {
                    q[0] = 0x2C
                    q += 1
                }
                let from = bounds[Int(rank)], count = bounds[Int(rank) + 1] - from
                q.update(from: bytes.baseAddress! + from, count: count)
                q += count
            }
        }
        q[0] = 0x5D
        return q + 1 - p
    }
}
