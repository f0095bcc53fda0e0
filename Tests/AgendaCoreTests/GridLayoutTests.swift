import AgendaCore
import Foundation
import Testing

/// The week grid's and the month grid's placement: what overlaps is side
/// by side and never drawn over, every day of a month is in its grid once,
/// and text is cut to the columns it has.
@Suite struct GridLayoutTests {
    /// An item to place: what it is does not count for where it goes.
    static func item(_ title: String) -> GridItem {
        let section = builder().build([event(title, at("2025-03-02T08:00:00Z"))])[0]
        let row = section.rows[section.rows.startIndex]
        return GridItem(row: row, occurrence: section.occurrences[row], time: nil)
    }

    /// Random blocks of one day (a fixed seed): no two blocks that share a
    /// half hour share a lane, and every lane is below its block's lane count.
    @Test(arguments: 1...40)
    func overlappingBlocksNeverShareALane(_ seed: Int) {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let blocks = (0..<(1 + next(30))).map { _ -> WeekLayout.Block in
            let from = next(24 * 3600)
            return WeekLayout.block(GridLayoutTests.item("x"), from, from + next(4 * 3600))
        }
        let placed = WeekLayout.placedSideBySide(blocks, first: 0, end: 48)
        #expect(placed.count == blocks.count)
        for slot in 0..<48 {
            let here = placed.filter { $0.start <= slot && slot < $0.end }
            #expect(Set(here.map(\.lane)).count == here.count, "slot \(slot): two blocks in one lane")
            for block in here {
                #expect(block.lane < block.lanes)
                // Side by side with every block it shares the half hour with: one lane count for all of them.
                #expect(block.lanes >= here.count)
            }
        }
    }

    /// Blocks outside the hours shown are cut to them, never drawn past them.
    @Test func blocksAreCutToTheHoursShown() {
        let early = WeekLayout.block(GridLayoutTests.item("early"), 6 * 3600, 10 * 3600)
        let late = WeekLayout.block(GridLayoutTests.item("late"), 17 * 3600, 23 * 3600)
        let placed = WeekLayout.placedSideBySide([early, late], first: 16, end: 36)
        #expect(placed.map(\.start) == [16, 34])
        #expect(placed.map(\.end) == [20, 36])
    }

    /// Every month of two years, from every first weekday: whole weeks that
    /// start on that weekday and hold each day of the month once.
    @Test(arguments: 1...7)
    func aMonthIsWholeWeeksHoldingEachOfItsDays(_ firstWeekday: Int) {
        for year in [2024, 2026] {
            for month in 1...12 {
                let first = CivilDate(year: year, month: month, day: 1)
                let days = MonthLayout.days(first: first, last: first.adding(days: CivilDate.daysIn(year: year,
                    month: month) - 1), firstWeekday: firstWeekday)
                #expect(days.count % 7 == 0 && (28...42).contains(days.count))
                #expect(days.first?.weekday == firstWeekday)
                let inMonth = days.filter { $0.month == month && $0.year == year }
                #expect(inMonth.count == CivilDate.daysIn(year: year, month: month))
                #expect(zip(days, days.dropFirst()).allSatisfy { $1 == $0.adding(days: 1) })
            }
        }
    }

    /// A month of the locale's calendar is that calendar's: Farvardin 1404
    /// runs from March 21 to April 20, 2025, and Iyar 5785 has 29 days.
    @Test func aMonthOfAnotherCalendarIsThatCalendarsMonth() {
        var persian = Calendar(identifier: .persian)
        persian.timeZone = TimeZone(identifier: "UTC")!
        let months = MonthLayout.months(2, from: CivilDate(year: 2025, month: 3, day: 26), calendar: persian)
        #expect(months.map(\.first.iso) == ["2025-03-21", "2025-04-21"])
        #expect(months.map(\.last.iso) == ["2025-04-20", "2025-05-21"])
        var hebrew = Calendar(identifier: .hebrew)
        hebrew.timeZone = TimeZone(identifier: "UTC")!
        let iyar = MonthLayout.months(1, from: CivilDate(year: 2025, month: 5, day: 15), calendar: hebrew)[0]
        #expect(iyar.last.daysSinceEpoch - iyar.first.daysSinceEpoch + 1 == 29)
    }

    /// Combining marks and format characters take no column (as glibc's
    /// wcwidth counts): a Hindi weekday, Thai, Arabic with its vowels.
    @Test(arguments: [("बुध", 2), ("गुरु", 2), ("ที่", 1), ("مَرْحَبًا", 5), ("a\u{2060}b", 2), ("한글", 4)])
    func marksTakeNoColumn(_ text: String, _ width: Int) {
        #expect(GridText.width(text) == width)
    }

    /// Cut by display width: wide characters take two columns, the
    /// ellipsis one; nothing is longer than asked, and what fits is kept whole.
    @Test(arguments: [("Standup", 9, "Standup  "), ("Quarterly review", 9, "Quarterl…"), ("会議の準備", 9, "会議の準…"),
        ("会議の準備", 8, "会議の… "), ("🎉🎉🎉🎉🎉", 5, "🎉🎉…")])
    func textIsCutByDisplayWidth(_ text: String, _ width: Int, _ expected: String) {
        let grid = GridText(unicode: true)
        #expect(grid.fit(text, width) == expected)
        #expect(GridText(unicode: false).fit("Quarterly review", 9) == "Quarterl~")
    }
}
