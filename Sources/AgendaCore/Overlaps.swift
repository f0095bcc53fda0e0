import Foundation

/// Which listed busy timed occurrences overlap in time, worked out once per
/// agenda (`find`), before any formatter runs: a day's busy rows are sorted
/// by start and swept, keeping those still running, so that a day of a
/// thousand rows costs a sort and the overlaps themselves, not a thousand
/// squared comparisons.
///
/// Busy is `Occurrence.isBusy` and timed (all-day rows never overlap, and
/// are never overlapped); an end equal to another's start is not an
/// overlap. Rows that overlap something carry an index here
/// (`AgendaRow.overlap`); every other row carries none, so the formatters'
/// cost for them is one comparison.
public final class Overlaps: Sendable {
    /// What one row shows.
    public struct Entry: Sendable {
        /// The titles of the occurrences this one overlaps on the row's day
        /// (sorted, unique): the text, Markdown and HTML marks.
        public let titlesOnDay: [String]
        /// The UIDs (sorted, unique) of every occurrence this one overlaps,
        /// on any day of the window: the JSON `overlaps` key.
        public let uids: [String]
        /// `uids` as a JSON array, escaped once.
        let json: [UInt8]
    }

    public let entries: [Entry]

    init(entries: [Entry]) {
        self.entries = entries
    }

    static let none = Overlaps(entries: [])

    /// Finds the overlaps of `rows` (sorted by day, as `AgendaBuilder` sorts
    /// them) and marks each overlapping row with its entry.
    static func find(in rows: inout [AgendaRow], clock: ZoneClock) -> Overlaps {
        struct Span {
            let row: Int
            let start: Date
            let end: Date
        }
        var othersOnDay: [Int: [Occurrence]] = [:]  // row index → the occurrences it overlaps that day
        var uids: [ObjectIdentifier: Set<String>] = [:]  // occurrence → every UID it overlaps
        var firstRows: [ObjectIdentifier: Int] = [:]  // multi-day occurrences: the row JSON lists
        var spans: [Span] = []
        var active: [Span] = []
        var index = 0
        while index < rows.count {
            let day = rows[index].sortKey / AgendaRow.dayFactor
            spans.removeAll(keepingCapacity: true)
            while index < rows.count && rows[index].sortKey / AgendaRow.dayFactor == day {
                let row = rows[index]
                switch row.timing {
                case .starts, .continues, .allDay:
                    row.withOccurrence { o in
                        guard o.isBusy, let start = o.start, !start.isDate else { return }
                        let s = start.instant(in: clock)
                        spans.append(Span(row: index, start: s, end: max(o.end?.instant(in: clock) ?? s, s)))
                        if row.isFirstListed && row.dayCount > 1 { firstRows[ObjectIdentifier(o)] = index }
                    }
                default: break
                }
                index += 1
            }
            guard spans.count > 1 else { continue }
            spans.sort { $0.start != $1.start ? $0.start < $1.start : $0.row < $1.row }
            active.removeAll(keepingCapacity: true)
            for span in spans {
                active.removeAll { $0.end <= span.start }
                for other in active where other.start < span.end {
                    let a = rows[span.row].occurrence, b = rows[other.row].occurrence
                    othersOnDay[span.row, default: []].append(b)
                    othersOnDay[other.row, default: []].append(a)
                    if !b.uid.isEmpty { uids[ObjectIdentifier(a), default: []].insert(b.uid) }
                    if !a.uid.isEmpty { uids[ObjectIdentifier(b), default: []].insert(a.uid) }
                }
                active.append(span)
            }
        }
        guard !othersOnDay.isEmpty else { return .none }
        // A row that overlaps something that day, and the first row of a
        // multi-day occurrence that overlaps something on a later day.
        var marked = Set(othersOnDay.keys)
        for (occurrence, row) in firstRows where uids[occurrence] != nil { marked.insert(row) }
        var entries: [Entry] = []
        for row in marked.sorted() {
            let o = rows[row].occurrence
            let titles = Set((othersOnDay[row] ?? []).map(Overlaps.oneLine)).sorted()
            let listed = rows[row].isFirstListed ? (uids[ObjectIdentifier(o)] ?? []).sorted() : []
            var json: [UInt8] = [0x5B]
            for (i, uid) in listed.enumerated() {
                if i > 0 { json.append(0x2C) }
                JSONText.append(uid, to: &json)
            }
            json.append(0x5D)
            rows[row].overlap = Int32(entries.count)
            entries.append(Entry(titlesOnDay: titles, uids: listed, json: json))
        }
        return Overlaps(entries: entries)
    }

    /// A title as a row shows it: one line, `(no title)` when empty.
    static func oneLine(_ o: Occurrence) -> String {
        let title = o.title
        if title.isEmpty { return "(no title)" }
        guard title.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return title }
        return title.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\r", with: " ")
    }

    /// The entry of a row, when it overlaps anything.
    public func entry(_ row: AgendaRow) -> Entry? {
        row.overlap >= 0 ? entries[Int(row.overlap)] : nil
    }

    /// ` (overlaps Review, Standup)`: the mark after a row's title; empty
    /// when the row overlaps nothing on its day.
    public func mark(_ row: AgendaRow) -> String {
        guard let titles = entry(row)?.titlesOnDay, !titles.isEmpty else { return "" }
        return "(overlaps \(titles.joined(separator: ", ")))"
    }
}
