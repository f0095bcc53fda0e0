import Foundation

/// `ics-agenda next`: what is happening now, else what starts next, picked
/// from an agenda built over the window now ..< now + within.
package struct Upcoming: Sendable {
    /// One occurrence within reach.
    package struct Entry: Sendable {
        /// Its row (the first it has in the window): JSON writes it as the agenda does.
        package let row: AgendaRow
        package let occurrence: Occurrence
        package let start: Date
        package let end: Date
        /// Begun, not yet ended.
        let isNow: Bool
        /// Whole minutes until it starts, rounded up; 0 once it has begun.
        package let minutesUntil: Int
        let isAllDay: Bool
    }

    package let entries: [Entry]
    /// The agenda's overlaps, for JSON.
    package let overlaps: Overlaps
    /// What the agenda's rows show, for JSON.
    package let occurrences: AgendaOccurrences

    /// - Parameters:
    ///   - sections: the agenda of the window (`AgendaBuilder` over
    ///     now ..< now + within, events only, cancelled ones left out).
    ///   - includeAllDay: all-day occurrences count too (`--all-day`).
    ///   - count: how many to keep.
    /// Order: those already begun, the latest begun first (a meeting that
    /// just started inside a long block comes before the block); then the
    /// rest by start; ties in agenda order.
    package init(sections: [AgendaSection], now: Date, end: Date, clock: ZoneClock, includeAllDay: Bool, count: Int) {
        var found: [(entry: Entry, order: Int)] = []
        var order = 0
        for section in sections {
            for row in section.rows where row.isFirstListed {
                order += 1
                let o = section.occurrences[row]
                guard case .event = o.item, !o.isCancelled, let start = o.start else { continue }
                if start.isDate && !includeAllDay { continue }
                guard let (s, e) = o.span(in: clock) else { continue }
                // Within reach: not over, and starting before the reach ends.
                let isNow = s <= now && (e > now || (e == s && s == now))
                guard isNow || (s > now && s < end) else { continue }
                let minutes = isNow ? 0 : Int((s.timeIntervalSince(now) / 60).rounded(.up))
                found.append((Entry(row: row, occurrence: o, start: s, end: e, isNow: isNow, minutesUntil: minutes,
                    isAllDay: start.isDate), order))
            }
        }
        found.sort { a, b in
            if a.entry.isNow != b.entry.isNow { return a.entry.isNow }
            if a.entry.start != b.entry.start {
                return a.entry.isNow ? a.entry.start > b.entry.start : a.entry.start < b.entry.start
            }
            return a.order < b.order
        }
        entries = found.prefix(max(count, 0)).map(\.entry)
        overlaps = sections.first?.overlaps ?? .none
        occurrences = sections.first?.occurrences ?? .none
    }
}
