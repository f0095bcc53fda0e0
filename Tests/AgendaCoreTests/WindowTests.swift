import AgendaCore
import Foundation
import Testing

let berlin = ZoneClock(TimeZone(identifier: "Europe/Berlin")!)
let newYork = ZoneClock(TimeZone(identifier: "America/New_York")!)
let utc = ZoneClock(TimeZone(identifier: "UTC")!)

func day(_ iso: String) -> CivilDate { CivilDate(iso: iso)! }
func instant(_ text: String) -> Date { try! ClockReading.parse(text, zone: utc) }

@Suite struct WindowTests {
    @Test func oneYearIsCalendarArithmeticNot365Days() {
        let window = AgendaWindow.oneYear(from: day("2025-03-01"), clock: berlin)
        #expect(window.endDay == day("2026-03-01"))
        // 2024 is a leap year: one calendar year from 2024-01-01 is 366 days.
        #expect(AgendaWindow.oneYear(from: day("2024-01-01"), clock: berlin).endDay == day("2025-01-01"))
    }

    @Test func leapDayPlusOneYearEndsBeforeFebruary28() {
        let window = AgendaWindow.oneYear(from: day("2028-02-29"), clock: berlin)
        #expect(window.endDay == day("2029-02-28"))
        #expect(window.contains(day: day("2029-02-27")))
        #expect(!window.contains(day: day("2029-02-28")))
        #expect(window.contains(day: day("2028-02-29")))
    }

    @Test func windowStartsAtMidnightSoEarlierEventsToday() throws {
        let now = try ClockReading.parse("2025-03-01T15:00:00+01:00", zone: berlin)
        let today = berlin.civilDate(of: now)
        let window = AgendaWindow.oneYear(from: today, clock: berlin)
        #expect(window.start == instant("2025-02-28T23:00:00Z"))
        // A meeting at 09:00 this morning is still in the window.
        let nineAM = instant("2025-03-01T08:00:00Z")
        #expect(window.intersects(start: nineAM, end: nineAM + 3600))
        // One that ended before midnight is not.
        #expect(!window.intersects(start: instant("2025-02-28T20:00:00Z"), end: instant("2025-02-28T23:00:00Z")))
    }

    @Test func dstDaysAreShortAndLong() {
        let spring = AgendaWindow.days(1, from: day("2025-03-30"), clock: berlin)
        #expect(spring.end.timeIntervalSince(spring.start) == 23 * 3600)
        let autumn = AgendaWindow.days(1, from: day("2025-10-26"), clock: berlin)
        #expect(autumn.end.timeIntervalSince(autumn.start) == 25 * 3600)
    }

    @Test func yearBoundary() {
        let window = AgendaWindow.days(2, from: day("2025-12-31"), clock: berlin)
        #expect(window.endDay == day("2026-01-02"))
        #expect(window.contains(day: day("2026-01-01")))
        #expect(day("2025-12-31").adding(days: 1).dayKey == 20260101)
    }

    @Test func throughIsInclusive() {
        let window = AgendaWindow.through(day("2025-03-03"), from: day("2025-03-01"), clock: berlin)
        #expect(window.endDay == day("2025-03-04"))
    }

    @Test func zeroLengthSpanTouchesWhenItStartsInside() {
        let window = AgendaWindow.days(1, from: day("2025-03-01"), clock: utc)
        #expect(window.intersects(start: window.start, end: window.start))
        #expect(!window.intersects(start: window.end, end: window.end))
    }

    @Test(arguments: [
        ("today", "2025-03-01"), ("tomorrow", "2025-03-02"), ("yesterday", "2025-02-28"),
        ("+3d", "2025-03-04"), ("-1d", "2025-02-28"), ("+365d", "2026-03-01"), ("2024-02-29", "2024-02-29"),
    ])
    func dayExpressions(_ text: String, _ expected: String) throws {
        #expect(try DayExpression.resolve(text, today: day("2025-03-01")) == day(expected))
    }

    /// A span's word is its first day as `--from` and its last as `--to`,
    /// weeks from the first weekday given: on Sunday 2025-03-02, with weeks
    /// from Monday, next week is 3 to 9 March (not the one day 3 March), and
    /// from Sunday 9 to 15 March; months over a year's end and February.
    @Test(arguments: [
        ("this week", 2, "2025-02-24", "2025-03-02"), ("next week", 2, "2025-03-03", "2025-03-09"),
        ("this week", 1, "2025-03-02", "2025-03-08"), ("next week", 1, "2025-03-09", "2025-03-15"),
        ("this month", 2, "2025-03-01", "2025-03-31"), ("Next-Month", 2, "2025-04-01", "2025-04-30"),
    ])
    func spanWordsNameTheirFirstAndLastDay(_ text: String, _ weekStart: Int, _ first: String, _ last: String) throws {
        let sunday = day("2025-03-02")
        #expect(try DayExpression.resolve(text, today: sunday, firstWeekday: weekStart, end: .first) == day(first))
        #expect(try DayExpression.resolve(text, today: sunday, firstWeekday: weekStart, end: .last) == day(last))
        #expect(try DayExpression.resolve("next month", today: day("2024-12-31"), end: .last) == day("2025-01-31"))
        #expect(try DayExpression.resolve("next month", today: day("2024-01-31"), end: .last) == day("2024-02-29"))
        #expect(try DayExpression.resolve("this month", today: day("2024-12-15"), end: .first) == day("2024-12-01"))
    }

