/// The first colours (smallest places) that overlap each span of a day of
/// many colours, and how many there are, found in one sweep of the day.
///
/// `DistinctOverlaps.forEachColour` gives every colour a span overlaps:
/// 50,000 talks with distinct titles at one hour each overlap 49,999, and
/// naming three of them and counting the rest took 50,000 steps a row, 15 s
/// for the day. Here the day's spans are taken in order of start, and each
/// colour keeps the first of its components that ends after the current
/// start: the colour overlaps a span exactly when that component starts
/// before the span ends (components of one colour do not overlap, and one
/// running at the start ends after it). A tree by place gives the smallest
/// places whose component starts early enough, a Fenwick tree by component
/// how many do: a row costs its `limit` and a logarithm, not the colours it
/// overlaps. Days of `manyColours` or fewer are left to `forEachColour`.
struct FirstColours: Sendable {
    /// Colours in a day past which its answers are found here.
    static let manyColours = 64

    /// A day's components, as `DistinctOverlaps` makes them.
    struct Components {
        let start: [Int64]
        let end: [Int64]
        let place: [Int32]
        let size: [Int32]
        let componentOfSpan: [Int32]
        let componentBounds: [Int32]
        let colourBounds: [Int32]
    }

    /// By span: its answer's number, or -1 (its day has few colours).
    private let slot: [Int32]
    /// By answer: how many colours, and the first `limit` places (ascending; -1 past the count).
    private let counts: [Int32]
    private let places: [Int32]
    private let limit: Int

    init() {
        slot = []
        counts = []
        places = []
        limit = 0
    }

    /// The span's count and first places, when its day was swept.
    func answer(at span: Int) -> (count: Int, places: ArraySlice<Int32>)? {
        guard span < slot.count, slot[span] >= 0 else { return nil }
        let n = Int(slot[span])
        let count = Int(counts[n])
        return (count, places[(n * limit)..<(n * limit + min(count, limit))])
    }

    /// - Parameter wanted: the spans to answer for (nil: every span of a day of many colours).
    init(limit: Int, spans: UnsafeBufferPointer<Overlaps.Span>, days: [Range<Int>], components c: Components,
        wanted: Set<Int>? = nil) {
        var slot = [Int32](repeating: -1, count: spans.count)
        var counts: [Int32] = []
        var places: [Int32] = []
        for (d, day) in days.enumerated() {
            let colours = Int(c.colourBounds[d + 1] - c.colourBounds[d])
            guard colours > FirstColours.manyColours else { continue }
            var sweep = DaySweep(components: c, day: d, colours: colours)
            var found: [Int32] = []
            for i in day {
                // Every span moves the sweep on; only those wanted are answered.
                let count = sweep.answer(spans[i], own: Int(c.componentOfSpan[i]), limit: limit, into: &found)
                if let wanted, !wanted.contains(i) { continue }
                slot[i] = Int32(counts.count)
                counts.append(Int32(count))
                places += found
                places += repeatElement(-1, count: limit - found.count)
            }
        }
        self.slot = counts.isEmpty ? [] : slot
        self.counts = counts
        self.places = places
        self.limit = limit
    }
}

/// One day's sweep: its spans must be asked in order of start.
private struct DaySweep {
    let c: FirstColours.Components
    let low: Int, high: Int
    /// By component: the next of its colour, or -1.
    var next: [Int32]
    /// By place: its first component that ends after the current start
    /// (an index from `low`), or `high - low` when none is left.
    var current: [Int32]
    /// Min-heap of (end, place) of the current components.
    var heap: [(end: Int64, place: Int32)] = []
    /// Fenwick tree over component numbers: how many places' current component is each.
    var fenwick: [Int32]
    /// Min tree over places of `current` (leaves from `leaves`).
    var leaves = 1
    var minimum: [Int32]

