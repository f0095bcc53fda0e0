import Foundation

/// The text formats' mark of what a row overlaps that day: its first
/// titles, named, and how many more.
extension Overlaps {
    /// At most this many titles are named in a row's mark; the rest are counted.
    static let titlesShown = 3

    /// `(overlaps Review, Standup)`, `(overlaps A, B, C and 12 more)`: the
    /// mark after a row's title, naming what it overlaps that day (sorted,
    /// unique titles); empty when it overlaps nothing that day.
    package func mark(_ row: AgendaRow) -> String {
        var bytes: [UInt8] = []
        return writeMark(row, to: &bytes) ? String(decoding: bytes, as: UTF8.self) : ""
    }

    /// Appends the row's mark (`mark`) to `bytes`, as it is asked for
    /// every overlapping row of a text agenda: no string is made. False,
    /// and nothing appended, when it overlaps nothing that day.
    func writeMark(_ row: AgendaRow, to bytes: inout [UInt8]) -> Bool {
        var last = SweptDay()
        return writeMark(row, to: &bytes, last: &last)
    }

    /// The same, remembering in `last` the day asked about: rows come a
    /// day at a time, and each day's sweep is found once, not a row at a time.
    func writeMark(_ row: AgendaRow, to bytes: inout [UInt8], last: inout SweptDay) -> Bool {
        guard row.overlap >= 0 else { return false }
        let shown = Overlaps.titlesShown
        // The `shown` first title groups (in title order) and how many
        // there are; on the stack: every overlapping row asks.
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: shown) { first in
            first.initialize(repeating: .max)
            var distinct = 0
            let i = place(ofSpan: Int(row.overlap), in: &last) { sweptTitles(day: $0) }
            if let swept = last.swept {
                // A day answered for all its spans at once.
                let answer = swept.answer(at: i)
                distinct = answer.count
                for (n, group) in answer.colours.enumerated() where n < shown { first[n] = group }
            } else {
                distinct = firstGroups(of: row, day: last.day, at: i, into: first)
            }
            guard distinct > 0 else { return false }
            if last.names == nil { last.names = titles }
            let titles = last.names!
            bytes.append(contentsOf: "(overlaps ".utf8)
            for n in 0..<min(distinct, shown) {
                if n > 0 { bytes.append(contentsOf: ", ".utf8) }
                let g = Int(first[n])
                bytes.append(contentsOf: titles.bytes[titles.bounds[g]..<titles.bounds[g + 1]])
            }
            if distinct > shown {
                bytes.append(contentsOf: " and ".utf8)
                bytes.append(contentsOf: String(distinct - shown).utf8)
                bytes.append(contentsOf: " more".utf8)
            }
            bytes.append(0x29)
            return true
        }
    }

    /// The first `first.count` title groups of what the row overlaps, in
    /// order, asked of day `d`'s index (`byTitle`); how many there are.
    private func firstGroups(of row: AgendaRow, day d: Int, at i: Int,
        into first: UnsafeMutableBufferPointer<Int32>) -> Int {
        let shown = first.count, index = byTitle(day: d)
        // The smallest places in the day's ascending list of groups, in order.
        var distinct = 0
        if let answer = index.firstColours.answer(at: i) {
            // A day of many titles: found for the whole day at once.
            for (n, place) in answer.places.enumerated() where n < shown { first[n] = place }
            distinct = answer.count
        } else {
            index.forEachColour(overlapping: span(Int(row.overlap)), at: i) { place in
                distinct += 1
                guard shown > 0, place < first[shown - 1] else { return }
                var k = shown - 1
                while k > 0 && first[k - 1] > place {
                    first[k] = first[k - 1]
                    k -= 1
                }
                first[k] = place
            }
        }
        let groups = index.colours(ofDayOf: i)
        for n in 0..<min(distinct, shown) { first[n] = groups[groups.startIndex + Int(first[n])] }
        return distinct
    }

    /// A title as a row shows it: one line, `(no title)` when empty.
    static func oneLine(_ o: Occurrence) -> String {
        let title = o.title
        if title.isEmpty { return "(no title)" }
        return RowWording.singleLine(title)
    }
}
