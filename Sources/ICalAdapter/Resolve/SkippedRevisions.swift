/// The revisions of one-off events that the prefilter skipped (far from the
/// window), kept by a 64-bit fingerprint of their UID rather than the UID:
/// a skipped event lists nothing, but it may be the newer (or older)
/// revision of one that does. About 10 bytes an event, so that a file of
/// millions of old events costs little more than its rows.
///
/// At most `capacity` UIDs are kept; the skipped events beyond them are
/// counted but not remembered (a revision of one of them that is listed
/// is then listed).
struct SkippedRevisions {
    /// The UIDs remembered: 16 million, about 160 MB.
    static let capacity = 1 << 24

    /// Fingerprints by their top byte, each table open-addressed (0 is empty).
    private var tables = [[UInt64]](repeating: [], count: 256)
    private var counts = [Int](repeating: 0, count: 256)
    /// SEQUENCE and whether it recurs, for the few that are not 0 and no.
    private var unusual: [UInt64: (sequence: Int, recurs: Bool)] = [:]
    private(set) var count = 0

    var isFull: Bool { count >= SkippedRevisions.capacity }

    /// The fingerprint of a UID (FNV-1a, then mixed; never 0).
    static func fingerprint(_ uid: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in uid.utf8 { h = (h ^ UInt64(byte)) &* 0x0100_0000_01b3 }
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        return h == 0 ? 1 : h
    }

    /// The newest revision skipped so far with this fingerprint.
    func revision(_ fingerprint: UInt64) -> (sequence: Int, recurs: Bool)? {
        let table = tables[Int(fingerprint >> 56)]
        guard !table.isEmpty else { return nil }
        let mask = table.count - 1
        var i = Int(truncatingIfNeeded: fingerprint) & mask
        while table[i] != 0 {
            if table[i] == fingerprint { return unusual[fingerprint] ?? (0, false) }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Keeps the newer of this revision and the one before it (as
    /// `Revision.isNewer` decides); returns whether one was there before.
    @discardableResult
    mutating func record(_ fingerprint: UInt64, sequence: Int, recurs: Bool) -> Bool {
        let old = revision(fingerprint)
        if old == nil && isFull { return false }
        var kept = (sequence: sequence, recurs: recurs)
        if let old, !(sequence != old.sequence ? sequence > old.sequence : (recurs || old.recurs)) { kept = old }
        if kept.sequence != 0 || kept.recurs { unusual[fingerprint] = kept } else { unusual[fingerprint] = nil }
        guard old == nil else { return true }
        insert(fingerprint)
        return false
    }

    private mutating func insert(_ fingerprint: UInt64) {
        let t = Int(fingerprint >> 56)
        if tables[t].isEmpty || (counts[t] + 1) * 8 > tables[t].count * 7 { grow(t) }
        let mask = tables[t].count - 1
        var i = Int(truncatingIfNeeded: fingerprint) & mask
        while tables[t][i] != 0 { i = (i + 1) & mask }
        tables[t][i] = fingerprint
        counts[t] += 1
        count += 1
    }

    private mutating func grow(_ t: Int) {
        let old = tables[t]
        var table = [UInt64](repeating: 0, count: max(64, old.count * 2))
        let mask = table.count - 1
        for f in old where f != 0 {
            var i = Int(truncatingIfNeeded: f) & mask
            while table[i] != 0 { i = (i + 1) & mask }
            table[i] = f
        }
        tables[t] = table
    }
}
