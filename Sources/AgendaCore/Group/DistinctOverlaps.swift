/// The distinct colours (a UID's rank, a title's group) of what overlaps a
/// span, found in time that grows with their number, not with how many
/// spans overlap it.
///
/// A series of a thousand overlapping occurrences is one UID and one
/// title: listing each occurrence that overlaps a row, then dropping the
/// repeats, costs a thousand steps a row and a million a day (a
/// `FREQ=SECONDLY` series of nine-hour events: a hundred thousand rows of
/// thirty thousand each). So the spans of each colour are first joined into
/// components (spans linked by overlapping), and a span overlaps a colour
/// exactly when it overlaps one of that colour's components other than its
/// own alone. A colour's components do not overlap each other, so at most
/// one of them runs at a span's start, and those that begin later inside
/// the span matter only for the first of them: the one whose previous
/// component of the colour ended by the span's start. Two trees over each
/// day's components in start order find both kinds, each colour once.
///
/// Overlap is `a.start < b.end && b.start < a.end` (seconds): an end equal
/// to another's start is not an overlap, and a zero-length span overlaps
/// what runs across its time.
final class DistinctOverlaps: Sendable {
    /// Components, by day and then in order of start and end.
    private let start: [Int64]
    private let end: [Int64]
    /// A component's colour, as its place among its day's colours
    /// (`colours(ofDayOf:)`, which lists them in ascending order).
    private let place: [Int32]
    /// The end of the colour's previous component that day (`Int64.min` for its first).
    private let previousEnd: [Int64]
    /// How many spans each component joins.
    private let size: [Int32]
    /// By span: its component, or -1 (no colour).
    private let componentOfSpan: [Int32]
    /// By span: its day (an index of `days`).
    private let dayOfSpan: [Int32]
    /// Day d's components are `componentBounds[d]..<componentBounds[d + 1]`,
    /// its distinct colours (ascending) `dayColours[colourBounds[d]..<colourBounds[d + 1]]`.
    private let componentBounds: [Int32]
    private let colourBounds: [Int32]
    private let dayColours: [Int32]
    /// Trees over the components (leaves from `leaves`): the latest end
    /// and the earliest previous end under each node.
    private let leaves: Int
    private let latestEnd: [Int64]
    private let earliestPreviousEnd: [Int64]

    /// For days of many colours, each span's first colours and their count,
    /// found once for the day (`FirstColours`); empty when none was asked for.
    let firstColours: FirstColours

