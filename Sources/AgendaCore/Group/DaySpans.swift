import Foundation

/// The busy timed spans of a run of days (`Overlaps.find`), each day's
/// sorted by start and end, and which overlap another of their day.
struct DaySpans {
    var spans: [Overlaps.Span] = []
    /// Each day's spans, consecutive ranges of `spans`.
    var days: [Range<Int>] = []
    var overlapping: [Bool] = []
    /// An occurrence listed on several days: its rows.
    var multiDay: [ObjectIdentifier: [Int32]] = [:]

    init() {}

    /// `days`: each day's rows, ranges of `rows`.
    init(rows: [AgendaRow], days dayRows: ArraySlice<Range<Int>>, occurrences: AgendaOccurrences, clock: ZoneClock) {
        // At most a span a row: an array that doubles would hold up to twice the spans.
        spans.reserveCapacity(dayRows.reduce(0) { $0 + $1.count })
        for day in dayRows {
            let first = spans.count
            for index in day {
                let row = rows[index]
                switch row.timing {
                case .starts, .continues, .allDay:
                    let o = occurrences[row]
                    if o.isBusy, let start = o.start, !start.isDate {
                        let s = Int64(start.instant(in: clock).timeIntervalSince1970.rounded(.down))
                        let e = max(o.end.map { Int64($0.instant(in: clock).timeIntervalSince1970.rounded(.down)) }
                            ?? s, s)
                        if row.dayCount > 1 { multiDay[ObjectIdentifier(o), default: []].append(Int32(index)) }
                        spans.append(Overlaps.Span(start: s, end: e, row: Int32(index), uid: -1))
                    }
                default: break
                }
            }
            let last = spans.count
            overlapping += repeatElement(false, count: last - first)
            guard last > first else { continue }
            days.append(first..<last)
            guard last - first > 1 else { continue }
            spans[first..<last].sort { ($0.start, $0.end, $0.row) < ($1.start, $1.end, $1.row) }
            Overlaps.markOverlapping(spans, first..<last, in: &overlapping)
        }
    }
}

/// The threads' parts of `Overlaps.find`, each written by one thread.
struct SharedDaySpans: @unchecked Sendable {
    let parts: UnsafeMutableBufferPointer<DaySpans>
}
