/// What each overlapping row of one day overlaps, named one way (`NamedOverlaps`): made for the day alone, from its
/// spans (and for a multi-day occurrence's JSON, those of its days), and never changed. A formatter is handed it
/// with the day's rows (`BlockWriter`) and lets it go with them: an object, so that handing it to a row counts one
/// reference, not one for each of its arrays.
package final class DayOverlaps: Sendable {
    /// What the answers' numbers name: ranked UIDs, or grouped titles.
    let names: ItemNames
    /// The day's spans (a row's `overlap` is one of them), and their answers in the same order.
    let spans: Range<Int>
    let answers: ColourAnswers
    /// The spans of the rows that carry a multi-day occurrence's JSON, ascending, and in the same order their
    /// answers: what the occurrence overlaps on any of its days.
    let wholes: [Int32]
    let wholeAnswers: ColourAnswers

    init(names: ItemNames, spans: Range<Int> = 0..<0, answers: ColourAnswers = ColourAnswers(),
        wholes: [Int32] = [], wholeAnswers: ColourAnswers = ColourAnswers()) {
        (self.names, self.spans, self.answers) = (names, spans, answers)
        (self.wholes, self.wholeAnswers) = (wholes, wholeAnswers)
    }

    /// What `row` (one of the day's, overlapping something: `row.overlap >= 0`) overlaps: how many distinct names,
    /// and the numbers of the first (ascending; at most the naming's limit).
    func answer(_ row: AgendaRow) -> (count: Int, names: ArraySlice<Int32>) {
        let k = wholes.isEmpty ? 0 : Overlaps.first(wholes.count) { wholes[$0] >= row.overlap }
        if k < wholes.count && wholes[k] == row.overlap { return wholeAnswers.answer(at: k) }
        return answers.answer(at: Int(row.overlap) - spans.lowerBound)
    }
}

/// The distinct colours (a UID's rank, a title's group) of what overlaps each span asked about, as a sweep of
/// them finds them (`ComponentSweep`): how many, and the first `limit`, ascending.
struct ColourAnswers: Sendable {
    let limit: Int
    /// By span asked about: how many colours, and `limit` places for the first (-1 past the count).
    var counts: [Int32]
    var firsts: [Int32]

    init(limit: Int = 0, count: Int = 0) {
        (self.limit, counts, firsts) = (limit, [Int32](repeating: 0, count: count), [Int32](repeating: -1,
            count: count * limit))
    }

    /// The colours that overlap span `k` (of those asked about): how many, and the first `limit`, ascending.
    func answer(at k: Int) -> (count: Int, names: ArraySlice<Int32>) {
        let count = Int(counts[k])
        return (count, firsts[(k * limit)..<(k * limit + min(count, limit))])
    }
}
