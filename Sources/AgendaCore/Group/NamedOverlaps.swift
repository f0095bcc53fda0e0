/// What the rows of an agenda overlap, named one way: by UID (JSON's `overlaps` and `overlap_count`: what a row's
/// occurrence overlaps on any of its days) or by title (the text formats' marks: what a row overlaps that day).
/// Made once for a formatter's run (`Overlaps.named`), it makes any day's answers (`day`), each day alone, on
/// whichever thread asks.
///
/// A day's answers are found for all its spans at once, in one sweep of the components of each name's spans
/// (`ComponentSweep`), in time that does not grow with how many a span overlaps. A multi-day occurrence's are found
/// by looking at each span of its days and the days next to them, or where that costs too much, by a sweep of the
/// whole occurrences of those days.
package struct NamedOverlaps: Sendable {
    package enum Naming: Sendable { case uids, titles }

    /// Which way a day is answered: the answers are the same either way, the costs differ.
    package struct Ways: Sendable {
        /// The components beginning inside a span past which its first names are found in a tree, not by bits.
        let byBits: Int
        /// The steps a span of their days past which a day's multi-day occurrences are found from a sweep of their
        /// days' whole occurrences, not from each span of their days (a comparison each, but repeated for each).
        let multiDayStepsPerSpan: Int

        /// Tests ask each way: 0 for the other, a million for this one.
        package init(byBits: Int = 256, multiDayStepsPerSpan: Int = 256) {
            (self.byBits, self.multiDayStepsPerSpan) = (byBits, multiDayStepsPerSpan)
        }
    }

    let overlaps: Overlaps
    let naming: Naming
    let names: ItemNames
    let ways: Ways
    /// How many names an answer lists: 10 UIDs in JSON's `overlaps`, 3 titles in a mark.
    var limit: Int { naming == .uids ? NamedOverlaps.uidsListed : NamedOverlaps.titlesShown }
    package static let uidsListed = 10
    static let titlesShown = 3

    /// The answers of the day whose rows have `sortDay` (none for a day without overlapping rows).
    package func day(sortDay: Int64) -> DayOverlaps {
        overlaps.day(sortDay: sortDay).map(day) ?? DayOverlaps(names: names)
    }

    /// The answers of the day `row` overlaps on (a row that overlaps something; an alarm's row may be listed under
    /// another day than its span's).
    package func day(of row: AgendaRow) -> DayOverlaps {
        row.overlap >= 0 ? day(overlaps.day(ofSpan: Int(row.overlap))) : DayOverlaps(names: names)
    }

    /// Day `d`'s answers.
    func day(_ d: Int) -> DayOverlaps {
        let range = overlaps.days[d]
        guard overlaps.overlapping[range].contains(true) else { return DayOverlaps(names: names) }
        let spans = overlaps.spans(ofDay: d), colours = range.map(colour)
        let answers = spans.withUnsafeBufferPointer { spans in
            ComponentSweep.answers(spans: spans, colours: colours, asked: Array(spans.indices), limit: limit,
                byBits: ways.byBits)
        }
        let owners = naming == .uids ? Array(overlaps.owners(in: range)) : []
        guard !owners.isEmpty else { return DayOverlaps(names: names, spans: range, answers: answers) }
        return DayOverlaps(names: names, spans: range, answers: answers, wholes: owners,
            wholeAnswers: multiDayAnswers(owners, day: d, spans: spans))
    }

    /// Span `i`'s colour: its name's number, when it overlaps something and has a name; else -1.
    func colour(_ i: Int) -> Int32 {
        guard overlaps.overlapping[i] else { return -1 }
        return max(names.ofItem[Int(overlaps.rows[Int(overlaps.spanRows[i])].item)], -1)
    }
}
