/// The distinct colours (a UID's rank, a title's group) of what overlaps each span asked about (a day's, or the
/// whole occurrences of a run of days): how many, and the first `limit`, in time that does not grow with how many
/// spans overlap it (50,000 talks at one hour took 15 s when each listed the other 49,999).
///
/// The spans of each colour are first joined into components (spans linked by overlapping): a span overlaps a
/// colour exactly when it overlaps one of that colour's components other than its own alone. The spans asked about
/// are taken in order of start, and each colour keeps its current component, the first that ends after that start:
/// the colour overlaps the span exactly when that component starts before the span ends (components of one colour
/// do not overlap): it has begun (a bit a colour), or begins inside the span. The first `limit` are the lowest bits;
/// where those words or those beginning are many, a Fenwick tree by component counts them, and a tree by colour of
/// the current components finds the first in a logarithm each.
///
/// Overlap is `a.start < b.end && b.start < a.end` (seconds): an end equal to another's start is not an overlap, and
/// a zero-length span overlaps what runs across its time.
struct ComponentSweep {
    /// Components in order of start (then end): their times, colours (as places in `distinct`, ascending), sizes.
    private var start: [Int64] = [], end: [Int64] = [], place: [Int32] = [], size: [Int32] = []
    private var distinct: [Int32] = []
    /// By span: its component, or -1 (no colour).
    private var componentOfSpan: [Int32]
    /// By component: the next of its colour, or -1. By place: its current component (`start.count` for none).
    private var next: [Int32] = [], current: [Int32] = []
    /// Components by end, and how many of them have been passed; how many (in order of start) have begun.
    private var byEnd: [Int32] = []
    private var passed = 0, begun = 0
    /// A bit a place whose current component has begun, how many, and room to add those beginning inside a span.
    private var running: [UInt64] = [], runningCount = 0, scratch: [UInt64] = []
    /// A Fenwick tree by component (1 where a colour's current one is), and a tree of the least `current` by place,
    /// brought up to date with the changes to `current` when a span needs them (`sync`).
    private var fenwick: [Int32] = [], leaves = 1, least: [Int32] = []
    private var pending: [(place: Int32, was: Int32, now: Int32)] = []
    private var byBits = 256

    /// The answers of the spans `asked` (indexes of `spans`, in order of start). `spans`: sorted by start and end;
    /// `colours`: each span's colour, or -1 for none (it is answered, but counts for no other span).
    /// `byBits`: how many components beginning inside a span its first colours are found by bits with, at most.
    static func answers(spans: UnsafeBufferPointer<Overlaps.Span>, colours: [Int32], asked: [Int], limit: Int,
        byBits: Int = 256) -> ColourAnswers {
        var sweep = ComponentSweep(spans: spans, colours: colours)
        sweep.byBits = byBits
        var answers = ColourAnswers(limit: limit, count: asked.count), counts = answers.counts
        answers.firsts.withUnsafeMutableBufferPointer { firsts in
            for (q, i) in asked.enumerated() {
                counts[q] = Int32(sweep.answer(spans[i], own: Int(sweep.componentOfSpan[i]),
                    into: UnsafeMutableBufferPointer(rebasing: firsts[(q * limit)..<((q + 1) * limit)])))
            }
        }
        answers.counts = counts
        return answers
    }

    private init(spans: UnsafeBufferPointer<Overlaps.Span>, colours: [Int32]) {
        // By colour, then span (as one number: sorted without a comparison closure).
        var byColour = colours.indices.compactMap { colours[$0] >= 0 ? UInt64(colours[$0]) << 32 | UInt64($0) : nil }
        byColour.sort()
        // Each colour's spans in order of start: one joins the component whose latest end is past its start.
        var made: [(start: Int64, end: Int64, place: Int32, size: Int32)] = []
        var madeOfSpan = [Int32](repeating: -1, count: spans.count)
        var opens = [Bool](repeating: false, count: spans.count)
        for key in byColour {
            let i = Int(key & 0xFFFF_FFFF), span = spans[i]
            if distinct.last == colours[i], span.start < made[made.count - 1].end {
                made[made.count - 1].end = max(made[made.count - 1].end, span.end)
                made[made.count - 1].size += 1
            } else {
                if distinct.last != colours[i] { distinct.append(colours[i]) }
                made.append((span.start, span.end, Int32(distinct.count - 1), 1))
                opens[i] = true
            }
            madeOfSpan[i] = Int32(made.count - 1)
        }
        // Numbered in order of their first spans: of start.
        var number = [Int32](repeating: 0, count: made.count)
        for i in spans.indices where opens[i] {
            let m = Int(madeOfSpan[i])
            number[m] = Int32(start.count)
            start.append(made[m].start)
            end.append(made[m].end)
            place.append(made[m].place)
            size.append(made[m].size)
        }
        componentOfSpan = madeOfSpan.map { $0 >= 0 ? number[Int($0)] : -1 }
        let m = Int32(start.count)
        (next, current) = ([Int32](repeating: -1, count: start.count), [Int32](repeating: m, count: distinct.count))
        var last = [Int32](repeating: -1, count: distinct.count)
        for k in 0..<start.count {
            let p = Int(place[k])
            if last[p] >= 0 { next[Int(last[p])] = Int32(k) } else { current[p] = Int32(k) }
            last[p] = Int32(k)
        }
        byEnd = (0..<m).sorted { (end[Int($0)], $0) < (end[Int($1)], $1) }
        running = [UInt64](repeating: 0, count: (distinct.count + 63) / 64)
        scratch = running
        fenwick = [Int32](repeating: 0, count: start.count + 1)
        while leaves < distinct.count { leaves *= 2 }
        least = [Int32](repeating: m, count: 2 * leaves)
        for p in distinct.indices {
            add(Int(current[p]), 1)
            least[leaves + p] = current[p]
        }
        for node in stride(from: leaves - 1, to: 0, by: -1) { least[node] = min(least[2 * node], least[2 * node + 1]) }
    }

