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
    /// The instant (seconds since 2001) or, for `overdue`, the day number
    /// that `timing` carries. A row is kept in 40 bytes: an agenda of the
    /// 100k calendar holds 250,000 of them, sorted and merged.
    private let moment: Double
    /// Day, rank (0 for overdue reminders, 1 for all-day-like rows, 2 for
    /// timed ones) and seconds since local midnight, in one number: the
    /// agenda's sort order up to ties. The day is its number since 1970
    /// plus `dayOffset`, so that every key is positive.
    private(set) var sortKey: Int64
    /// Which day of the occurrence this is (low 24 bits) and the timing's
    /// case, with `firstListedBit` (high 8 bits).
    private let indexAndTiming: UInt32
    private let count: Int32
    /// The number of the row's item (its Event or Reminder) in this agenda
    /// (`AgendaBuilder.build`): rows of one day, rank and second are in the
    /// order of their items' ranks (`ItemRanks`), and the JSON formatter
    /// keeps each item's escaped text under this number.
    var item: Int32
    /// The row's entry in its agenda's `Overlaps`, or -1 when it overlaps nothing.
    var overlap: Int32 = -1
    /// `sortKey / dayFactor` is the day's number (plus `dayOffset`).
    static let dayFactor: Int64 = 1_000_000
    static let dayOffset: Int64 = 100_000_000
    private static let firstListedBit: UInt32 = 0x0800_0000

    private enum Case: UInt32 {
        case allDay, starts, continues, dueAt, dueOn, overdue, undated
    }

    /// The day this row is listed under; nil in the undated section.
    package var day: CivilDate? {
        guard case .undated = timing else {
            return CivilDate(daysSinceEpoch: Int(sortKey / AgendaRow.dayFactor - AgendaRow.dayOffset))
        }
        return nil
    }

    package var timing: Timing {
        switch Case(rawValue: (indexAndTiming >> 24) & 0x7) {
        case .starts: .starts(Date(timeIntervalSinceReferenceDate: moment))
        case .continues: .continues(until: Date(timeIntervalSinceReferenceDate: moment))
        case .dueAt: .due(Date(timeIntervalSinceReferenceDate: moment))
        case .dueOn: .due(nil)
        case .overdue: .overdue(since: CivilDate(daysSinceEpoch: Int(moment)))
        case .undated: .undated
        case .allDay, nil: .allDay
        }
    }

    /// True on the first row of the occurrence inside the window (JSON lists only those).
    package var isFirstListed: Bool { indexAndTiming & AgendaRow.firstListedBit != 0 }

    /// The same row under another day (an alarm's row: the day its occurrence starts, or is due).
    func listed(under day: CivilDate?) -> AgendaRow {
        guard let day, self.day != nil else { return self }
        var row = self
        row.sortKey = (Int64(day.daysSinceEpoch) + AgendaRow.dayOffset) * AgendaRow.dayFactor
            + sortKey % AgendaRow.dayFactor
        return row
    }

    /// For occurrences that span days: which day this is (1-based) and of how many.
    package var dayIndex: Int { Int(indexAndTiming & 0xFF_FFFF) }
    var dayCount: Int { Int(count) }

    init(
        source: AgendaOccurrences.Index, item: Int32, day: CivilDate?, timing: Timing, isFirstListed: Bool,
            dayIndex: Int, dayCount: Int, rank: Int,
        secondOfDay: Int
    ) {
        self.source = source
        self.item = item
        let kind: Case
        switch timing {
        case .allDay: (kind, moment) = (.allDay, 0)
        case .starts(let date): (kind, moment) = (.starts, date.timeIntervalSinceReferenceDate)
        case .continues(let date): (kind, moment) = (.continues, date.timeIntervalSinceReferenceDate)
        case .due(let date?): (kind, moment) = (.dueAt, date.timeIntervalSinceReferenceDate)
        case .due(nil): (kind, moment) = (.dueOn, 0)
        case .overdue(let since): (kind, moment) = (.overdue, Double(since.daysSinceEpoch))
        case .undated: (kind, moment) = (.undated, 0)
        }
        indexAndTiming = UInt32(min(max(dayIndex, 0), 0xFF_FFFF)) | kind.rawValue << 24 | (isFirstListed
            ? AgendaRow.firstListedBit : 0)
        count = Int32(clamping: dayCount)
        // `rank` says all-day-like (0) or timed (1); overdue reminders come before both.
        let order: Int64 = if case .overdue = timing { 0 } else { Int64(min(max(rank, 0), 8)) + 1 }
        let dayNumber = day.map { Int64($0.daysSinceEpoch) + AgendaRow.dayOffset } ?? 2 * AgendaRow.dayOffset
        sortKey = dayNumber * AgendaRow.dayFactor + order * 100_000 + Int64(min(max(secondOfDay, 0), 99_999))
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
    /// Also the occurrence's identity: an occurrence is a value.
    struct Index: Sendable, Hashable {
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
