import Foundation

/// The busy timed spans of a run of days (`Overlaps.find`): which overlap
/// another of their day, and each span's row in the day's order (start,
/// end, row). The spans themselves are not kept: a day's are made again,
/// in the same order, when a formatter asks for the day (`make`), and let
/// go once it is written; an agenda of 100,000 components held 6 MB of them.
struct DaySpans {
    /// By span, in each day's order: its row, and whether it overlaps another of its day.
    var rows: [Int32] = []
    var overlapping: [Bool] = []
    /// Each day's spans, consecutive ranges of `rows`, and the day's rows
    /// (ranges of the agenda's rows) they were made from.
    var days: [Range<Int>] = []
    var dayRows: [Range<Int>] = []
    /// An occurrence listed on several days: its rows.
    var multiDay: [AgendaOccurrences.Index: [Int32]] = [:]

    init() {}

    /// `days`: each day's rows, ranges of `rows`. `room`: reserve room for
    /// this many spans when more than the days' rows (the first part, which the others join).
    init(rows agenda: [AgendaRow], days dayRows: ArraySlice<Range<Int>>, occurrences: AgendaOccurrences,
        clock: ZoneClock, room: Int = 0) {
        // At most a span a row: an array that doubles would hold up to twice the spans.
        let own = dayRows.reduce(0) { $0 + $1.count }
        rows.reserveCapacity(max(own, room))
        overlapping.reserveCapacity(max(own, room))
        var spans: [Overlaps.Span] = []
        for day in dayRows {
            spans.removeAll(keepingCapacity: true)
            DaySpans.make(agenda, day, occurrences: occurrences, clock: clock, into: &spans) { row, o in
                if agenda[Int(row)].dayCount > 1 { multiDay[o, default: []].append(row) }
            }
            guard !spans.isEmpty else { continue }
            let first = rows.count
            rows += spans.lazy.map(\.row)
            overlapping += repeatElement(false, count: spans.count)
            days.append(first..<rows.count)
            self.dayRows.append(day)
            guard spans.count > 1 else { continue }
            overlapping.withUnsafeMutableBufferPointer { flags in
                Overlaps.markOverlapping(spans, 0..<spans.count,
                    in: UnsafeMutableBufferPointer(rebasing: flags[first..<first + spans.count]))
            }
        }
    }

    /// The busy timed spans of one day's rows, sorted by start, end and row:
    /// the order `find` numbers them in, and every later `make` of the day
    /// gives again. `each` is told each span's row and occurrence.
    static func make(
        _ rows: [AgendaRow], _ day: Range<Int>, occurrences: AgendaOccurrences, clock: ZoneClock,
        into spans: inout [Overlaps.Span], each: (Int32, AgendaOccurrences.Index) -> Void = { _, _ in }
    ) {
        for index in day {
            let row = rows[index]
            switch row.timing {
            case .starts, .continues, .allDay:
                let o = occurrences[row]
                if o.isBusy, let start = o.start, !start.isDate {
                    let s = Int64(start.instant(in: clock).timeIntervalSince1970.rounded(.down))
                    let e = max(o.end.map { Int64($0.instant(in: clock).timeIntervalSince1970.rounded(.down)) }
                        ?? s, s)
                    each(Int32(index), row.source)
                    spans.append(Overlaps.Span(start: s, end: e, row: Int32(index), uid: -1))
                }
            default: break
            }
        }
        if spans.count > 1 { spans.sort { ($0.start, $0.end, $0.row) < ($1.start, $1.end, $1.row) } }
    }
}

/// The threads' parts of `Overlaps.find`, each written by one thread.
struct SharedDaySpans: @unchecked Sendable {
    let parts: UnsafeMutableBufferPointer<DaySpans>
}
