import AgendaCore
import Foundation
import Testing

@testable import ICalAdapter

/// Rule shapes libical 3.0 expands wrongly without a word (`RuleCorrection`):
/// each expected list is RFC 5545 3.3.10's answer, worked out by hand (and,
/// where it reads the rule, the reference oracle's too). Floating times, read
/// in Berlin. DTSTART is listed whether or not the rule gives it; COUNT
/// counts what the rule gives, as libical counts it.
@Suite struct RuleCorrectionTests {
    /// The starts of one event with `rule` from `dtstart`, over `from` ... `to`.
    func starts(_ rule: String, _ dtstart: String, from: String = "2019-01-01",
        to: String = "2031-12-31") throws -> [String] {
        let window = AgendaWindow.through(CivilDate(iso: to)!, from: CivilDate(iso: from)!, clock: berlinClock)
        let value = dtstart.count == 8 ? ";VALUE=DATE:\(dtstart)" : ":\(dtstart)"
        let loaded = try load("BEGIN:VEVENT\nUID:r\nDTSTART\(value)\nRRULE:\(rule)\nEND:VEVENT\n", window: window)
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let iso = ISOTime(clock: berlinClock)
        return loaded.occurrences.compactMap { $0.start.map(iso.string) }.map { String($0.prefix(16)) }.sorted()
    }

    // MARK: BYSETPOS below MONTHLY, and with times under MONTHLY and YEARLY

