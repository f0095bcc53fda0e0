import Foundation

/// The indexes of whole occurrences (`Overlaps.byWholeOccurrence`): for
/// the multi-day occurrences of a run of days, every occurrence of those
/// days once, each span its whole time, so that what a multi-day
/// occurrence overlaps on any of its days is asked once.
///
/// Made a run at a time, the few runs being written kept: one index of the
/// whole window held every span of it (120 MB at 300,000 components).
struct WholeOccurrences {
    /// The multi-day occurrences (by their key, the first listed span) in
    /// order of their first day, cut into runs of at most `daysPerRun` first days.
    var runOfKey: [Int32: Int] = [:]
    /// Each run's keys, and the days (indexes of `Overlaps.days`) its index covers.
    var keys: [[Int32]] = []
    var days: [ClosedRange<Int>] = []
    /// Every span of a multi-day occurrence that overlaps something: its key.
    var ownerOfSpan: [Int32: Int32] = [:]
    var planned = false
    /// The runs made, by number; the lowest goes when more than `kept` are.
    var made: [Int: Overlaps.WholeWindow] = [:]

    static let daysPerRun = 7
    static let kept = 3
}

extension Overlaps {
    /// The index of whole occurrences that holds multi-day occurrence `key`'s.
    func byWholeOccurrence(_ key: Int32) -> WholeWindow {
        wholeIndex.withLock { whole in
            if !whole.planned { plan(&whole) }
            let run = whole.runOfKey[key]!
            if let made = whole.made[run] { return made }
            let made = window(days: whole.days[run], keys: whole.keys[run], owners: whole.ownerOfSpan)
            whole.made[run] = made
            // The lowest other run goes: writers move forward, and the run just made is asked next.
            if whole.made.count > WholeOccurrences.kept, let oldest = whole.made.keys.filter({ $0 != run }).min() {
                whole.made[oldest] = nil
            }
            return made
        }
    }

    /// Cuts the multi-day occurrences into runs by their first day. A run's
    /// index covers the days of its occurrences and the day on either side
    /// (an occurrence is not listed on a day it takes less than a minute
    /// of, nor is one that ends there, but they overlap): everything that
    /// overlaps them in time is on those days.
    private func plan(_ whole: inout WholeOccurrences) {
        whole.planned = true
        var firstDays: [(day: Int, key: Int32, last: Int)] = []
        for (key, list) in spansOfOccurrence {
            let listed = list.map { day(ofSpan: Int($0)) }
            firstDays.append((listed.min()!, key, listed.max()!))
            for s in list { whole.ownerOfSpan[s] = key }
        }
        firstDays.sort { ($0.day, $0.key) < ($1.day, $1.key) }
        var runFirstDay = Int.min
        for (first, key, last) in firstDays {
            let to = min(last + 1, days.count - 1)
            if !whole.keys.isEmpty && first - runFirstDay < WholeOccurrences.daysPerRun {
                let run = whole.keys.count - 1
                whole.keys[run].append(key)
                whole.runOfKey[key] = run
                whole.days[run] = whole.days[run].lowerBound...max(whole.days[run].upperBound, to)
            } else {
                runFirstDay = first
                whole.runOfKey[key] = whole.keys.count
                whole.keys.append([key])
                whole.days.append(max(first - 1, 0)...to)
            }
        }
    }

    /// The index of days `range`: each span of them, but a multi-day
    /// occurrence's once (its first there; each carries its whole time).
    private func window(days range: ClosedRange<Int>, keys: [Int32], owners: [Int32: Int32]) -> WholeWindow {
        var kept: [Span] = [], keptGlobal: [Int32] = []
        var seen = Set<Int32>()
        let ranks = uids
        for d in range {
            for (k, var span) in make(day: d).enumerated() {
                let g = Int32(days[d].lowerBound + k)
                if let owner = owners[g] {
                    guard seen.insert(owner).inserted else { continue }
                }
                // A span that overlaps something carries its UID's rank; so
                // does a multi-day occurrence's on a day where it overlaps
                // nothing: the occurrence overlaps something on another.
                if overlapping[Int(g)] || owners[g] != nil { span.uid = ranks.number(of: span, in: rows) }
                kept.append(span)
                keptGlobal.append(g)
            }
        }
        var order = Array(0..<Int32(kept.count))
        order.sort { a, b in
            let a = kept[Int(a)], b = kept[Int(b)]
            return (a.start, a.end, a.row) < (b.start, b.end, b.row)
        }
        let wanted = Set(keys)
        var place: [Int32: Int] = [:]
        for (position, i) in order.enumerated() {
            if let owner = owners[keptGlobal[Int(i)]], wanted.contains(owner) { place[owner] = position }
        }
        let ordered = order.map { kept[Int($0)] }
        let index = ordered.withUnsafeBufferPointer { ordered in
            DistinctOverlaps(spans: ordered, days: ordered.isEmpty ? [] : [0..<ordered.count],
                first: Overlaps.uidsListed, wanted: Set(place.values)) { $0.uid }
        }
        return WholeWindow(spans: ordered, index: index, place: place)
    }
}
