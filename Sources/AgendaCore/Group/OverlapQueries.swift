import Foundation

/// What a row overlaps, asked of the per-day indexes: by title (the text
/// formats' marks) and by UID (JSON's `overlaps` and `overlap_count`,
/// everything a row's occurrence overlaps on any of its days).
extension Overlaps {
    /// Day `d`'s index by title, made on first use; its spans are numbered from the day's first.
    func byTitle(day d: Int) -> DistinctOverlaps {
        titleIndex[d].get {
            daySpans(d).withUnsafeBufferPointer { spans in
                DistinctOverlaps(spans: spans, days: [0..<spans.count],
                    first: Overlaps.titlesShown) {
                    titleGroup[Int(rows[Int($0.row)].item)]
                }
            }
        }
    }

    /// Day `d`'s index by UID, made on first use; its spans are numbered
    /// from the day's first. Only a span that overlaps something has a
    /// colour (a series' other occurrences may rank its UID): a multi-day
    /// occurrence asks the days next to its own of every colour there.
    func byUID(day d: Int) -> DistinctOverlaps {
        uidIndex[d].get {
            var spans = daySpans(d)
            let first = days[d].lowerBound, ranks = uids
            for k in spans.indices where overlapping[first + k] { spans[k].uid = ranks.rank(of: spans[k], in: rows) }
            return spans.withUnsafeBufferPointer { spans in
                DistinctOverlaps(spans: spans, days: [0..<spans.count], first: Overlaps.uidsListed) { $0.uid }
            }
        }
    }

    /// At most this many UIDs are listed in a row's JSON `overlaps`; `overlap_count` counts them all.
    package static let uidsListed = 10

    /// The first `uidsListed` UID ranks (sorted, unique) of everything the
    /// row's occurrence overlaps, on any day, into `ranks`; how many UIDs
    /// there are in all.
    func uidRanks(of row: AgendaRow, into ranks: inout [Int32]) -> Int {
        ranks.removeAll(keepingCapacity: true)
        guard row.overlap >= 0 else { return 0 }
        // One day's index, or for a multi-day occurrence its days' whole
        // occurrences: what it overlaps on any of its days is what overlaps
        // its whole time among the occurrences of those days.
        let index: DistinctOverlaps, i: Int, span: Span
        if let list = spansOfOccurrence[row.overlap], multiDayByDays {
            // What its whole time overlaps on each of its days, joined (the
            // first ten of the joined are among each day's). And on the days
            // next to them: an occurrence is not listed on a day it takes
            // less than a minute of (until 00:00:30), nor is one that ends
            // there, but they overlap.
            let listed = list.map { day(ofSpan: Int($0)) }
            for (s, d) in zip(list, listed) {
                let local = Int(s) - days[d].lowerBound
                let dayIndex = byUID(day: d)
                let colours = dayIndex.colours(ofDayOf: local)
                dayIndex.forEachColour(overlapping: self.span(Int(s)),
                    at: local) { ranks.append(colours[colours.startIndex + Int($0)]) }
            }
            let whole = self.span(Int(list[0]))
            for d in [listed.min()! - 1, listed.max()! + 1] where d >= 0 && d < days.count {
                let dayIndex = byUID(day: d)
                let colours = dayIndex.colours(ofDay: 0)
                dayIndex.forEachColour(overlappingOther: whole,
                    day: 0) { ranks.append(colours[colours.startIndex + Int($0)]) }
            }
            Overlaps.order(&ranks, below: uids.bounds.count - 1)
            let count = ranks.count
            if count > Overlaps.uidsListed { ranks.removeLast(count - Overlaps.uidsListed) }
            return count
        } else if spansOfOccurrence[row.overlap] != nil {
            let whole = byWholeOccurrence(row.overlap)
            i = whole.place[row.overlap]!
            (index, span) = (whole.index, whole.spans[i])
        } else {
            let d = day(ofSpan: Int(row.overlap))
            i = Int(row.overlap) - days[d].lowerBound
            (index, span) = (byUID(day: d), self.span(Int(row.overlap)))
        }
        // Each colour comes once, as its place in the day's ascending list,
        // so the places in order are the ranks in order.
        let colours = index.colours(ofDayOf: i)
        if let answer = index.firstColours.answer(at: i) {
            // A day of many UIDs: found for the whole day at once.
            for place in answer.places { ranks.append(colours[colours.startIndex + Int(place)]) }
            return answer.count
        }
        index.forEachColour(overlapping: span, at: i) { ranks.append($0) }
        Overlaps.order(&ranks, below: colours.count)
        for n in ranks.indices { ranks[n] = colours[colours.startIndex + Int(ranks[n])] }
        let count = ranks.count
        if count > Overlaps.uidsListed { ranks.removeLast(count - Overlaps.uidsListed) }
        return count
    }

    /// Sorts `places`, numbers below `count`, and drops repeats: by a bit
    /// set when they are many for their range (no comparisons), else by
    /// comparison.
    static func order(_ places: inout [Int32], below count: Int) {
        guard places.count > 1 else { return }
        let words = (count + 63) / 64
        var n = 0
        if places.count * 8 < words {
            places.sort()
            for k in places.indices where n == 0 || places[k] != places[n - 1] {
                places[n] = places[k]
                n += 1
            }
        } else {
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: words) { bits in
                bits.initialize(repeating: 0)
                for p in places { bits[Int(p) >> 6] |= 1 << UInt64(p & 63) }
                for w in 0..<words {
                    var word = bits[w]
                    while word != 0 {
                        places[n] = Int32(w << 6 + word.trailingZeroBitCount)
                        n += 1
                        word &= word - 1
                    }
                }
            }
        }
        places.removeLast(places.count - n)
    }

    /// How many distinct UIDs the row's occurrence overlaps (JSON `overlap_count`).
    package func count(of row: AgendaRow) -> Int {
        var ranks: [Int32] = []
        return uidRanks(of: row, into: &ranks)
    }
}