    @Test func dailyLastTimeOfEachDay() throws {
        #expect(try starts("FREQ=DAILY;BYHOUR=9,17;BYSETPOS=-1;COUNT=3", "20250301T090000")
            == ["2025-03-01T09:00", "2025-03-01T17:00", "2025-03-02T17:00", "2025-03-03T17:00"])
    }

    @Test func dailyFirstTimeCountsFromTheDaysStartNotFromDTSTART() throws {
        // The set of 03-01 is 08:00, 12:00, 20:00: its first is before DTSTART, so none that day.
        #expect(try starts("FREQ=DAILY;BYHOUR=8,12,20;BYSETPOS=1;COUNT=3", "20250301T090000")
            == ["2025-03-01T09:00", "2025-03-02T08:00", "2025-03-03T08:00", "2025-03-04T08:00"])
    }

    @Test func dailyMinutesAndSecondsWithTwoPositions() throws {
        #expect(try starts("FREQ=DAILY;BYHOUR=10;BYMINUTE=0,15,30,45;BYSETPOS=2,-1;UNTIL=20250302T235959",
            "20250301T100000")
            == ["2025-03-01T10:00", "2025-03-01T10:15", "2025-03-01T10:45", "2025-03-02T10:15", "2025-03-02T10:45"])
    }

    @Test func weeklyLastWorkdayOfTheWeek() throws {
        #expect(try starts("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=3", "20250303T090000")
            == ["2025-03-03T09:00", "2025-03-07T09:00", "2025-03-14T09:00", "2025-03-21T09:00"])
    }

    @Test func weeklyEveryOtherWeekSecondDayWithSundayWeeks() throws {
        // Weeks from Sunday (WKST=SU): the set of 03-02's week is SU, TU, TH; its second is Tuesday.
        #expect(try starts("FREQ=WEEKLY;INTERVAL=2;WKST=SU;BYDAY=SU,TU,TH;BYSETPOS=2;COUNT=3", "20250302T090000")
            == ["2025-03-02T09:00", "2025-03-04T09:00", "2025-03-18T09:00", "2025-04-01T09:00"])
    }

    @Test func monthlyLastTimeOfTheLastDay() throws {
        #expect(try starts("FREQ=MONTHLY;BYDAY=MO,TU;BYHOUR=9,17;BYSETPOS=-1;COUNT=3", "20250301T090000")
            == ["2025-03-01T09:00", "2025-03-31T17:00", "2025-04-29T17:00", "2025-05-27T17:00"])
    }

    @Test func yearlyFirstTimeOfTheYear() throws {
        #expect(try starts("FREQ=YEARLY;BYMONTH=1;BYMONTHDAY=1,2;BYHOUR=8,18;BYSETPOS=1;COUNT=2", "20250101T080000")
            == ["2025-01-01T08:00", "2026-01-01T08:00"])
    }

    @Test func hourlyLastQuarterOfEachHour() throws {
        #expect(try starts("FREQ=HOURLY;BYMINUTE=0,15,30,45;BYSETPOS=-1;COUNT=3", "20250301T100000", from: "2025-03-01",
            to: "2025-03-02")
            == ["2025-03-01T10:00", "2025-03-01T10:45", "2025-03-01T11:45", "2025-03-01T12:45"])
    }

    // MARK: BYWEEKNO with BYDAY

    /// RFC 5545 3.8.5.3's own example: Monday of week 20.
    @Test func mondayOfWeek20() throws {
        #expect(try starts("FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", "19970512T090000", from: "1997-01-01", to: "1999-12-31")
            == ["1997-05-12T09:00", "1998-05-11T09:00", "1999-05-17T09:00"])
    }

    @Test func mondayOfWeek1StartsInDecemberSometimes() throws {
        #expect(try starts("FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO;COUNT=5", "20250106T090000")
            == ["2025-01-06T09:00", "2025-12-29T09:00", "2027-01-04T09:00", "2028-01-03T09:00", "2029-01-01T09:00",
                "2029-12-31T09:00"])
    }

    @Test func sundayOfTheLastWeekEveryYear() throws {
        #expect(try starts("FREQ=YEARLY;BYWEEKNO=-1;BYDAY=SU;COUNT=5", "20231231")
            == ["2023-12-31", "2024-12-29", "2025-12-28", "2027-01-03", "2028-01-02"])
    }

    @Test func week53OnlyInYearsThatHaveIt() throws {
        // ISO years with 53 weeks: 2020, 2026, 2032.
        #expect(try starts("FREQ=YEARLY;BYWEEKNO=53;BYDAY=TH;COUNT=2", "20200101T090000", to: "2033-12-31")
            == ["2020-01-01T09:00", "2020-12-31T09:00", "2026-12-31T09:00"])
    }

    @Test func weekNumbersFollowWKST() throws {
        // Weeks from Sunday: week 1 of 2025 is 2024-12-29 ... 2025-01-04 (four
        // days in 2025); of 2026, 2026-01-04 ... 01-10 (12-28 ... 01-03 has only three).
        #expect(try starts("FREQ=YEARLY;WKST=SU;BYWEEKNO=1;BYDAY=SU,SA;COUNT=4", "20241229T090000")
            == ["2024-12-29T09:00", "2025-01-04T09:00", "2026-01-04T09:00", "2026-01-10T09:00"])
    }

    // MARK: YEARLY with BYMONTH and BYYEARDAY

    @Test func yearDaysInTheMonthsNamed() throws {
        // Day 60 is 03-01 in a common year and 02-29 in a leap year (2028: only 61 and 62 are in March).
        #expect(try starts("FREQ=YEARLY;BYMONTH=3;BYYEARDAY=60,61,62,200", "20270301T090000", to: "2028-12-31")
            == ["2027-03-01T09:00", "2027-03-02T09:00", "2027-03-03T09:00", "2028-03-01T09:00", "2028-03-02T09:00"])
    }

    @Test func negativeYearDaysInDecember() throws {
        #expect(try starts("FREQ=YEARLY;BYMONTH=12;BYYEARDAY=-1,-2,100;COUNT=4", "20251230T090000")
            == ["2025-12-30T09:00", "2025-12-31T09:00", "2026-12-30T09:00", "2026-12-31T09:00"])
    }

    // MARK: INTERVAL with a part that limits the frequency: no times between intervals

    @Test(arguments: [
        ("FREQ=HOURLY;INTERVAL=2;BYHOUR=1", "20250301T000000"),
        ("FREQ=HOURLY;INTERVAL=24;BYHOUR=9", "20250301T000000"),
        ("FREQ=MINUTELY;INTERVAL=60;BYMINUTE=30", "20250301T000000"),
    ])
    func aRuleWhoseIntervalsNeverMeetItsLimitListsDTSTARTOnly(_ rule: String, _ dtstart: String) throws {
        let listed = try starts(rule, dtstart, from: "2025-03-01", to: "2025-03-31")
        #expect(listed.count == 1, "\(rule): \(listed.prefix(5))")
    }

    @Test func minutelyEverySevenMinutesInOneHourOnly() throws {
        // From 08:55 every 7 minutes: 09:02 ... 09:58 are the 9 o'clock ones
        // of the first day; the next day's start at 09:04 (1,440 minutes is
        // 205 times 7, and 5 more).
        let listed = try starts("FREQ=MINUTELY;INTERVAL=7;BYHOUR=9;COUNT=10", "20250301T085500", from: "2025-03-01",
            to: "2025-03-03")
        #expect(listed == ["2025-03-01T08:55", "2025-03-01T09:02", "2025-03-01T09:09", "2025-03-01T09:16",
            "2025-03-01T09:23",
            "2025-03-01T09:30", "2025-03-01T09:37", "2025-03-01T09:44", "2025-03-01T09:51", "2025-03-01T09:58",
                "2025-03-02T09:04"])
    }

    @Test func hourlyEveryThreeHoursAtTheHoursThatFit() throws {
        // From 00:00 every 3 hours: 00, 03, 06, ...; of BYHOUR=3,4,9 only 3 and 9 are on them.
        #expect(try starts("FREQ=HOURLY;INTERVAL=3;BYHOUR=3,4,9;COUNT=4", "20250301T000000", from: "2025-03-01",
            to: "2025-03-03")
            == ["2025-03-01T00:00", "2025-03-01T03:00", "2025-03-01T09:00", "2025-03-02T03:00", "2025-03-02T09:00"])
    }

    @Test func dailyEveryOtherDayOnWeekdaysOnly() throws {
        #expect(try starts("FREQ=DAILY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR;COUNT=4", "20250303T090000", from: "2025-03-01",
            to: "2025-03-31")
            == ["2025-03-03T09:00", "2025-03-05T09:00", "2025-03-07T09:00", "2025-03-11T09:00"])
    }

    // MARK: the week arithmetic

    @Test func isoWeeks() {
        let rule = RuleCorrection.of(RecurrenceRule(reading: "FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO"),
            from: TimeValue(reading: "20250106"))!
        func week(_ y: Int, _ m: Int, _ d: Int) -> String {
            let w = rule.week(of: CivilDate(year: y, month: m, day: d).daysSinceEpoch)
            return "\(w.year)-W\(w.number)"
        }
        #expect(week(2020, 12, 31) == "2020-W53")
        #expect(week(2021, 1, 3) == "2020-W53")
        #expect(week(2021, 1, 4) == "2021-W1")
        #expect(week(2024, 12, 30) == "2025-W1")
        #expect(week(2026, 12, 31) == "2026-W53")
        #expect(CivilDate(daysSinceEpoch: CivilDate(year: 1600, month: 2, day: 29)
            .daysSinceEpoch) == CivilDate(year: 1600, month: 2, day: 29))
        #expect(CivilDate(year: 1970, month: 1, day: 1).daysSinceEpoch == 0)
        #expect(CivilDate(year: 1969, month: 12, day: 31).daysSinceEpoch == -1)
    }

    /// Shapes libical expands right are left to it.
    @Test(arguments: ["FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE",
        "FREQ=DAILY;BYHOUR=9,17", "FREQ=YEARLY;BYYEARDAY=100"])
    func rulesLibicalExpandsRightAreNotCorrected(_ rule: String) {
        #expect(RuleCorrection.of(RecurrenceRule(reading: rule), from: TimeValue(reading: "20250303T090000")) == nil)
    }

    /// libical skips the first listed hour (minute, second) after a DTSTART
    /// whose own is not listed; it is listed.
    @Test(arguments: [
        ("FREQ=HOURLY;BYHOUR=3,4,9;COUNT=3", "20250301T010000",
            ["2025-03-01T01:00", "2025-03-01T03:00", "2025-03-01T04:00", "2025-03-01T09:00"]),
        ("FREQ=MINUTELY;BYMINUTE=14,20;COUNT=2", "20250301T000500",
            ["2025-03-01T00:05", "2025-03-01T00:14", "2025-03-01T00:20"]),
        ("FREQ=HOURLY;BYHOUR=3,4,9;COUNT=2", "20250301T030000", ["2025-03-01T03:00", "2025-03-01T04:00"]),
    ])
    func theFirstListedTimeAfterAnUnlistedDTSTARTIsListed(_ rule: String, _ dtstart: String,
        _ expected: [String]) throws {
        #expect(try starts(rule, dtstart, from: "2025-03-01", to: "2025-03-02") == expected)
    }
}
