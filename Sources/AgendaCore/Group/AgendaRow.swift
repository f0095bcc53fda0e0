import Foundation

/// One line of an agenda section: an occurrence as it shows on one day.
package struct AgendaRow: Sendable {
    /// How the row's time reads on its day.
    package enum Timing: Sendable, Equatable {
        /// An all-day event, or a day wholly inside a longer timed one.
        case allDay
        /// A timed occurrence that starts this day.
        case starts(Date)
        /// A timed occurrence that began on an earlier day and ends this day.
        case continues(until: Date)
        /// A reminder due this day, at a time or (nil) on the date.
        case due(Date?)
        /// An open reminder due before today, listed under today.
        case overdue(since: CivilDate)
        /// A reminder with neither start nor due date.
        case undated
    }

    /// Where the row's occurrence is kept in its agenda's
    /// `AgendaOccurrences`. An index, not a reference: rows are copied,
    /// sorted and merged by the hundred thousand, and counting a reference
    /// for each was a visit to an object far off in memory.
    let source: AgendaOccurrences.Index
    /// The day this row is listed under; nil in the undated section.
    package private(set) var day: CivilDate?
    package let timing: Timing
    /// True on the first row of the occurrence inside the window (JSON lists only those).
    package let isFirstListed: Bool
    private let index: Int32
    private let count: Int32
    /// The number of the row's item (its Event or Reminder) in this agenda
    /// (`AgendaBuilder.build`): rows of one day, rank and second are in the
    /// order of their items' ranks (`ItemRanks`), and the JSON formatter
    /// keeps each item's escaped text under this number.
    var item: Int32
    /// The row's entry in its agenda's `Overlaps`, or -1 when it overlaps nothing.
    var overlap: Int32 = -1
    /// Day, rank (0 for overdue reminders, 1 for all-day-like rows, 2 for
    /// timed ones) and seconds since local midnight, in one number: the
    /// agenda's sort order up to ties.
    let sortKey: Int64
    /// `sortKey / dayFactor` is the day key.
    static let dayFactor: Int64 = 1_000_000

    /// The same row under another day (an alarm's row: the day its occurrence starts, or is due).
    func listed(under day: CivilDate?) -> AgendaRow {
        var row = self
        row.day = day
        return row
    }

    /// For occurrences that span days: which day this is (1-based) and of how many.
    package var dayIndex: Int { Int(index) }
    package var dayCount: Int { Int(count) }

    init(
        source: AgendaOccurrences.Index, item: Int32, day: CivilDate?, timing: Timing, isFirstListed: Bool, dayIndex: Int, dayCount: Int, rank: Int,
        secondOfDay: Int
    ) {
        self.source = source
        self.item = item
        self.day = day
        self.timing = timing
        self.isFirstListed = isFirstListed
        index = Int32(clamping: dayIndex)
        count = Int32(clamping: dayCount)
        // `rank` says all-day-like (0) or timed (1); overdue reminders come before both.
        let order: Int64 = if case .overdue = timing { 0 } else { Int64(min(max(rank, 0), 8)) + 1 }
        sortKey = Int64(day?.dayKey ?? 99_999_999) * AgendaRow.dayFactor + order * 100_000 + Int64(min(max(secondOfDay, 0), 99_999))
    }
}

/// One section of the agenda: a day (or, with `--group-by`, a week or a
/// month), or the undated reminders.
package struct AgendaSection: Sendable {
    package enum Period: Sendable, Hashable {
        case day(CivilDate)
        /// The week that starts on this day (the locale's first weekday).
        case week(starting: CivilDate)
        case month(year: Int, month: Int)
        /// A month of the locale's own calendar (`@calendar=`), by its first day.
        case calendarMonth(firstDay: CivilDate)
        /// Reminders with neither start nor due date.
        case undated
    }

    package let period: Period
    /// A slice of the agenda's one sorted array of rows (no copy per section).
    package let rows: ArraySlice<AgendaRow>
    /// What the rows show: `occurrences[row]`.
    package let occurrences: AgendaOccurrences
    /// The agenda's overlapping rows (every section of an agenda shares one).
    package let overlaps: Overlaps

    init(period: Period, rows: ArraySlice<AgendaRow>, occurrences: AgendaOccurrences, overlaps: Overlaps = .none) {
        self.period = period
        self.rows = rows
        self.occurrences = occurrences
        self.overlaps = overlaps
    }

    /// The day of a day section.
    package var day: CivilDate? {
        if case .day(let d) = period { return d }
        return nil
    }
}

/// The occurrences an agenda was built from, one array per part (calendar),
/// as `AgendaBuilder.build(parts:)` was given them: each row names its
/// occurrence by its place here.
package struct AgendaOccurrences: Sendable {
    let parts: [[Occurrence]]

    /// An occurrence's part and its place in it.
    struct Index: Sendable {
        let part: Int32
        let position: Int32
    }

    init(_ parts: [[Occurrence]]) {
        self.parts = parts
    }

    static let none = AgendaOccurrences([])

    /// The occurrence `row` shows; `row` must come from this agenda.
    package subscript(row: AgendaRow) -> Occurrence { self[row.source] }

    subscript(index: Index) -> Occurrence { parts[Int(index.part)][Int(index.position)] }
}
