/// What a multi-day occurrence overlaps on any of its days (JSON's `overlaps` of the row that carries it): on each
/// of its days what overlaps its whole time, and on the days next to them (an occurrence is not listed on a day it
/// takes less than a minute of, until 00:00:30, nor is one that ends there, but they overlap). What overlaps nothing
/// on its own day counts for nothing, but a multi-day occurrence that overlaps something on another of its days.
extension NamedOverlaps {
    /// The answers of the multi-day occurrences `keys` (the spans of their first listed rows, on day `d`, whose
    /// spans are given), in order: from each span of their days where those are few enough for their window
    /// (`Ways.multiDayStepsPerSpan`), else from a sweep of the window's whole occurrences, each once: the same.
    func multiDayAnswers(_ keys: [Int32], day d: Int, spans: [Overlaps.Span]) -> ColourAnswers {
        let o = overlaps
        // Each occurrence's days, with its own span there (none on the days next to them).
        let asked: [[(day: Int, own: Int)]] = keys.map { key in
            let list = o.spansOfOccurrence[key]!.map(Int.init), days = list.map(o.day(ofSpan:))
            return zip(days, list).map { ($0, $1) }
                + [(days.min()! - 1, -1), (days.max()! + 1, -1)].filter { $0.day >= 0 && $0.day < o.days.count }
        }
        let cost = asked.joined().reduce(0) { $0 + o.days[$1.day].count }
        let first = asked.joined().map(\.day).min()!, last = asked.joined().map(\.day).max()!
        let window = first...last
        let (budget, beyond) = ways.multiDayStepsPerSpan.multipliedReportingOverflow(
            by: o.days[last].upperBound - o.days[first].lowerBound)
        guard beyond || cost <= budget else { return sweep(keys, window: window) }
        // Each day asked made once.
        var made: [Int: [Overlaps.Span]] = [d: spans]
        var answers = ColourAnswers(limit: limit, count: keys.count)
        var seen = [Bool](repeating: false, count: names.bounds.count - 1), found: [Int32] = []
        for (q, key) in keys.enumerated() {
            found.removeAll(keepingCapacity: true)
            let whole = spans[Int(key) - o.days[d].lowerBound]
            for (e, own) in asked[q] {
                if made[e] == nil { made[e] = o.spans(ofDay: e) }
                let spans = made[e]!, from = o.days[e].lowerBound
                for (k, span) in spans.enumerated() where span.start < whole.end && whole.start < span.end {
                    let colour = colour(from + k)
                    guard colour >= 0 && !seen[Int(colour)] && from + k != own else { continue }
                    seen[Int(colour)] = true
                    found.append(colour)
                }
            }
            for colour in found { seen[Int(colour)] = false }
            found.sort()
            answers.counts[q] = Int32(found.count)
            for (n, colour) in found.prefix(limit).enumerated() { answers.firsts[q * limit + n] = colour }
        }
        return answers
    }

    /// The answers of `keys` from a component sweep of the spans of the days `window`, each multi-day occurrence's
    /// once: a multi-day occurrence's carries its name whether or not it overlaps something that day.
    private func sweep(_ keys: [Int32], window: ClosedRange<Int>) -> ColourAnswers {
        let o = overlaps
        var kept: [(span: Overlaps.Span, colour: Int32, owner: Int32)] = [], seen = Set<Int32>()
        for d in window {
            for (k, span) in o.spans(ofDay: d).enumerated() {
                let g = o.days[d].lowerBound + k, owner = o.ownerOfSpan[Int32(g)]
                if let owner, !seen.insert(owner).inserted { continue }
                let item = Int(o.rows[Int(o.spanRows[g])].item)
                kept.append((span, owner != nil ? max(names.ofItem[item], -1) : colour(g), owner ?? -1))
            }
        }
        kept.sort { ($0.span.start, $0.span.end) < ($1.span.start, $1.span.end) }
        let place = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        let asked = kept.indices.filter { place[kept[$0].owner] != nil }
        let swept = kept.map(\.span).withUnsafeBufferPointer {
            ComponentSweep.answers(spans: $0, colours: kept.map(\.colour), asked: asked, limit: limit,
                byBits: ways.byBits)
        }
        var answers = ColourAnswers(limit: limit, count: keys.count)
        for (n, k) in asked.enumerated() {
            let q = place[kept[k].owner]!
            answers.counts[q] = swept.counts[n]
            answers.firsts[(q * limit)..<((q + 1) * limit)] = swept.firsts[(n * limit)..<((n + 1) * limit)]
        }
        return answers
    }
}