    /// `days` are consecutive ranges of `spans`, each sorted by start and
    /// end; `colourOf` gives a span's colour, or -1 for none. With `first`,
    /// the first that many colours of each span of a day of many colours
    /// are found at once (`firstColours`).
    init(spans: UnsafeBufferPointer<Overlaps.Span>, days: [Range<Int>], first: Int? = nil, wanted: Set<Int>? = nil,
        colourOf: (Overlaps.Span) -> Int32) {
        // At most a component, and a colour, a span: reserved once, since arrays that doubled held up to twice
        // the spans (an index of whole occurrences, `Overlaps.byWholeOccurrence`, has every span of its days).
        let n = spans.count, busiest = days.map(\.count).max() ?? 0
        var start: [Int64] = .reserved(n), end: [Int64] = .reserved(n), place: [Int32] = .reserved(n),
            previousEnd: [Int64] = .reserved(n)
        var size: [Int32] = .reserved(n)
        var componentOfSpan = [Int32](repeating: -1, count: spans.count)
        var dayOfSpan = [Int32](repeating: 0, count: spans.count)
        var componentBounds: [Int32] = [0], colourBounds: [Int32] = [0], dayColours: [Int32] = .reserved(n)
        var byColour: [(colour: Int32, span: Int32)] = .reserved(busiest)
        var made: [(start: Int64, end: Int64, place: Int32, previousEnd: Int64, size: Int32)] = .reserved(busiest)
        // the component each span of `byColour` joined, as an index in `made`
        var spanOfMade: [Int32] = .reserved(busiest)
        for (d, day) in days.enumerated() {
            byColour.removeAll(keepingCapacity: true)
            for i in day {
                dayOfSpan[i] = Int32(d)
                let c = colourOf(spans[i])
                if c >= 0 { byColour.append((c, Int32(i))) }
            }
            // By colour, keeping the day's start order within a colour.
            byColour.sort { $0.colour != $1.colour ? $0.colour < $1.colour : $0.span < $1.span }
            made.removeAll(keepingCapacity: true)
            spanOfMade.removeAll(keepingCapacity: true)
            let firstColour = dayColours.count
            var n = 0
            while n < byColour.count {
                let c = byColour[n].colour
                let p = Int32(dayColours.count - firstColour)
                dayColours.append(c)
                let first = made.count
                var previous = Int64.min
                while n < byColour.count && byColour[n].colour == c {
                    let span = spans[Int(byColour[n].span)]
                    // In start (then end) order: a span joins the component
                    // it overlaps, whose latest end is past its start.
                    if made.count > first, span.start < made[made.count - 1].end {
                        made[made.count - 1].end = max(made[made.count - 1].end, span.end)
                        made[made.count - 1].size += 1
                    } else {
                        if made.count > first { previous = made[made.count - 1].end }
                        made.append((span.start, span.end, p, previous, 1))
                    }
                    spanOfMade.append(Int32(made.count - 1))
                    n += 1
                }
            }
            var order = Array(made.indices)
            order.sort { (made[$0].start, made[$0].end) < (made[$1].start, made[$1].end) }
            var placed = [Int32](repeating: 0, count: made.count)
            for k in order {
                placed[k] = Int32(start.count)
                let m = made[k]
                start.append(m.start)
                end.append(m.end)
                place.append(m.place)
                previousEnd.append(m.previousEnd)
                size.append(m.size)
            }
            for (n, entry) in byColour.enumerated() { componentOfSpan[Int(entry.span)] = placed[Int(spanOfMade[n])] }
            componentBounds.append(Int32(start.count))
            colourBounds.append(Int32(dayColours.count))
        }
        let (leaves, latestEnd, earliestPreviousEnd) = DistinctOverlaps.trees(end: end, previousEnd: previousEnd)
        (self.start, self.end, self.place, self.previousEnd, self.size) = (start, end, place, previousEnd, size)
        (self.componentOfSpan, self.dayOfSpan, self.componentBounds) = (componentOfSpan, dayOfSpan, componentBounds)
        (self.colourBounds, self.dayColours) = (colourBounds, dayColours)
        (self.leaves, self.latestEnd, self.earliestPreviousEnd) = (leaves, latestEnd, earliestPreviousEnd)
        let components = FirstColours.Components(start: start, end: end, place: place, size: size,
            componentOfSpan: componentOfSpan, componentBounds: componentBounds, colourBounds: colourBounds)
        self.firstColours = first.map {
            FirstColours(limit: $0, spans: spans, days: days, components: components, wanted: wanted)
        } ?? FirstColours()
    }

    /// The trees over the components: leaves (a power of two), and under
    /// each node the latest end and the earliest previous end.
    private static func trees(
        end: [Int64], previousEnd: [Int64]
    ) -> (leaves: Int, latestEnd: [Int64], earliestPreviousEnd: [Int64]) {
        var leaves = 1
        while leaves < end.count { leaves *= 2 }
        var latestEnd = [Int64](repeating: .min, count: 2 * leaves)
        var earliestPreviousEnd = [Int64](repeating: .max, count: 2 * leaves)
        for k in end.indices {
            latestEnd[leaves + k] = end[k]
            earliestPreviousEnd[leaves + k] = previousEnd[k]
        }
        for node in stride(from: leaves - 1, to: 0, by: -1) {
            latestEnd[node] = max(latestEnd[2 * node], latestEnd[2 * node + 1])
            earliestPreviousEnd[node] = min(earliestPreviousEnd[2 * node], earliestPreviousEnd[2 * node + 1])
        }
        return (leaves, latestEnd, earliestPreviousEnd)
    }

