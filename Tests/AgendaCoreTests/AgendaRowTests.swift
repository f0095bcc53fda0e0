@testable import AgendaCore
import Foundation
import Testing

/// A row is kept in 32 bytes (`AgendaRow.packed`, an instant as seconds
/// from its day): every timing, day and day count must read back as given,
/// at the ends of iCalendar's years too, and the sort key keep its order.
@Suite struct AgendaRowTests {
    static let source = AgendaOccurrences.Index(part: 0, position: 0)
    static let days = ["0001-01-01", "1969-12-31", "1970-01-01", "2025-03-30", "2025-10-26", "9999-12-31"]
        .map { CivilDate(iso: $0)! }

    static func row(_ day: CivilDate?, _ timing: AgendaRow.Timing, index: Int = 1, count: Int = 1, rank: Int = 1,
        second: Int = 0, first: Bool = true) -> AgendaRow {
        AgendaRow(source: source, item: 7, day: day, timing: timing, isFirstListed: first, dayIndex: index,
            dayCount: count, rank: rank, secondOfDay: second)
    }

    @Test func aRowIsAValueOf32Bytes() {
        #expect(MemoryLayout<AgendaRow>.stride == 32)
    }

    @Test(arguments: days)
    func everyTimingReadsBackOnItsDay(_ day: CivilDate) {
        let midnight = day.midnightUTC
        // A local day runs from 14 hours before its UTC midnight (UTC+14) to 36 after it (UTC-12).
        let seconds: [Int] = [-50_400, 0, 59, 45_015, 129_599]
        let instants: [Date] = seconds.map { midnight.addingTimeInterval(TimeInterval($0)) }
        var timings: [AgendaRow.Timing] = [.allDay, .due(nil), .overdue(since: CivilDate(iso: "0001-01-02")!),
            .overdue(since: day.adding(days: -1))]
        timings += instants.flatMap { [AgendaRow.Timing.starts($0), .continues(until: $0), .due($0)] }
        for timing in timings {
            let row = AgendaRowTests.row(day, timing, index: 3, count: 3_652_059, second: 86_399, first: false)
            let other = AgendaRowTests.row(day, timing, index: 3, count: 1, second: 86_399, first: false)
            #expect(row.timing == timing, "\(day) \(timing)")
            #expect(row.day == day)
            #expect(row.dayIndex == 3 && row.dayCount == 3_652_059 && !row.isFirstListed && row.item == 7)
            // The day count is no part of the order.
            #expect(row.sortKey == other.sortKey && other.dayCount == 1)
            // Listed under another day (an alarm's row): the same instant, the new day.
            let moved = row.listed(under: day.adding(days: 1))
            #expect(moved.timing == timing && moved.day == day.adding(days: 1), "\(day) \(timing)")
        }
        let undated = AgendaRowTests.row(nil, .undated)
        #expect(undated.timing == .undated && undated.day == nil)
    }

    /// Day first, then overdue before all-day-like before timed, then the second; the undated section last.
    @Test func theSortKeyOrdersDayRankAndSecond() {
        var keys: [Int64] = []
        for day in AgendaRowTests.days {
            keys.append(AgendaRowTests.row(day, .overdue(since: day.adding(days: -3)), rank: 1, second: 0).sortKey)
            keys.append(AgendaRowTests.row(day, .allDay, rank: 0, second: 0).sortKey)
            keys.append(AgendaRowTests.row(day, .starts(day.midnightUTC), rank: 1, second: 0).sortKey)
            keys.append(AgendaRowTests.row(day, .starts(day.midnightUTC), rank: 1, second: 90_000).sortKey)
        }
        keys.append(AgendaRowTests.row(nil, .undated, rank: 0).sortKey)
        #expect(keys == keys.sorted() && Set(keys).count == keys.count)
        #expect(AgendaRowTests.row(AgendaRowTests.days[3], .allDay, rank: 0).sortDay
            == AgendaRowTests.row(AgendaRowTests.days[3], .starts(AgendaRowTests.days[3].midnightUTC)).sortDay)
    }

    /// The rank comes before the second; what is out of range is held at its ends.
    @Test func rankBeforeSecondAndEveryFieldHeldInRange() {
        let day = AgendaRowTests.days[3]
        let lateAllDay = AgendaRowTests.row(day, .allDay, rank: 0, second: 99_999)
        let earlyTimed = AgendaRowTests.row(day, .starts(day.midnightUTC), rank: 1, second: 0)
        #expect(lateAllDay.sortKey < earlyTimed.sortKey)
        #expect(AgendaRowTests.row(day, .allDay, rank: 0, second: 250_000).sortKey == lateAllDay.sortKey)
        #expect(AgendaRowTests.row(day, .allDay, rank: -3, second: -5).sortKey
            == AgendaRowTests.row(day, .allDay, rank: 0, second: 0).sortKey)
        #expect(AgendaRowTests.row(day, .allDay, count: 20_000_000).dayCount == (1 << 23) - 1)
        #expect(AgendaRowTests.row(day, .allDay, index: 1 << 30).dayIndex == 0xFF_FFFF)
        // Held at the ends of the day field: still before the undated section, still in order.
        let farPast = AgendaRowTests.row(CivilDate(daysSinceEpoch: -5_000_000), .allDay)
        let farFuture = AgendaRowTests.row(CivilDate(daysSinceEpoch: 5_000_000), .allDay)
        #expect(farPast.sortKey < lateAllDay.sortKey && lateAllDay.sortKey < farFuture.sortKey)
        #expect(farFuture.sortKey < AgendaRowTests.row(nil, .undated).sortKey)
    }

    /// An alarm's row is listed under the day its occurrence starts: the
    /// instant stays exact decades away; past 68 years the row keeps no time.
    @Test func aRowMovedFarKeepsItsInstantOrNoTime() {
        let day = AgendaRowTests.days[3]
        let end = day.midnightUTC.addingTimeInterval(3600)
        let ending = AgendaRowTests.row(day, .continues(until: end))
        let thirty = ending.listed(under: day.adding(days: -30 * 365))
        #expect(thirty.timing == .continues(until: end) && thirty.day == day.adding(days: -30 * 365))
        let century = ending.listed(under: day.adding(days: -100 * 365))
        #expect(century.timing == .allDay && century.day == day.adding(days: -100 * 365))
        let overdue = AgendaRowTests.row(day, .overdue(since: AgendaRowTests.days[0]))
        #expect(overdue.listed(under: AgendaRowTests.days[5]).timing == .overdue(since: AgendaRowTests.days[0]))
        #expect(AgendaRowTests.row(nil, .undated).listed(under: day).day == nil)
    }
}
