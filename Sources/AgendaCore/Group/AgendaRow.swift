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
    /// Day, rank and second of the day (the sort key), then the number of
    /// days of the occurrence, in one number. A row is kept in 32 bytes: an
    /// agenda of the 100k calendar holds 270,000 of them, sorted and merged.
    ///
    /// From the top: the day's number since 1970 plus `dayOffset` (22 bits;
    /// `undatedDay` in the undated section), the rank (2 bits: 0 for overdue
    /// reminders, 1 for all-day-like rows, 2 for timed ones), the seconds
    /// since local midnight (17 bits), the day count (23 bits: an occurrence
    /// of more days, 23,000 years, reads as that many).
    private var packed: UInt64
    /// What `timing` carries: for `starts`, `continues` and `due` at a time,
    /// the instant as seconds from the row's day at 00:00 UTC (within two
    /// days of it in an agenda); for `overdue`, the day it was due, as days since 1970.
    private var moment: Int32
    /// Which day of the occurrence this is (low 24 bits) and the timing's
    /// case, with `firstListedBit` (high 8 bits).
    private var indexAndTiming: UInt32
    /// The number of the row's item (its Event or Reminder) in this agenda
    /// (`AgendaBuilder.build`): rows of one day, rank and second are in the
    /// order of their items' ranks (`ItemRanks`), and the JSON formatter
    /// keeps each item's escaped text under this number.
    var item: Int32
    /// The row's entry in its agenda's `Overlaps`, or -1 when it overlaps nothing.
    var overlap: Int32 = -1

    private static let countBits: UInt64 = 23
    private static let secondBits: UInt64 = 17
    private static let rankBits: UInt64 = 2
    /// The days from about year -770 to year 10,700 fit (iCalendar's are 0000-9999, windows 0001-9999); others are
    /// held at the ends.
    static let dayOffset: Int64 = 1_000_000
    /// The day number of the undated section: after every day.
    static let undatedDay: Int64 = (1 << 22) - 1
    private static let firstListedBit: UInt32 = 0x0800_0000
    /// Seconds from 1970 to 2001, `Date`'s reference.
    private static let referenceSeconds: Int64 = 978_307_200

    /// The agenda's sort order up to ties: day, rank, second.
    var sortKey: Int64 { Int64(packed >> AgendaRow.countBits) }
    /// The day part of `sortKey` (the day's number plus `dayOffset`).
    var sortDay: Int64 { Int64(packed >> (AgendaRow.countBits + AgendaRow.secondBits + AgendaRow.rankBits)) }

    private enum Case: UInt32 {
        case allDay, starts, continues, dueAt, dueOn, overdue, undated
    }

    private var timingCase: Case { Case(rawValue: (indexAndTiming >> 24) & 0x7) ?? .allDay }

    /// The instant `moment` stands for (starts, continues, due at a time).
    private var instant: Date {
        Date(timeIntervalSinceReferenceDate: Double((sortDay - AgendaRow.dayOffset) * 86400
            - AgendaRow.referenceSeconds + Int64(moment)))
    }

    /// The day this row is listed under; nil in the undated section.
    package var day: CivilDate? {
        guard case .undated = timing else {
            return CivilDate(daysSinceEpoch: Int(sortDay - AgendaRow.dayOffset))
        }
        return nil
    }

    package var timing: Timing {
        switch timingCase {
        case .starts: .starts(instant)
        case .continues: .continues(until: instant)
        case .dueAt: .due(instant)
        case .dueOn: .due(nil)
        case .overdue: .overdue(since: CivilDate(daysSinceEpoch: Int(moment)))
        case .undated: .undated
        case .allDay: .allDay
        }
    }

    /// True on the first row of the occurrence inside the window (JSON lists only those).
    package var isFirstListed: Bool { indexAndTiming & AgendaRow.firstListedBit != 0 }

    /// The same row under another day (an alarm's row: the day its occurrence starts, or is due).
    func listed(under day: CivilDate?) -> AgendaRow {
        guard let day, self.day != nil else { return self }
        var row = self
        let shift = AgendaRow.countBits + AgendaRow.secondBits + AgendaRow.rankBits
        let key = AgendaRow.sortDay(of: day)
        row.packed = UInt64(key) << shift | packed & ((1 << shift) - 1)
        if timingCase == .starts || timingCase == .continues || timingCase == .dueAt {
            // The same instant, from the new day; one 68 years away or more
            // (an alarm row moved to the start of a long event) keeps no time.
            if let moved = Int32(exactly: Int64(moment) + (sortDay - key) * 86400) {
                row.moment = moved
            } else {
                row.moment = 0
                row.indexAndTiming = indexAndTiming & ~(0x7 << 24) | Case.allDay.rawValue << 24
            }
        }
        return row
    }

    /// For occurrences that span days: which day this is (1-based) and of how many.
    package var dayIndex: Int { Int(indexAndTiming & 0xFF_FFFF) }
    var dayCount: Int { Int(packed & ((1 << AgendaRow.countBits) - 1)) }

    /// A day's number in `packed` (plus `dayOffset`, held within the field).
    private static func sortDay(of day: CivilDate) -> Int64 {
        min(max(Int64(day.daysSinceEpoch) + dayOffset, 0), undatedDay - 1)
    }

    init(
        source: AgendaOccurrences.Index, item: Int32, day: CivilDate?, timing: Timing, isFirstListed: Bool,
            dayIndex: Int, dayCount: Int, rank: Int,
        secondOfDay: Int
    ) {
        self.source = source
        self.item = item
        assert(day != nil || timing == .undated, "only the undated section has rows without a day")
        let key = day.map(AgendaRow.sortDay) ?? AgendaRow.undatedDay
        /// An instant as seconds from the row's day at 00:00 UTC.
        func fromDay(_ date: Date) -> Int32 {
            let seconds = Int64(date.timeIntervalSinceReferenceDate.rounded(.down)) + AgendaRow.referenceSeconds
            return Int32(clamping: seconds - (key - AgendaRow.dayOffset) * 86400)
        }
        let kind: Case
        switch timing {
        case .allDay: (kind, moment) = (.allDay, 0)
        case .starts(let date): (kind, moment) = (.starts, fromDay(date))
        case .continues(let date): (kind, moment) = (.continues, fromDay(date))
        case .due(let date?): (kind, moment) = (.dueAt, fromDay(date))
        case .due(nil): (kind, moment) = (.dueOn, 0)
        case .overdue(let since): (kind, moment) = (.overdue, Int32(clamping: since.daysSinceEpoch))
        case .undated: (kind, moment) = (.undated, 0)
        }
        indexAndTiming = UInt32(min(max(dayIndex, 0), 0xFF_FFFF)) | kind.rawValue << 24 | (isFirstListed
            ? AgendaRow.firstListedBit : 0)
        // `rank` says all-day-like (0) or timed (1), held to 0...2; overdue reminders come before both.
        let rankPart: UInt64 = if case .overdue = timing { 0 } else { UInt64(min(max(rank, 0), 2)) + 1 }
        let second = UInt64(min(max(secondOfDay, 0), 99_999))
        let count = UInt64(min(max(dayCount, 0), (1 << 23) - 1))
        packed = UInt64(key) << (AgendaRow.countBits + AgendaRow.secondBits + AgendaRow.rankBits)
            | rankPart << (AgendaRow.countBits + AgendaRow.secondBits) | second << AgendaRow.countBits | count
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
