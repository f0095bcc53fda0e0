/// The distinct colours (a UID's rank, a title's group) of what overlaps
/// each span of one day, found for the whole day in one sweep: the first
/// `limit` of them (lowest first) and how many there are.
///
/// On a day whose spans each overlap a few dozen others, this costs a
/// fraction of asking an index (`DistinctOverlaps`) span by span, whose
/// trees are made for days where a span overlaps thousands. The spans are
/// taken in order of start. Those begun at an earlier time that run past
/// the current start are kept as a count a colour and a bit a colour
/// counted; a span overlaps all of them, and (when it lasts) the others
/// that begin at its start and last, and those that begin after its start
/// and before its end. The bits set are its colours, in order. A span
/// costs what it looks at from its start on, and a word a 64 colours: a
/// day where that passes `Overlaps.sweptStepsPerSpan` a span is not swept
/// (`init` fails) and is left to the index, which answers the same.
///
/// Overlap is `a.start < b.end && b.start < a.end`, as for the index.
final class SweptOverlaps: Sendable {
    /// Colours listed a span.
    private let limit: Int
    /// By span: how many colours overlap it.
    private let counts: [Int32]
    /// By span, `limit` each: its first colours, ascending (-1 past its count).
    private let firsts: [Int32]

    /// The colours that overlap span `k` of the day: how many, and the first `limit`, ascending.
    func answer(at k: Int) -> (count: Int, colours: ArraySlice<Int32>) {
        let count = Int(counts[k])
        return (count, firsts[(k * limit)..<(k * limit + min(count, limit))])
    }

    /// `spans`: one day's, sorted by start and end; `colours`: each span's
    /// colour, or -1 for none (it neither counts nor is answered). Nil when
    /// the day would cost more than `stepsPerSpan` a span.
    init?(spans: UnsafeBufferPointer<Overlaps.Span>, colours: [Int32], limit: Int,
        stepsPerSpan: Int = Overlaps.sweptStepsPerSpan) {
        let n = spans.count
        // What each lasting span looks at: its start's others and those begun before its end.
        var steps = 0, group = 0
        for i in 0..<n {
            if spans[i].start != spans[group].start { group = i }
            guard spans[i].end > spans[i].start else { continue }
            steps += SweptOverlaps.firstStart(atOrAfter: spans[i].end, in: spans, from: i) - group
        }
        var distinct = colours.filter { $0 >= 0 }
        distinct.sort()
        distinct.removeDuplicates()
        let words = (distinct.count + 63) / 64
        guard steps + n * words <= stepsPerSpan * n else { return nil }
        let place = colours.map { $0 >= 0 ? Int32(SweptOverlaps.place(of: $0, in: distinct)) : -1 }
        var counts = [Int32](repeating: 0, count: n)
        var firsts = [Int32](repeating: -1, count: n * limit)
        var active = ActiveColours(colours: distinct.count)
        // Lasting spans with a colour by end: they leave the active ones once the sweep reaches their end.
        var byEnd = (0..<n).filter { place[$0] >= 0 && spans[$0].end > spans[$0].start }
        byEnd.sort { spans[$0].end < spans[$1].end }
        var ended = 0
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: max(words, 1)) { bits in
            var i = 0
            while i < n {
                let s = spans[i].start
                var j = i + 1
                while j < n && spans[j].start == s { j += 1 }
                while ended < byEnd.count && spans[byEnd[ended]].end <= s {
                    active.remove(place[byEnd[ended]])
                    ended += 1
                }
                for k in i..<j where place[k] >= 0 {
                    active.copy(into: bits)
                    if spans[k].end > s {
                        let upper = SweptOverlaps.firstStart(atOrAfter: spans[k].end, in: spans, from: j)
                        for m in i..<upper where m != k && place[m] >= 0 && (m >= j || spans[m].end > s) {
                            bits[Int(place[m]) >> 6] |= 1 << UInt64(place[m] & 63)
                        }
                    }
                    counts[k] = Int32(SweptOverlaps.list(bits, words: words, distinct: distinct,
                        into: &firsts, at: k * limit, limit: limit))
                }
                for k in i..<j where place[k] >= 0 && spans[k].end > s { active.add(place[k]) }
                i = j
            }
        }
        (self.limit, self.counts, self.firsts) = (limit, counts, firsts)
    }

    /// The colours of the bits set, the first `limit` into `firsts` from
    /// `at`; how many bits are set.
    private static func list(_ bits: UnsafeMutableBufferPointer<UInt64>, words: Int, distinct: [Int32],
        into firsts: inout [Int32], at: Int, limit: Int) -> Int {
        var count = 0
        for w in 0..<words {
            var word = bits[w]
            while word != 0 && count < limit {
                firsts[at + count] = distinct[w << 6 + word.trailingZeroBitCount]
                count += 1
                word &= word - 1
            }
            count += word.nonzeroBitCount
        }
        return count
    }

    /// The first span from `low` on that starts at or after `time` (or the count).
    private static func firstStart(atOrAfter time: Int64, in spans: UnsafeBufferPointer<Overlaps.Span>,
        from low: Int) -> Int {
        var a = low, b = spans.count
        while a < b {
            let m = (a + b) / 2
            if spans[m].start < time { a = m + 1 } else { b = m }
        }
        return a
    }

    /// The place of `colour` in `distinct` (ascending, holding it).
    private static func place(of colour: Int32, in distinct: [Int32]) -> Int {
        var a = 0, b = distinct.count
        while a < b {
            let m = (a + b) / 2
            if distinct[m] < colour { a = m + 1 } else { b = m }
        }
        return a
    }
}

/// The colours of the spans running at the sweep's time: a count a colour,
/// and a bit for each colour counted.
private struct ActiveColours {
    private var count: [Int32]
    private var bits: [UInt64]

    init(colours: Int) {
        count = [Int32](repeating: 0, count: colours)
        bits = [UInt64](repeating: 0, count: (colours + 63) / 64)
    }

    mutating func add(_ place: Int32) {
        let p = Int(place)
        if count[p] == 0 { bits[p >> 6] |= 1 << UInt64(p & 63) }
        count[p] += 1
    }

    mutating func remove(_ place: Int32) {
        let p = Int(place)
        count[p] -= 1
        if count[p] == 0 { bits[p >> 6] &= ~(1 << UInt64(p & 63)) }
    }

    func copy(into target: UnsafeMutableBufferPointer<UInt64>) {
        for w in bits.indices { target[w] = bits[w] }
    }
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