    /// The distinct colours of the day of `spans[i]`, ascending: what
    /// `forEachColour` gives for it are places in this list.
    func colours(ofDayOf i: Int) -> ArraySlice<Int32> { colours(ofDay: Int(dayOfSpan[i])) }

    /// Calls `body` once with each colour of the other spans of its day
    /// that overlap `spans[i]` (the span the index was made from), in no
    /// particular order, as its place in `colours(ofDayOf: i)`.
    func forEachColour(overlapping span: Overlaps.Span, at i: Int, _ body: (Int32) -> Void) {
        forEachColour(overlapping: span, day: Int(dayOfSpan[i]), own: Int(componentOfSpan[i]), body)
    }

    /// The distinct colours of day `d`, ascending.
    func colours(ofDay d: Int) -> ArraySlice<Int32> {
        dayColours[Int(colourBounds[d])..<Int(colourBounds[d + 1])]
    }

    private func forEachColour(overlapping span: Overlaps.Span, day d: Int, own: Int, _ body: (Int32) -> Void) {
        let low = Int(componentBounds[d]), high = Int(componentBounds[d + 1])
        guard low < high else { return }
        let s = span.start, e = span.end
        // Running at its start: begun by then (before it, for a zero-length
        // span) and ending after it.
        let begun = e > s ? firstStart(after: s, low, high) : firstStart(atOrAfter: s, low, high)
        visit(low, begun, where: { latestEnd[$0] > s }) { k in
            if k != own || size[k] > 1 { body(place[k]) }
        }
        // Beginning inside it: the first of their colour since its start.
        guard e > s else { return }
        let from = firstStart(after: s, low, high), to = firstStart(atOrAfter: e, low, high)
        visit(from, to, where: { earliestPreviousEnd[$0] <= s }) { k in body(place[k]) }
    }

    /// The first component of `low..<high` that starts after `time` (or `high`).
    private func firstStart(after time: Int64, _ low: Int, _ high: Int) -> Int {
        var a = low, b = high
        while a < b {
            let m = (a + b) / 2
            if start[m] <= time { a = m + 1 } else { b = m }
        }
        return a
    }

    /// The first component of `low..<high` that starts at or after `time` (or `high`).
    private func firstStart(atOrAfter time: Int64, _ low: Int, _ high: Int) -> Int {
        DistinctOverlaps.firstStart(atOrAfter: time, in: start, low, high)
    }

    /// The first of `starts[low..<high]` (ascending) at or after `time` (or `high`).
    static func firstStart(atOrAfter time: Int64, in starts: [Int64], _ low: Int, _ high: Int) -> Int {
        var a = low, b = high
        while a < b {
            let m = (a + b) / 2
            if starts[m] < time { a = m + 1 } else { b = m }
        }
        return a
    }

    /// Calls `body` with each component of `from..<to` whose tree node
    /// passes `test` (a node passes when some leaf under it does).
    private func visit(_ from: Int, _ to: Int, where test: (Int) -> Bool, _ body: (Int) -> Void) {
        guard from < to else { return }
        // Depth first, the left child on top: the stack holds at most one
        // waiting right child a level (64 levels hold any count of leaves).
        withUnsafeTemporaryAllocation(of: (node: Int, low: Int, high: Int).self, capacity: 64) { stack in
            var top = 0
            stack[0] = (1, 0, leaves)
            top = 1
            while top > 0 {
                top -= 1
                let (node, low, high) = stack[top]
                guard low < to && from < high && test(node) else { continue }
                if node >= leaves {
                    body(node - leaves)
                    continue
                }
                let middle = (low + high) / 2
                stack[top] = (2 * node + 1, middle, high)
                stack[top + 1] = (2 * node, low, middle)
                top += 2
            }
        }
    }
}
