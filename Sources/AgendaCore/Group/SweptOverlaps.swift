/// The distinct colours (a UID's rank, a title's group) of what overlaps
/// each span of one day, found for the whole day in one sweep: the first
/// `limit` of them (lowest first) and how many there are.
///
/// On a day whose spans each overlap a few dozen others, this costs a
/// fraction of asking an index (`DistinctOverlaps`) span by span, whose
/// trees are made for days where a span overlaps thousands. The spans are
/// taken a start at a time. Those begun earlier that run past it are kept
/// as a count a colour and a bit a colour running; a span beginning there
/// overlaps all of them and, when it lasts, the others beginning there
/// that last, and those that begin after the start and before its end. In
/// order of end, each of those spans sees what the one before saw and
/// what begins before its own end: a start costs the spans up to where
/// its longest ends and two words a 64 colours, and a span the words up
/// to its `limit`-th colour. A day where that passes
/// `Overlaps.sweptStepsPerSpan` a span is not swept (`init` fails) and is
/// left to the index, which answers the same.
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
    /// colour, or -1 for none (a span without a UID: it is answered, but
    /// counts for no other). Nil when the day would cost more than
    /// `stepsPerSpan` a span.
    init?(spans: UnsafeBufferPointer<Overlaps.Span>, colours: [Int32], limit: Int,
        stepsPerSpan: Int = Overlaps.sweptStepsPerSpan) {
        let n = spans.count
        var distinct = colours.filter { $0 >= 0 }
        distinct.sort()
        distinct.removeDuplicates()
        let words = (distinct.count + 63) / 64
        // What each start's lasting spans look at together: the spans from
        // the first of them to the end of the longest, and two words; and a
        // word a span to list its colours.
        var steps = n * words, i = 0
        while i < n {
            let j = SweptOverlaps.firstStart(atOrAfter: spans[i].start + 1, in: spans, from: i)
            if spans[j - 1].end > spans[i].start {
                steps += SweptOverlaps.firstStart(atOrAfter: spans[j - 1].end, in: spans, from: j) - i + 2 * words
            }
            i = j
        }
        let (budget, beyond) = stepsPerSpan.multipliedReportingOverflow(by: n)
        guard beyond || steps <= budget else { return nil }
        let place = colours.map { $0 >= 0 ? Int32(SweptOverlaps.place(of: $0, in: distinct)) : -1 }
        var sweep = ColourSweep(spans: spans, place: place, distinct: distinct, limit: limit)
        sweep.run()
        (self.limit, self.counts, self.firsts) = (limit, sweep.counts, sweep.firsts)
    }

    /// The first span from `low` on that starts at or after `time` (or the count).
    fileprivate static func firstStart(atOrAfter time: Int64, in spans: UnsafeBufferPointer<Overlaps.Span>,
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

/// One day's sweep (`SweptOverlaps`): the colours of the spans running at
/// the current start, and each span's answer as it is found.
private struct ColourSweep {
    let spans: UnsafeBufferPointer<Overlaps.Span>
    /// By span: its colour's place in `distinct` (ascending), or -1.
    let place: [Int32]
    let distinct: [Int32]
    let limit: Int
    let words: Int
    /// By place: the running spans of the colour, and a bit for each colour running.
    private var running: [Int32]
    private var runningBits: [UInt64]
    private var runningColours = 0
    /// By place: the lasting spans of the colour that begin at the current start.
    private var atStart: [Int32]
    /// By span: how many colours overlap it, and its first `limit` (-1 past its count).
    private(set) var counts: [Int32]
    private(set) var firsts: [Int32]

    init(spans: UnsafeBufferPointer<Overlaps.Span>, place: [Int32], distinct: [Int32], limit: Int) {
        (self.spans, self.place, self.distinct, self.limit) = (spans, place, distinct, limit)
        words = (distinct.count + 63) / 64
        running = [Int32](repeating: 0, count: distinct.count)
        runningBits = [UInt64](repeating: 0, count: words)
        atStart = [Int32](repeating: 0, count: distinct.count)
        counts = [Int32](repeating: 0, count: spans.count)
        firsts = [Int32](repeating: -1, count: spans.count * limit)
    }

    /// Takes the spans a start at a time; those that ended by it leave the
    /// running ones first, and its lasting ones join them after.
    mutating func run() {
        let n = spans.count
        // Lasting spans with a colour, by end.
        var byEnd = (0..<n).filter { place[$0] >= 0 && spans[$0].end > spans[$0].start }
        byEnd.sort { spans[$0].end < spans[$1].end }
        var ended = 0, i = 0
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * max(words, 1)) { scratch in
            let seen = UnsafeMutableBufferPointer(rebasing: scratch[0..<words])
            let ahead = UnsafeMutableBufferPointer(rebasing: scratch[words..<2 * words])
            while i < n {
                let s = spans[i].start
                let j = SweptOverlaps.firstStart(atOrAfter: s + 1, in: spans, from: i)
                while ended < byEnd.count && spans[byEnd[ended]].end <= s {
                    leave(place[byEnd[ended]])
                    ended += 1
                }
                // Zero-length spans come first of their start: they overlap what runs across their time.
                var k = i
                while k < j && spans[k].end == s {
                    for w in 0..<words { seen[w] = runningBits[w] }
                    counts[k] = Int32(runningColours)
                    list(seen, skipping: -1, for: k)
                    k += 1
                }
                if k < j { answerLasting(k..<j, seen: seen, ahead: ahead) }
                i = j
            }
        }
    }

    /// The lasting spans of one start (`group`, in order of end): each
    /// overlaps what runs at the start, the others of the group, and what
    /// begins after the start and before its end, which grows span by span.
    private mutating func answerLasting(_ group: Range<Int>, seen: UnsafeMutableBufferPointer<UInt64>,
        ahead: UnsafeMutableBufferPointer<UInt64>) {
        for w in 0..<words {
            seen[w] = runningBits[w]
            ahead[w] = 0
        }
        var colours = runningColours
        for m in group where place[m] >= 0 {
            let p = Int(place[m])
            atStart[p] += 1
            if ColourSweep.set(p, in: seen) { colours += 1 }
        }
        var next = group.upperBound
        for k in group {
            let upper = SweptOverlaps.firstStart(atOrAfter: spans[k].end, in: spans, from: next)
            while next < upper {
                if place[next] >= 0 {
                    let p = Int(place[next])
                    _ = ColourSweep.set(p, in: ahead)
                    if ColourSweep.set(p, in: seen) { colours += 1 }
                }
                next += 1
            }
            // Its own colour (when it has one) counts when another span of it overlaps it.
            let own = Int(place[k])
            let alone = own >= 0 && atStart[own] == 1 && running[own] == 0
                && ahead[own >> 6] & (1 << UInt64(own & 63)) == 0
            counts[k] = Int32(alone ? colours - 1 : colours)
            list(seen, skipping: alone ? own : -1, for: k)
        }
        for m in group where place[m] >= 0 {
            atStart[Int(place[m])] = 0
            join(place[m])
        }
    }

    /// Span `k`'s first colours (`counts[k]` known): the lowest bits set but `skipping`.
    private mutating func list(_ bits: UnsafeMutableBufferPointer<UInt64>, skipping: Int, for k: Int) {
        let wanted = min(Int(counts[k]), limit)
        var found = 0, w = 0
        while found < wanted && w < words {
            var word = bits[w]
            while word != 0 && found < wanted {
                let p = w << 6 + word.trailingZeroBitCount
                word &= word - 1
                if p == skipping { continue }
                firsts[k * limit + found] = distinct[p]
                found += 1
            }
            w += 1
        }
    }

    /// Sets bit `p`; whether it was clear.
    private static func set(_ p: Int, in bits: UnsafeMutableBufferPointer<UInt64>) -> Bool {
        let mask: UInt64 = 1 << UInt64(p & 63)
        defer { bits[p >> 6] |= mask }
        return bits[p >> 6] & mask == 0
    }

    private mutating func join(_ place: Int32) {
        let p = Int(place)
        if running[p] == 0 {
            runningBits[p >> 6] |= 1 << UInt64(p & 63)
            runningColours += 1
        }
        running[p] += 1
    }

    private mutating func leave(_ place: Int32) {
        let p = Int(place)
        running[p] -= 1
        if running[p] == 0 {
            runningBits[p >> 6] &= ~(1 << UInt64(p & 63))
            runningColours -= 1
        }
    }
}
