@testable import AgendaCore
import Testing

/// A day's answers found in one sweep are those of the definition
/// (`a.start < b.end && b.start < a.end`, another span, each colour once):
/// on random days of short, long, touching, equal-start and zero-length
/// spans, some without a colour, with few colours and with hundreds (more
/// than a word of bits).
@Suite struct SweptOverlapsTests {
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
            return Span(start: start, end: start + length, row: Int32(i), uid: -1)
        }
        spans.sort { ($0.start, $0.end, $0.row) < ($1.start, $1.end, $1.row) }
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

    @Test(arguments: [(300, 5, 48), (600, 40, 24), (800, 300, 96), (500, 200, 3), (200, 2, 1_440)])
    func everySpanGetsTheDefinitionsColours(count: Int, colours: Int, slots: Int) throws {
        let (spans, colour) = SweptOverlapsTests.day(count: count, colours: colours, slots: slots,
            seed: UInt64(count + colours))
        for limit in [3, 10] {
            let swept = try #require(spans.withUnsafeBufferPointer {
                SweptOverlaps(spans: $0, colours: colour, limit: limit, stepsPerSpan: .max / 2 / count)
            })
            var overlapped = 0
            for k in spans.indices {
                let want = SweptOverlapsTests.expected(spans, colour, k)
                let answer = swept.answer(at: k)
                #expect(answer.count == want.count, "span \(k)")
                #expect(Array(answer.colours) == Array(want.prefix(limit)), "span \(k)")
                if want.count > limit { overlapped += 1 }
            }
            // The limit was reached on some spans, and not on others.
            #expect(overlapped > 0 || colours < limit)
        }
    }

    /// Spans that begin together: each lasting one overlaps the others that
    /// last, not the zero-length ones, which overlap only what runs across
    /// their time from before it.
    @Test func spansThatBeginTogether() throws {
        let spans = [
            Span(start: 0, end: 100, row: 0, uid: -1),
            Span(start: 50, end: 50, row: 1, uid: -1),
            Span(start: 50, end: 50, row: 2, uid: -1),
            Span(start: 50, end: 60, row: 3, uid: -1),
            Span(start: 50, end: 70, row: 4, uid: -1),
            Span(start: 100, end: 120, row: 5, uid: -1),
        ]
        let colours: [Int32] = [0, 1, 2, 3, 4, 5]
        let swept = try #require(spans.withUnsafeBufferPointer {
            SweptOverlaps(spans: $0, colours: colours, limit: 10, stepsPerSpan: 1_000)
        })
        let answers = spans.indices.map { Array(swept.answer(at: $0).colours) }
        #expect(answers == [[1, 2, 3, 4], [0], [0], [0, 4], [0, 3], []])
        #expect(spans.indices.map { swept.answer(at: $0).count } == [4, 1, 1, 2, 2, 0])
    }

    /// A day where every span overlaps every other costs the square of its
    /// spans: it is not swept (the index answers it, in time that grows with
    /// the colours listed; `everyRowListsWhatOverlapsIt` checks both ways).
    @Test func aCrowdedDayIsLeftToTheIndex() {
        let spans = (0..<2_000).map { Span(start: Int64($0), end: 86_400, row: Int32($0), uid: -1) }
        let colours = spans.map { $0.row % 7 }
        let swept = spans.withUnsafeBufferPointer {
            SweptOverlaps(spans: $0, colours: colours, limit: 10, stepsPerSpan: 256)
        }
        #expect(swept == nil)
        let few = Array(spans.prefix(100))
        #expect(few.withUnsafeBufferPointer {
            SweptOverlaps(spans: $0, colours: Array(colours.prefix(100)), limit: 10, stepsPerSpan: 256)
        } != nil)
    }
}
