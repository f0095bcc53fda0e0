import Foundation

/// What a row overlaps, by title (the text formats' marks) and by UID
/// (JSON's `overlaps` and `overlap_count`, everything a row's occurrence
/// overlaps on any of its days): a day's answers swept for all its rows
/// at once (`SweptOverlaps`), or asked of its index where the sweep would
/// cost too much; a multi-day occurrence's found from its days' spans, or
/// from an index of the whole occurrences of its run of days.
extension Overlaps {
    /// Day `d`'s index by title, made on first use; its spans are numbered from the day's first.
    func byTitle(day d: Int) -> DistinctOverlaps {
        titleIndex[d].get {
            let groups = titles.ofItem
            return daySpans(d).withUnsafeBufferPointer { spans in
                DistinctOverlaps(spans: spans, days: [0..<spans.count],
                    first: Overlaps.titlesShown) {
                    groups[Int(rows[Int($0.row)].item)]
                }
            }
        }
    }

    /// Day `d`'s answers by title for all its spans, or nil when it is left to its index (`byTitle`).
    func sweptTitles(day d: Int) -> SweptOverlaps? {
        titleSweep[d].get {
            let spans = daySpans(d)
            let groups = titles.ofItem
            let colours = spans.map { groups[Int(rows[Int($0.row)].item)] }
            return spans.withUnsafeBufferPointer {
                SweptOverlaps(spans: $0, colours: colours, limit: Overlaps.titlesShown)
            }
        }
    }

    /// Day `d`'s answers by UID for all its spans, or nil when it is left
    /// to its index (`byUID`); only a span that overlaps something has a colour, as there.
    func sweptUIDs(day d: Int) -> SweptOverlaps? {
        uidSweep[d].get {
            let spans = daySpans(d)
            let colours = uidColours(of: spans, day: d)
            return spans.withUnsafeBufferPointer {
                SweptOverlaps(spans: $0, colours: colours, limit: Overlaps.uidsListed)
            }
        }
    }

    /// The UID ranks of day `d`'s spans, -1 for a span that overlaps nothing:
    /// what the day's sweep and its index colour spans by.
    private func uidColours(of spans: [Span], day d: Int) -> [Int32] {
        let first = days[d].lowerBound, ranks = uids
        return spans.indices.map { overlapping[first + $0] ? ranks.number(of: spans[$0], in: rows) : -1 }
    }

    /// Day `d`'s index by UID, made on first use when the day is not swept;
    /// its spans are numbered from the day's first. Only a span that
    /// overlaps something has a colour (a series' other occurrences may
    /// rank its UID).
    func byUID(day d: Int) -> DistinctOverlaps {
        uidIndex[d].get {
            var spans = daySpans(d)
            for (k, colour) in uidColours(of: spans, day: d).enumerated() { spans[k].uid = colour }
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
        var last = SweptDay()
        return uidRanks(of: row, into: &ranks, last: &last)
    }

    /// What a formatting thread keeps from row to row (`uidRanks`, or
    /// `writeMark`: one kind of answer each, never both): the day it last
    /// asked about, with its sweep, and the names it writes (`uids`, or
    /// `titles`). Rows come in day order, and finding each row's day (a
    /// search, a lock) and names (a reference counted on one object by
    /// every thread) cost more than its answer. A sweep held here outlives
    /// its day's `release` until the thread's next day: one day a thread.
    struct SweptDay {
        /// The day, -1 before the first; and its sweep, nil when the day is left to its index.
        var day = -1
        var swept: SweptOverlaps?
        var names: ItemNames?
    }

    /// Span `s`'s place in its day, with `last` moved to that day when it
    /// was on another (its sweep from `sweep`: by UID or by title).
    func place(ofSpan s: Int, in last: inout SweptDay, sweep: (Int) -> SweptOverlaps?) -> Int {
        if last.day < 0 || !days[last.day].contains(s) {
            last.day = day(ofSpan: s)
            last.swept = sweep(last.day)
        }
        return s - days[last.day].lowerBound
    }

    /// The same, remembering in `last` the day asked about (and the ranked UIDs, as `names`).
    func uidRanks(of row: AgendaRow, into ranks: inout [Int32], last: inout SweptDay) -> Int {
        ranks.removeAll(keepingCapacity: true)
        guard row.overlap >= 0 else { return 0 }
        if last.names == nil { last.names = uids }
        let s = Int(row.overlap)
        // One day's answers, or for a multi-day occurrence what overlaps its
        // whole time among the occurrences of its days (and the days next to them).
        let index: DistinctOverlaps, i: Int, span: Span
        if let list = spansOfOccurrence.isEmpty ? nil : spansOfOccurrence[row.overlap] {
            guard !multiDayByDays else {
                multiDayRanks(list, into: &ranks)
                Overlaps.order(&ranks, below: last.names!.bounds.count - 1)
                let count = ranks.count
                if count > Overlaps.uidsListed { ranks.removeLast(count - Overlaps.uidsListed) }
                return count
            }
            let whole = byWholeOccurrence(row.overlap)
            i = whole.place[row.overlap]!
            (index, span) = (whole.index, whole.spans[i])
        } else {
            i = place(ofSpan: s, in: &last) { sweptUIDs(day: $0) }
            if let swept = last.swept {
                let answer = swept.answer(at: i)
                ranks.append(contentsOf: answer.colours)
                return answer.count
            }
            (index, span) = (byUID(day: last.day), self.span(s))
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

    /// The UID ranks, repeats and all, of what a multi-day occurrence (its
    /// spans `list`) overlaps: on each of its days what overlaps its whole
    /// time there, joined; and on the days next to them (an occurrence is
    /// not listed on a day it takes less than a minute of, until 00:00:30,
    /// nor is one that ends there, but they overlap). Each day's spans are
    /// looked at once: `multiDayByDays` bounds what that costs.
    private func multiDayRanks(_ list: [Int32], into ranks: inout [Int32]) {
        let listed = list.map { day(ofSpan: Int($0)) }
        var asked = zip(list, listed).map { (day: $1, own: Int($0) - days[$1].lowerBound) }
        for d in [listed.min()! - 1, listed.max()! + 1] where d >= 0 && d < days.count { asked.append((d, -1)) }
        let whole = span(Int(list[0])), ofItem = uids.ofItem
        for (d, own) in asked {
            let spans = daySpans(d), first = days[d].lowerBound
            let time = own >= 0 ? spans[own] : whole
            for (k, other) in spans.enumerated() where k != own && overlapping[first + k]
                && other.start < time.end && time.start < other.end {
                let rank = ofItem[Int(rows[Int(other.row)].item)]
                if rank >= 0 { ranks.append(rank) }
            }
        }
    }

    /// Sorts `places`, numbers below `count`, and drops repeats: by a bit
    /// set when they are many for their range (no comparisons), else by
    /// comparison.
    static func order(_ places: inout [Int32], below count: Int) {
        guard places.count > 1 else { return }
        let words = (count + 63) / 64
        guard places.count * 8 >= words else {
            places.sort()
            places.removeDuplicates()
            return
        }
        var n = 0
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
        places.removeLast(places.count - n)
    }

    /// How many distinct UIDs the row's occurrence overlaps (JSON `overlap_count`).
    package func count(of row: AgendaRow) -> Int {
        var ranks: [Int32] = []
        return uidRanks(of: row, into: &ranks)
    }
}
