@testable import AgendaCore
import Testing

/// A day's answers found in one sweep of its colours' components
/// (`ComponentSweep`), their first colours found by bits or in the tree, are
/// those of the definition (`a.start < b.end && b.start < a.end`, another
/// span, each colour once): on random days of short, long, touching,
/// equal-start and zero-length spans, some without a colour, with few colours
/// and with hundreds (more than a word of bits).
@Suite struct ComponentSweepTests {
    typealias Span = Overlaps.Span

    /// Random spans of one day, sorted by start and end as a day's are, and their colours.
    static func day(count: Int, colours: Int, slots: Int, seed: UInt64) -> ([Span], [Int32]) {
        var seed = seed
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        var spans: [Span] = (0..<count).map { i in
            let start = Int64(next(slots) * (86_400 / slots))
            let length = Int64([0, 0, 60, 900, 1800, 3600, 3 * 3600, 9 * 3600][next(8)])
            return Span(start: start, end: start + length)
        }
        spans.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        // One span in seven has no colour (as an event without a UID: it is answered, but counts for nothing).
        let colour = spans.map { _ in next(7) == 0 ? Int32(-1) : Int32(next(colours) * 3) }
        return (spans, colour)
    }

    /// The colours of the other spans that overlap span `k`, ascending,
    /// each once (a span without a colour is answered too).
    static func expected(_ spans: [Span], _ colours: [Int32], _ k: Int) -> [Int32] {
        let a = spans[k]
        let found = spans.indices.filter { j in
            j != k && colours[j] >= 0 && spans[j].start < a.end && a.start < spans[j].end
        }
        return Array(Set(found.map { colours[$0] })).sorted()
    }

    /// The answers of every span of a day, its first colours found by bits wherever they can be, and in the tree
    /// wherever something begins inside a span.
    static func answers(_ spans: [Span], _ colours: [Int32], limit: Int) -> [ColourAnswers] {
        [1_000_000, 0].map { byBits in
            spans.withUnsafeBufferPointer {
                ComponentSweep.answers(spans: $0, colours: colours, asked: Array(spans.indices), limit: limit,
                    byBits: byBits)
            }
        }
    }

    @Test(arguments: [(300, 5, 48), (600, 40, 24), (800, 300, 96), (500, 200, 3), (200, 2, 1_440)])
    func everySpanGetsTheDefinitionsColours(count: Int, colours: Int, slots: Int) {
        let (spans, colour) = ComponentSweepTests.day(count: count, colours: colours, slots: slots,
            seed: UInt64(count + colours))
        for limit in [3, 10] {
            for swept in ComponentSweepTests.answers(spans, colour, limit: limit) {
                var overlapped = 0
                for k in spans.indices {
                    let want = ComponentSweepTests.expected(spans, colour, k)
                    let answer = swept.answer(at: k)
                    #expect(answer.count == want.count, "span \(k)")
                    #expect(Array(answer.names) == Array(want.prefix(limit)), "span \(k)")
                    if want.count > limit { overlapped += 1 }
                }
                // The limit was reached on some spans, and not on others.
                #expect(overlapped > 0 || colours < limit)
            }
        }
    }

    /// Spans that begin together: each lasting one overlaps the others that
    /// last, not the zero-length ones, which overlap only what runs across
    /// their time from before it.
    @Test func spansThatBeginTogether() {
        let spans = [
            Span(start: 0, end: 100), Span(start: 50, end: 50), Span(start: 50, end: 50), Span(start: 50, end: 60),
            Span(start: 50, end: 70), Span(start: 100, end: 120),
        ]
        let colours: [Int32] = [0, 1, 2, 3, 4, 5]
        for swept in ComponentSweepTests.answers(spans, colours, limit: 10) {
            let answers = spans.indices.map { Array(swept.answer(at: $0).names) }
            #expect(answers == [[1, 2, 3, 4], [0], [0], [0, 4], [0, 3], []])
            #expect(spans.indices.map { swept.answer(at: $0).count } == [4, 1, 1, 2, 2, 0])
        }
    }

    /// Spans asked about are a few of the day's (a window's multi-day occurrences): each gets its own answer.
    @Test func spansAskedAboutAreAnsweredAlone() {
        let (spans, colour) = ComponentSweepTests.day(count: 400, colours: 60, slots: 48, seed: 9)
        let asked = spans.indices.filter { $0 % 7 == 3 }
        let answers = spans.withUnsafeBufferPointer {
            ComponentSweep.answers(spans: $0, colours: colour, asked: asked, limit: 10)
        }
        for (q, k) in asked.enumerated() {
            let want = ComponentSweepTests.expected(spans, colour, k)
            #expect(answers.answer(at: q).count == want.count && Array(answers.answer(at: q).names)
                == Array(want.prefix(10)), "span \(k)")
        }
    }
}
