import Foundation

/// The busy timed spans of a run of days (a part of `Overlaps.find`, made by one thread): each day's in order of
/// start, end and row, with their rows and which overlap another of their day.
struct DaySpans {
    var times: [Overlaps.SpanTime] = [], far: [Int32: Overlaps.Span] = [:], rows: [Int32] = []
    var overlapping: [Bool] = []
    /// Each day's spans: consecutive ranges of the above, one a day of the run (empty for a day without).
    var days: [Range<Int>] = []
    /// An occurrence listed on several days: its rows.
    var multiDay: [AgendaOccurrences.Index: [Int32]] = [:]

    init() {}

    /// `days`: each day's rows, ranges of `rows`. `room`: reserve room for this many spans when more than the days'
    /// rows (the first part, which the others join): an array that doubles would hold up to twice the spans.
    init(rows agenda: [AgendaRow], days dayRows: ArraySlice<Range<Int>>, occurrences: AgendaOccurrences,
        clock: ZoneClock, room: Int = 0) {
        let own = max(dayRows.reduce(0) { $0 + $1.count }, room)
        times.reserveCapacity(own)
        rows.reserveCapacity(own)
        overlapping.reserveCapacity(own)
        var day: [(span: Overlaps.Span, row: Int32)] = []
        for range in dayRows {
            day.removeAll(keepingCapacity: true)
            for index in range {
                let row = agenda[index]
                switch row.timing {
                case .starts, .continues, .allDay:
                    let o = occurrences[row]
                    guard o.isBusy, let start = o.start, !start.isDate else { continue }
                    let s = Int64(start.instant(in: clock).timeIntervalSince1970.rounded(.down))
                    let e = max(o.end.map { Int64($0.instant(in: clock).timeIntervalSince1970.rounded(.down)) } ?? s, s)
                    if row.dayCount > 1 { multiDay[row.source, default: []].append(Int32(index)) }
                    day.append((Overlaps.Span(start: s, end: e), Int32(index)))
                default: continue
                }
            }
            if day.count > 1 {
                day.sort { ($0.span.start, $0.span.end, $0.row) < ($1.span.start, $1.span.end, $1.row) }
            }
            let first = times.count, base = range.isEmpty ? 0 : Overlaps.base(of: agenda[range.lowerBound])
            for (k, (span, _)) in day.enumerated() {
                let start = Int32(exactly: span.start - base), end = Int32(exactly: span.end - base)
                if let start, let end, start != Int32.min {
                    times.append(Overlaps.SpanTime(start: start, end: end))
                } else {
                    times.append(Overlaps.SpanTime(start: Int32.min, end: 0))
                    far[Int32(first + k)] = span
                }
            }
            rows += day.lazy.map(\.row)
            overlapping += Overlaps.overlapping(day.map(\.span))
            days.append(first..<times.count)
        }
    }

    /// Appends the next part's days (its spans numbered after these).
    mutating func append(_ next: DaySpans) {
        let base = times.count
        times += next.times
        for (k, span) in next.far { far[k + Int32(base)] = span }
        rows += next.rows
        overlapping += next.overlapping
        days += next.days.map { ($0.lowerBound + base)..<($0.upperBound + base) }
        multiDay.merge(next.multiDay) { $0 + $1 }
    }
}
