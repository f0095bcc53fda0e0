/// The revisions of masters that list nothing in the window (one-off events
/// the prefilter skipped unread, events and series read that have no
/// instance in it), kept by a 64-bit fingerprint of their UID rather than
/// the UID: such a master lists nothing, but it may be the newer (or older)
/// revision of one that does. About 10 bytes a master, so that a file of
/// millions of old events or series costs little more than its rows.
///
/// At most `capacity` UIDs are kept; the masters beyond them are counted
/// but not remembered (a revision of one of them that is listed is then
/// listed).
struct SkippedRevisions {
    /// The UIDs remembered: 16 million, about 160 MB.
    static let capacity = 1 << 24

    /// Fingerprints by their top byte, each table open-addressed (0 is
    /// empty); the lowest bit of an entry says whether that revision recurs.
    private var tables = [[UInt64]](repeating: [], count: 256)
    private var counts = [Int](repeating: 0, count: 256)
    /// SEQUENCE, for the few revisions where it is not 0.
    private var sequences: [UInt64: Int] = [:]
    private(set) var count = 0

    var isFull: Bool { count >= SkippedRevisions.capacity }

    /// The fingerprint of a UID (FNV-1a, then mixed; never 0, its lowest bit 0).
    static func fingerprint(_ uid: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in uid.utf8 { h = (h ^ UInt64(byte)) &* 0x0100_0000_01b3 }
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h &= ~1
        return h == 0 ? 2 : h
    }

    /// The newest revision skipped so far with this fingerprint.
    func revision(_ fingerprint: UInt64) -> (sequence: Int, recurs: Bool)? {
        guard let (t, i) = place(of: fingerprint) else { return nil }
        return (sequences[fingerprint] ?? 0, tables[t][i] & 1 == 1)
    }

    /// The table and slot holding a fingerprint.
    private func place(of fingerprint: UInt64) -> (table: Int, slot: Int)? {
        let t = Int(fingerprint >> 56)
        let table = tables[t]
        guard !table.isEmpty else { return nil }
        let mask = table.count - 1
        var i = Int(truncatingIfNeeded: fingerprint >> 1) & mask
        while table[i] != 0 {
            if table[i] & ~1 == fingerprint { return (t, i) }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Keeps the newer of this revision and the one before it (as
    /// `Revision.isNewer` decides); returns whether one was there before.
    @discardableResult
    mutating func record(_ fingerprint: UInt64, sequence: Int, recurs: Bool) -> Bool {
        let place = place(of: fingerprint)
        if place == nil && isFull { return false }
        var kept = (sequence: sequence, recurs: recurs)
        if let (t, i) = place {
            let old = (sequence: sequences[fingerprint] ?? 0, recurs: tables[t][i] & 1 == 1)
            if !(sequence != old.sequence ? sequence > old.sequence : (recurs || old.recurs)) { kept = old }
            tables[t][i] = fingerprint | (kept.recurs ? 1 : 0)
        } else {
            insert(fingerprint | (recurs ? 1 : 0))
        }
        sequences[fingerprint] = kept.sequence != 0 ? kept.sequence : nil
        return place != nil
    }

    private mutating func insert(_ entry: UInt64) {
        let t = Int(entry >> 56)
        if tables[t].isEmpty || (counts[t] + 1) * 8 > tables[t].count * 7 { grow(t) }
        let mask = tables[t].count - 1
        var i = Int(truncatingIfNeeded: entry >> 1) & mask
        while tables[t][i] != 0 { i = (i + 1) & mask }
        tables[t][i] = entry
        counts[t] += 1
        count += 1
    }

    private mutating func grow(_ t: Int) {
        let old = tables[t]
        var table = [UInt64](repeating: 0, count: max(64, old.count * 2))
        let mask = table.count - 1
        for entry in old where entry != 0 {
            var i = Int(truncatingIfNeeded: entry >> 1) & mask
            while table[i] != 0 { i = (i + 1) & mask }
            table[i] = entry
        }
        tables[t] = table
    }
}