    @Test(arguments: ["2025-02-29", "2025-13-01", "next fortnight", "+d", "3d", "2025-3-1"])
    func badDayExpressions(_ text: String) {
        #expect(throws: DayExpression.Invalid.self) { try DayExpression.resolve(text, today: day("2025-03-01")) }
    }

    @Test func clockReadings() throws {
        #expect(try ClockReading.parse("2025-03-01T08:00:00+01:00", zone: utc) == instant("2025-03-01T07:00:00Z"))
        #expect(try ClockReading.parse("2025-03-01T08:00:00-0530", zone: utc) == instant("2025-03-01T13:30:00Z"))
        // Without an offset, a reading is wall-clock time in the display zone.
        #expect(try ClockReading.parse("2025-07-01T08:00", zone: berlin) == instant("2025-07-01T06:00:00Z"))
        #expect(throws: ClockReading.Invalid.self) { try ClockReading.parse("yesterday noon", zone: utc) }
    }
}

@Suite struct ZoneClockTests {
    @Test func lateUTCEventIsTheNextDayInBerlinAndTheSameInNewYork() {
        let t = instant("2025-03-05T23:00:00Z")
        #expect(berlin.civilDate(of: t) == day("2025-03-06"))
        #expect(newYork.civilDate(of: t) == day("2025-03-05"))
        #expect(utc.civilDate(of: t) == day("2025-03-05"))
    }

    @Test func wallClockInAGapMovesForward() {
        // 02:30 does not exist in Berlin on 2025-03-30: it is read as 03:30 CEST.
        let wall = day("2025-03-30").midnightUTC + 2.5 * 3600
        #expect(berlin.instant(forWallClock: wall) == instant("2025-03-30T01:30:00Z"))
    }

    @Test func repeatedWallClockTakesTheFirst() {
        // 02:30 happens twice in Berlin on 2025-10-26: the first is CEST.
        let wall = day("2025-10-26").midnightUTC + 2.5 * 3600
        #expect(berlin.instant(forWallClock: wall) == instant("2025-10-26T00:30:00Z"))
    }

    @Test func civilDateRoundTrips() {
        for n in stride(from: -800_000, through: 800_000, by: 997) {
            let date = CivilDate(daysSinceEpoch: n)
            #expect(date.daysSinceEpoch == n)
        }
        #expect(CivilDate(daysSinceEpoch: 0) == day("1970-01-01"))
        #expect(day("2000-02-29").weekday == 3)  // a Tuesday
        #expect(day("2025-03-01").dayKey == 20250301)
    }

    @Test func isoTimesCarryTheDisplayOffset() {
        let iso = ISOTime(clock: berlin)
        #expect(iso.string(.instant(instant("2025-03-01T08:00:00Z"))) == "2025-03-01T09:00:00+01:00")
        #expect(iso.string(.instant(instant("2025-07-01T08:00:00Z"))) == "2025-07-01T10:00:00+02:00")
        #expect(iso.string(.date(year: 2025, month: 3, day: 1)) == "2025-03-01")
        #expect(ISOTime(clock: newYork).string(.floating(year: 2025, month: 3, day: 1, hour: 8, minute: 5, second: 9))
            == "2025-03-01T08:05:09-05:00")
    }
}

@Suite struct LocaleChoiceTests {
    @Test func orderIsExplicitThenLCAllThenLCTimeThenLang() {
        #expect(LocaleChoice.identifier(explicit: "de-DE", environment: ["LANG": "fr_FR.UTF-8"]) == "de_DE")
        #expect(LocaleChoice.identifier(explicit: nil, environment: ["LC_ALL": "ja_JP.UTF-8",
            "LANG": "fr_FR"]) == "ja_JP")
        #expect(LocaleChoice.identifier(explicit: nil, environment: ["LC_TIME": "de_DE@euro",
            "LANG": "fr_FR"]) == "de_DE")
        #expect(LocaleChoice.identifier(explicit: nil, environment: ["LANG": "fr_FR.UTF-8"]) == "fr_FR")
        #expect(LocaleChoice.identifier(explicit: nil, environment: [:]) == "en_US")
        #expect(LocaleChoice.identifier(explicit: nil, environment: ["LANG": "C.UTF-8"]) == "en_US")
    }

    @Test(arguments: [
        ("en_US", "Saturday, March 1, 2025"), ("de_DE", "Samstag, 1. März 2025"), ("ja_JP", "2025年3月1日"),
    ])
    func headersUseTheLocalesLongDateStyle(_ id: String, _ expected: String) {
        let header = LocaleFormats(localeIdentifier: id, clock: berlin).dayHeader(day("2025-03-01"))
        #expect(header.hasPrefix(expected))
    }
}
