import AgendaCore
import Foundation
import Testing

private func slots(
    _ occurrences: [Occurrence], from first: String = "2025-03-03", days: Int = 1, clock: ZoneClock = berlin,
    hours: String = "09:00-17:00", weekdays: String = "mon-fri", minimum: Int = 1800
) throws -> [String] {
    let free = FreeTime(
        occurrences: [occurrences], selection: Selection(), window: .days(days, from: day(first), clock: clock),
        hours: try FreeTime.Hours(parsing: hours), weekdays: try FreeTime.Weekdays(parsing: weekdays), minimum: minimum)
    let iso = ISOTime(clock: clock)
    return free.slots.map { "\(iso.string(instant: $0.start)) \(iso.string(instant: $0.end)) \($0.minutes)" }
}

private func busy(_ start: AgendaTime, _ end: AgendaTime, _ transparency: Event.Transparency = .unspecified,
    status: String? = nil) -> Occurrence {
    let e = Event(uid: "x", title: "x", location: nil, description: nil, status: status, calendar: work,
        transparency: transparency)
    return Occurrence(item: .event(e), start: start, end: end, recurrenceID: nil)
}

@Suite struct FreeTimeTests {
    @Test func busyTimeOfEveryCalendarIsTakenOut() throws {
        let found = try slots([
            busy(at("2025-03-03T08:00:00Z"), at("2025-03-03T09:30:00Z")),  // 09:00-10:30 Berlin
            busy(at("2025-03-03T09:00:00Z"), at("2025-03-03T10:00:00Z")),  // overlaps it: 10:00-11:00
            busy(at("2025-03-03T10:00:00Z"), at("2025-03-03T10:15:00Z")),  // touches it
            busy(at("2025-03-03T12:00:00Z"), at("2025-03-03T15:00:00Z"), .transparent),  // free
            busy(at("2025-03-03T13:00:00Z"), at("2025-03-03T14:00:00Z"), status: "CANCELLED"),  // free
            busy(at("2025-03-03T15:40:00Z"), at("2025-03-03T16:00:00Z")),  // leaves 20 min at the end: too short
        ])
        #expect(found == ["2025-03-03T11:15:00+01:00 2025-03-03T16:40:00+01:00 325"])
    }

    @Test func allDayOccurrencesAreBusyOnlyWhenOpaque() throws {
        let monday = AgendaTime.date(year: 2025, month: 3, day: 3),
            tuesday = AgendaTime.date(year: 2025, month: 3, day: 4)
        #expect(try slots([busy(monday, tuesday)]).count == 1)
        #expect(try slots([busy(monday, tuesday, .opaque)]).isEmpty)
    }

    @Test func aDayWhoseHoursDoNotAllExistIsCutToThoseThatDo() throws {
        // Berlin, Sunday 2025-03-30: 02:00 becomes 03:00.
        #expect(try slots([], from: "2025-03-30", hours: "02:30-04:00", weekdays: "sun", minimum: 0)
            == ["2025-03-30T03:00:00+02:00 2025-03-30T04:00:00+02:00 60"])
        #expect(try slots([], from: "2025-03-30", hours: "00:00-06:00", weekdays: "sun", minimum: 0)
            == ["2025-03-30T00:00:00+01:00 2025-03-30T06:00:00+02:00 300"])
        // New York, 2025-11-02: 02:00 comes twice; the hours are an hour longer.
        let newYork = ZoneClock(TimeZone(identifier: "America/New_York")!)
        #expect(try slots([], from: "2025-11-02", clock: newYork, hours: "00:00-06:00", weekdays: "sun")
            == ["2025-11-02T00:00:00-04:00 2025-11-02T06:00:00-05:00 420"])
        // Hours wholly inside the gap do not exist at all.
        #expect(try slots([], from: "2025-03-30", hours: "02:00-03:00", weekdays: "sun", minimum: 0).isEmpty)
    }

    @Test func hoursAndWeekdaysAreReadAsWritten() throws {
        let nineToFive = try FreeTime.Hours(parsing: "9-17"), halfPastEight = try FreeTime.Hours(parsing: "08:30-24:00")
        #expect((nineToFive.start, nineToFive.end) == (540, 1020))
        #expect((halfPastEight.start, halfPastEight.end) == (510, 1440))
        for bad in ["17:00-09:00", "9:00", "25:00-26:00", "09:60-10:00", "a-b", ""] {
            #expect(throws: FreeTime.Hours.Invalid.self) { try FreeTime.Hours(parsing: bad) }
        }
        #expect(try FreeTime.Weekdays(parsing: "mon-fri").days == [2, 3, 4, 5, 6])
        #expect(try FreeTime.Weekdays(parsing: "Mon,wed,FRI").days == [2, 4, 6])
        #expect(try FreeTime.Weekdays(parsing: "sat-sun").days == [7, 1])
        #expect(try FreeTime.Weekdays(parsing: "fri-mon").days == [6, 7, 1, 2])
        #expect(try FreeTime.Weekdays(parsing: "tuesday").days == [3])
        for bad in ["mon-funday", "t", "", "mon,,fri"] {
            #expect(throws: FreeTime.Weekdays.Invalid.self) { try FreeTime.Weekdays(parsing: bad) }
        }
    }

    @Test func durationsAreReadAsWritten() throws {
        #expect(try DurationText.seconds("90m") == 5400)
        #expect(try DurationText.seconds("2h") == 7200)
        #expect(try DurationText.seconds("3d") == 259_200)
        #expect(try DurationText.seconds("1h30m") == 5400)
        #expect(try DurationText.seconds("45min") == 2700)
        for bad in ["soon", "", "5", "m", "1x", "-1h"] {
            #expect(throws: DurationText.Invalid.self) { try DurationText.seconds(bad) }
        }
        #expect(DurationText.words(minutes: 90) == "1 h 30 min")
        #expect(DurationText.words(minutes: 45) == "45 min")
        #expect(DurationText.words(minutes: 120) == "2 h")
    }
}