    init(components: FirstColours.Components, day d: Int, colours: Int) {
        c = components
        low = Int(c.componentBounds[d])
        high = Int(c.componentBounds[d + 1])
        let m = high - low
        next = [Int32](repeating: -1, count: m)
        current = [Int32](repeating: Int32(m), count: colours)
        var last = [Int32](repeating: -1, count: colours)
        for k in 0..<m {
            let p = Int(c.place[low + k])
            if last[p] >= 0 { next[Int(last[p])] = Int32(k) } else { current[p] = Int32(k) }
            last[p] = Int32(k)
        }
        fenwick = [Int32](repeating: 0, count: m + 1)
        while leaves < colours { leaves *= 2 }
        minimum = [Int32](repeating: Int32(m), count: 2 * leaves)
        for p in 0..<colours where current[p] < m {
            add(Int(current[p]), 1)
            push((c.end[low + Int(current[p])], Int32(p)))
            minimum[leaves + p] = current[p]
        }
        for node in stride(from: leaves - 1, to: 0, by: -1) {
            minimum[node] = min(minimum[2 * node], minimum[2 * node + 1])
        }
    }

    /// How many colours other than its own lone one overlap `span`, and the
    /// first `limit` of their places into `found`, ascending.
    mutating func answer(_ span: Overlaps.Span, own: Int, limit: Int, into found: inout [Int32]) -> Int {
        let s = span.start, m = high - low
        // Components that ended by the start give way to their colour's next.
        while let top = heap.first, top.end <= s {
            pop()
            let p = Int(top.place)
            var k = Int(next[Int(current[p])])
            while k >= 0 && c.end[low + k] <= s { k = Int(next[k]) }
            add(Int(current[p]), -1)
            current[p] = k >= 0 ? Int32(k) : Int32(m)
            if k >= 0 {
                add(k, 1)
                push((c.end[low + k], Int32(p)))
            }
            set(p, current[p])
        }
        // Overlapping: a current component that starts before the span ends
        // (before its time, for a zero-length span).
        let bound = DistinctOverlaps.firstStart(atOrAfter: span.end, in: c.start, low, high) - low
        var count = prefix(bound)
        var skip = -1
        if own >= 0, c.size[own] == 1, current[Int(c.place[own])] < bound {
            skip = Int(c.place[own])
            count -= 1
        }
        found.removeAll(keepingCapacity: true)
        collect(below: Int32(bound), skipping: skip, limit: limit, into: &found)
        return count
    }

    /// The smallest places whose current component is below `bound`, in order.
    private func collect(below bound: Int32, skipping skip: Int, limit: Int, into found: inout [Int32]) {
        guard limit > 0 else { return }
        // Depth first, the left child on top: at most one waiting right
        // child a level (64 levels hold any count of leaves); on the stack,
        // as every row asks.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 66) { stack in
            stack[0] = 1
            var top = 1
            while top > 0 && found.count < limit {
                top -= 1
                let node = stack[top]
                guard minimum[node] < bound else { continue }
                if node >= leaves {
                    if node - leaves != skip { found.append(Int32(node - leaves)) }
                    continue
                }
                stack[top] = 2 * node + 1
                stack[top + 1] = 2 * node
                top += 2
            }
        }
    }

    private mutating func set(_ p: Int, _ value: Int32) {
        var node = leaves + p
        minimum[node] = value
        node /= 2
        while node > 0 {
            minimum[node] = min(minimum[2 * node], minimum[2 * node + 1])
            node /= 2
        }
    }

    private mutating func add(_ k: Int, _ delta: Int32) {
        var i = k + 1
        while i < fenwick.count {
            fenwick[i] += delta
            i += i & -i
        }
    }

    /// How many current components are numbered below `k`.
    private func prefix(_ k: Int) -> Int {
        var i = k, total: Int32 = 0
        while i > 0 {
            total += fenwick[i]
            i -= i & -i
        }
        return Int(total)
    }

    private mutating func push(_ item: (end: Int64, place: Int32)) {
        heap.append(item)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[i].end < heap[parent].end else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func pop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var smallest = i
            if l < heap.count && heap[l].end < heap[smallest].end { smallest = l }
            if r < heap.count && heap[r].end < heap[smallest].end { smallest = r }
            guard smallest != i else { break }
            heap.swapAt(i, smallest)
            i = smallest
        }
    }
}