    /// How many colours other than its own lone one overlap `span` (its component `own`), and the first of them
    /// into `first` (as many as it holds), ascending. Spans must be asked in order of start.
    private mutating func answer(_ span: Overlaps.Span, own: Int, into first: UnsafeMutableBufferPointer<Int32>)
        -> Int {
        let s = span.start, e = span.end, m = Int32(start.count)
        // Components that ended by the start give way to their colour's next that has not.
        while passed < byEnd.count && end[Int(byEnd[passed])] <= s {
            let k = byEnd[passed]
            passed += 1
            let p = Int(place[Int(k)])
            guard current[p] == k else { continue }
            var n = next[Int(k)]
            while n >= 0 && end[Int(n)] <= s { n = next[Int(n)] }
            current[p] = n >= 0 ? n : m
            pending.append((Int32(p), k, current[p]))
            if k < begun && current[p] >= begun {
                running[p >> 6] &= ~(1 << UInt64(p & 63))
                runningCount -= 1
            }
        }
        // Components begun by then: before it, or at its start for a lasting span.
        while begun < start.count && (start[begun] < s || (e > s && start[begun] == s)) {
            let p = Int(place[begun])
            if current[p] == begun {
                running[p >> 6] |= 1 << UInt64(p & 63)
                runningCount += 1
            }
            begun += 1
        }
        // Overlapping: a current component that starts before the span ends.
        var bound = begun, high = start.count
        while bound < high {
            let middle = (bound + high) / 2
            if start[middle] < e { bound = middle + 1 } else { high = middle }
        }
        let skip = own >= 0 && size[own] == 1 && current[Int(place[own])] < bound ? Int(place[own]) : -1
        guard running.count <= 64 && bound - begun <= byBits else {
            let count = sync(below: bound) - (skip >= 0 ? 1 : 0)
            var n = 0
            collect(1, below: Int32(bound), skipping: skip, into: UnsafeMutableBufferPointer(
                rebasing: first[..<min(first.count, count)]), &n)
            return count
        }
        // The running colours' bits and those of the current components beginning inside it, lowest first.
        var count = runningCount - (skip >= 0 ? 1 : 0)
        for w in running.indices { scratch[w] = running[w] }
        for k in begun..<bound where current[Int(place[k])] == k {
            scratch[Int(place[k]) >> 6] |= 1 << UInt64(place[k] & 63)
            count += 1
        }
        let wanted = min(first.count, count)
        var found = 0, w = 0
        while found < wanted && w < scratch.count {
            var word = scratch[w]
            while word != 0 && found < wanted {
                let p = w << 6 + word.trailingZeroBitCount
                word &= word - 1
                if p != skip {
                    first[found] = distinct[p]
                    found += 1
                }
            }
            w += 1
        }
        return count
    }

    /// Brings the trees up to date with `current`; how many current components are below `bound`.
    private mutating func sync(below bound: Int) -> Int {
        for (p, was, now) in pending {
            if was < start.count { add(Int(was), -1) }
            if now < start.count { add(Int(now), 1) }
            var node = leaves + Int(p)
            least[node] = now
            while node > 1 {
                node /= 2
                least[node] = min(least[2 * node], least[2 * node + 1])
            }
        }
        pending.removeAll(keepingCapacity: true)
        var count = 0, k = bound
        while k > 0 {
            count += Int(fenwick[k])
            k -= k & -k
        }
        return count
    }

    /// The colours of the smallest places under `node` whose current component is below `bound`, in order, into
    /// `found` from `n` on, as many as it holds (depth first: a logarithm each).
    private func collect(_ node: Int, below bound: Int32, skipping skip: Int,
        into found: UnsafeMutableBufferPointer<Int32>, _ n: inout Int) {
        guard n < found.count && least[node] < bound else { return }
        guard node < leaves else {
            if node - leaves != skip { (found[n], n) = (distinct[node - leaves], n + 1) }
            return
        }
        collect(2 * node, below: bound, skipping: skip, into: found, &n)
        collect(2 * node + 1, below: bound, skipping: skip, into: found, &n)
    }

    private mutating func add(_ k: Int, _ delta: Int32) {
        var i = k + 1
        while i < fenwick.count {
            fenwick[i] += delta
            i += i & -i
        }
    }
}
