import AgendaCore
import Foundation
import ICalAdapter
import Testing

/// Hostile input the reading engine must bound or keep whole (issue 14):
/// VTIMEZONEs that would make libical expand millions of onsets, RRULE
/// numbers libical would wrap around, lists and parameters libical would
/// cut, and files whose warnings would cost the square of their number.
@Suite struct HostileEngineTests {
    func vtimezone(_ tzid: String, daylight rules: [String], daylightStart: String = "16010101T020000",
        extra: [String] = []) -> String {
        (["BEGIN:VTIMEZONE", "TZID:\(tzid)",
          "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "DTSTART:16011028T030000",
              "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
          "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "DTSTART:\(daylightStart)"]
              + rules.map { "RRULE:\($0)" } + extra
            + ["END:DAYLIGHT", "END:VTIMEZONE"]).joined(separator: "\n") + "\n"
    }

    func event(_ uid: String, tzid: String, day: Int = 5, extra: String = "") -> String {
        "BEGIN:VEVENT\nUID:\(uid)\nSUMMARY:\(uid)\nDTSTART;TZID=\(tzid):202503\(String(format: "%02d", day))T093000\n\(extra)END:VEVENT\n"
    }

    // MARK: 1. What a VTIMEZONE may cost

    @Test(arguments: [
        "FREQ=DAILY", "FREQ=DAILY;BYHOUR=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23",
        "FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR,SA,SU", "FREQ=MONTHLY;BYMONTHDAY=1,8,15,22", "FREQ=WEEKLY;BYDAY=SU",
        "FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYDAY=1SU", "FREQ=HOURLY;INTERVAL=5000",
    ])
    func aZoneRuleWithManyOnsetsAYearIsLeftOutAndItsEventsKept(_ rule: String) throws {
        let loaded = try load(vtimezone("Dense/Zone", daylight: [rule]) + event("e", tzid: "Dense/Zone"))
        // The zone keeps its STANDARD rule: +01:00 in March.
        #expect(starts(loaded) == ["2025-03-05T09:30:00+01:00"])
        #expect(loaded.diagnostics.count == 1)
        let warning = try #require(loaded.diagnostics.first).description
        #expect(warning.hasPrefix("test.ics:3: VTIMEZONE: RRULE ")
            && warning.contains("as no time zone does; the rule is ignored"), "\(warning)")
    }

    @Test(arguments: ["FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;UNTIL=20070311T020000Z",
        "FREQ=DAILY;INTERVAL=400"])
    func aRealZoneRuleIsKeptWithoutAWord(_ rule: String) throws {
        let loaded = try load(vtimezone("Real/Zone", daylight: [rule]) + event("e", tzid: "Real/Zone", day: 31))
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.occurrences.count == 1)
    }

    @Test func aZoneWithTensOfThousandsOfRDatesKeepsItsObservancesOnly() throws {
        let rdates = (0..<20_000).map { String(format: "RDATE:%04d%02d01T020000", 1601 + $0 / 12, $0 % 12 + 1) }
        let loaded = try load(vtimezone("Many/RDates", daylight: ["FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"], extra: rdates)
            + event("e", tzid: "Many/RDates"))
        #expect(loaded.occurrences.count == 1)
        #expect(loaded.diagnostics.count == 1)
        #expect(loaded.diagnostics.first?.description.contains("its RRULEs and RDATEs are ignored") == true)
    }

    @Test func manyZonesShareTheFilesBudgetWithOneWarning() throws {
        // 250 zones of two yearly rules from 1601: each about 870 onsets, 217,000 in all.
        let zones = (0..<250).map { vtimezone("Z/\($0)", daylight: ["FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"]) }.joined()
        let events = (0..<250).map { event("e\($0)", tzid: "Z/\($0)") }.joined()
        let loaded = try load(zones + events)
        #expect(loaded.occurrences.count == 250)
        #expect(loaded.diagnostics.count == 1)
        #expect(loaded.diagnostics.first?.description.contains("the file's time zones would make more than 200000 offset changes") == true)
        // One zone repeated before each of 300 events (as some exporters write): one zone's cost.
        let repeated = try load((0..<300).map { vtimezone("Z/same",
            daylight: ["FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"]) + event("e\($0)", tzid: "Z/same") }.joined())
        #expect(repeated.diagnostics.isEmpty)
        #expect(repeated.occurrences.count == 300)
        // Below the budget: no warning.
        let few = try load((0..<100).map { vtimezone("Z/\($0)", daylight: ["FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"]) }
            .joined() + event("e", tzid: "Z/7"))
        #expect(few.diagnostics.isEmpty)
        #expect(starts(few) == ["2025-03-05T09:30:00+01:00"])
    }

    // MARK: 3. RRULE numbers out of range

    @Test(arguments: [
        ("FREQ=WEEKLY;INTERVAL=65537", "INTERVAL=65537"), ("FREQ=DAILY;INTERVAL=0", "INTERVAL=0"),
        ("FREQ=MONTHLY;BYMONTHDAY=4294967297", "BYMONTHDAY=4294967297"),
            ("FREQ=MONTHLY;BYMONTHDAY=-32", "BYMONTHDAY=-32"),
        ("FREQ=MONTHLY;BYDAY=99999999999MO", "BYDAY=99999999999MO"), ("FREQ=YEARLY;BYDAY=54MO", "BYDAY=54MO"),
        ("FREQ=DAILY;BYHOUR=24", "BYHOUR=24"), ("FREQ=HOURLY;BYMINUTE=60", "BYMINUTE=60"),
            ("FREQ=MINUTELY;BYSECOND=61", "BYSECOND=61"),
        ("FREQ=YEARLY;BYMONTH=13", "BYMONTH=13"), ("FREQ=YEARLY;BYYEARDAY=-367", "BYYEARDAY=-367"),
        ("FREQ=YEARLY;BYWEEKNO=4294967297", "BYWEEKNO=4294967297"), ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0", "BYSETPOS=0"),
        ("FREQ=WEEKLY;UNTIL=20251301T000000Z", "UNTIL=20251301T000000Z"),
            ("FREQ=WEEKLY;UNTIL=20250332", "UNTIL=20250332"),
        ("FREQ=DAILY;UNTIL=20250320T250000Z", "UNTIL=20250320T250000Z"),
    ])
    func aNumberOutOfRangeIsNamedAndTheRuleIgnored(_ rule: String, _ part: String) throws {
        let loaded = try load("BEGIN:VEVENT\nUID:r\nSUMMARY:R\nDTSTART:20250303T100000Z\nRRULE:\(rule)\nEND:VEVENT\n")
        #expect(starts(loaded) == ["2025-03-03T11:00:00+01:00"])
        let warning = try #require(loaded.diagnostics.first).description
        #expect(loaded.diagnostics.count == 1)
        #expect(warning.hasPrefix("test.ics:7: RRULE: ") && warning.contains("\(part) is not valid (")
            && warning.contains("the rule is ignored"), "\(warning)")
    }

    @Test(arguments: ["4294967299", "99999999999999999999999"])
    func aCountPast32BitsIsReadAsNoCount(_ count: String) throws {
        let loaded = try load("BEGIN:VEVENT\nUID:r\nSUMMARY:R\nDTSTART:20250303T100000Z\nRRULE:FREQ=DAILY;COUNT=\(count)\nEND:VEVENT\n")
        #expect(loaded.occurrences.count == 29)  // March 3 to 31
        let warning = try #require(loaded.diagnostics.first).description
        #expect(warning.contains("COUNT=") && warning.contains("read as no COUNT"), "\(warning)")
    }

    @Test func numbersInRangeAreReadWithoutAWord() throws {
        let loaded = try load("BEGIN:VEVENT\nUID:r\nSUMMARY:R\nDTSTART:20250303T100000Z\n"
            + "RRULE:FREQ=MONTHLY;BYDAY=-1MO,+1TU;BYHOUR=11,23;BYMINUTE=0,59;BYSECOND=0,59\n"
            + "RRULE:FREQ=YEARLY;BYMONTHDAY=-31,31;COUNT=2147483647\nRRULE:FREQ=DAILY;INTERVAL=32767\n"
            + "RRULE:FREQ=YEARLY;BYYEARDAY=-366,366,1;BYSETPOS=-366,1\nRRULE:FREQ=YEARLY;BYWEEKNO=-53,53;BYDAY=MO\n"
            + "END:VEVENT\n")
        #expect(loaded.diagnostics.isEmpty)
        // RFC 7529: another calendar's 13th month is in range (what libical makes of it is libical's).
        let rscale = try load("BEGIN:VEVENT\nUID:r\nSUMMARY:R\nDTSTART:20250303T100000Z\nRRULE:RSCALE=ETHIOPIC;FREQ=MONTHLY;BYMONTH=13\nEND:VEVENT\n")
        #expect(!rscale.diagnostics.contains { $0.description.contains("is not valid") })
    }

    /// RFC 7529 rules (RSCALE) read again and again: libical copies the
    /// scale's name for each reading and frees it nowhere (found leaking
    /// by the fuzzer under LeakSanitizer, which `make test-asan` runs over
    /// this test). The readings agree, and what libical makes of them is
    /// listed.
    @Test func rulesOfAnotherCalendarScaleAreReadAlike() throws {
        let text = "BEGIN:VEVENT\nUID:h\nSUMMARY:H\nDTSTART;VALUE=DATE:20250303\n"
            + "RRULE:RSCALE=HEBREW;FREQ=YEARLY;BYMONTH=5L;BYMONTHDAY=8;SKIP=FORWARD\nEND:VEVENT\n"
            + "BEGIN:VEVENT\nUID:c\nSUMMARY:C\nDTSTART;VALUE=DATE:20250304\nRRULE:RSCALE=CHINESE;FREQ=YEARLY\nEND:VEVENT\n"
            // A month past the calendar's thirteenth: libical cannot read the rule as written.
            + "BEGIN:VEVENT\nUID:e\nSUMMARY:E\nDTSTART;VALUE=DATE:20250305\nRRULE:RSCALE=ETHIOPIC;FREQ=MONTHLY;BYMONTH=14\nEND:VEVENT\n"
        let first = try load(text)
        #expect(Set(first.occurrences.map(\.uid)) == ["h", "c", "e"])
        for _ in 0..<20 {
            let again = try load(text)
            #expect(again.occurrences.map(\.start) == first.occurrences.map(\.start))
        }
    }

    // MARK: 4. Lists libical would cut

    @Test func longDateListsLoseNothing() throws {
        // A daily series of 2,000 days less every other day (1,000 EXDATEs in one property),
        // and 701 RDATEs in another, over a window of seven years.
        let window = AgendaWindow.days(7 * 366, from: CivilDate(iso: "2025-03-01")!, clock: berlinClock)
        let first = Date(timeIntervalSince1970: 1_740_823_200)  // 2025-03-01T10:00:00Z
        let stamp = { (d: Date) -> String in
            let f = DateFormatter()
            f.timeZone = TimeZone(identifier: "UTC")
            f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            return f.string(from: d)
        }
        let exdates = (0..<1000).map { stamp(first + Double(2 * $0) * 86400) }.joined(separator: ",")
        let rdates = (0..<701).map { stamp(first + Double($0) * 6 * 3600 + 1800) }.joined(separator: ",")
        let loaded = try load("BEGIN:VEVENT\nUID:ex\nSUMMARY:ex\nDTSTART:20250301T100000Z\nRRULE:FREQ=DAILY;COUNT=2000\nEXDATE:\(exdates)\nEND:VEVENT\n"
            + "BEGIN:VEVENT\nUID:rd\nSUMMARY:rd\nDTSTART:20250301T040000Z\nRDATE;VALUE=DATE-TIME:\(rdates)\nEND:VEVENT\n", window: window)
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.occurrences.filter { $0.uid == "ex" }.count == 1000)
        #expect(loaded.occurrences.filter { $0.uid == "rd" }.count == 702)
    }

    @Test(arguments: [0, 50, 101])
    func parametersPastAHundredDoNotReachTheValue(_ tzidAt: Int) throws {
        var params = (0..<101).map { ";X-P\($0)=v\($0)" }
        params.insert(";TZID=America/New_York", at: tzidAt)
        let loaded = try load("BEGIN:VEVENT\nUID:p\nSUMMARY\(params.joined()):Real title\nDTSTART\(params.joined()):20250305T090000\nEND:VEVENT\n")
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.occurrences.first?.title == "Real title")
        #expect(starts(loaded) == ["2025-03-05T15:00:00+01:00"])
    }

    @Test func aRuleOrATimeWithThousandsOfParametersIsReadWhole() throws {
        let params = (0..<5000).map { ";X-P\($0)=v\($0)" }.joined()
        let repeated = String(repeating: ";TZID=America/New_York", count: 5000)
        let loaded = try load("BEGIN:VEVENT\nUID:p\nSUMMARY:p\nDTSTART\(repeated):20250305T090000\nRRULE\(params):FREQ=DAILY;COUNT=2\nEND:VEVENT\n")
        #expect(loaded.diagnostics.isEmpty)
        #expect(starts(loaded) == ["2025-03-05T15:00:00+01:00", "2025-03-06T15:00:00+01:00"])
    }

    @Test(arguments: ["FREQ=SECONDLY", "FREQ=MINUTELY;BYSECOND=0,10,20,30,40,50"])
    func aSubDailySeriesFromTheDayBeforeFillsTheWindow(_ rule: String) throws {
        let day = AgendaWindow.days(1, from: CivilDate(iso: "2025-03-01")!, clock: berlinClock)
        let loaded = try load("BEGIN:VEVENT\nUID:s\nSUMMARY:s\nDTSTART:20250227T230000Z\nRRULE:\(rule)\nEND:VEVENT\n",
            window: day)
        let inWindow = loaded.occurrences.filter { $0.start.map { $0.instant(in: berlinClock) >= day.start } ?? false }
        #expect(inWindow.count == (rule == "FREQ=SECONDLY" ? 86400 : 8640))
        #expect(loaded.diagnostics.isEmpty)
    }

    // MARK: 5. Many warnings, each its own

    @Test func eachBadValueIsNamedOnItsOwnLine() throws {
        let bad = (0..<3000).map { String(format: "EXDATE:2025%02d%02dT100000Z", $0 % 12 + 1, 32 + $0 % 60) }
        let loaded = try load("BEGIN:VEVENT\nUID:q\nSUMMARY:q\nDTSTART:20250303T100000Z\n" + bad.joined(separator: "\n")
            + "\nEND:VEVENT\n")
        #expect(loaded.occurrences.count == 1)
        #expect(loaded.diagnostics.count == 3000)
        for (i, d) in loaded.diagnostics.enumerated() {
            #expect(d.line == 7 + i)
            #expect(d.description.contains("\"\(bad[i].dropFirst(7))\""), "\(d)")
        }
    }

    @Test func thousandsOfBadRulesAreWarnedEachAtItsLineUpToALimit() throws {
        let rules = (0..<1500).map { "RRULE:FREQ=DAILY;BYDAY=MO,X\($0)" }
        let loaded = try load("BEGIN:VEVENT\nUID:q\nSUMMARY:q\nDTSTART:20250303T100000Z\n"
            + rules.joined(separator: "\n") + "\nEND:VEVENT\n")
        #expect(loaded.occurrences.count == 1)
        #expect(loaded.diagnostics.count == 1001)
        let lines = loaded.diagnostics.map(\.line)
        #expect(Set(lines).count == 1001)
        #expect(loaded.diagnostics[999].description.contains("BYDAY=MO,X999 is not valid"))
        #expect(loaded.diagnostics.contains { $0.description.contains("more than 1000 rules in one component")
            && $0.line == 7 + 1000 })
    }
}

/// The lower-stakes engine classes of issue 14.
@Suite struct EngineEdgeTests {
    @Test(arguments: [
        ("SUMMARY:6", "SUMMARY:First\nSUMMARY:Second\nDTSTART:20250303T100000Z\n", "2025-03-03T11:00:00+01:00"),
        ("DTSTART:7", "SUMMARY:First\nDTSTART:20250304T100000Z\nDTSTART:20250305T100000Z\n",
            "2025-03-04T11:00:00+01:00"),
        ("UID:6", "SUMMARY:First\nUID:other\nDTSTART:20250306T100000Z\n", "2025-03-06T11:00:00+01:00"),
    ])
    func aPropertyGivenTwiceWarnsAndTheFirstIsRead(_ propertyAndLine: String, _ body: String, _ start: String) throws {
        let property = propertyAndLine.split(separator: ":")[0], line = propertyAndLine.split(separator: ":")[1]
        let loaded = try load("BEGIN:VEVENT\nUID:r\n" + body + "END:VEVENT\n")
        #expect(starts(loaded) == [start])
        #expect(loaded.occurrences.first?.title == "First")
        #expect(loaded.occurrences.first?.uid == "r")
        #expect(loaded.diagnostics.count == 1)
        let warning = try #require(loaded.diagnostics.first).description
        #expect(warning.hasPrefix("test.ics:\(line): \(property): given 2 times")
            && warning.contains("the first is read"), "\(warning)")
    }

    @Test func anInstanceOnAWholeMissingDayIsLeftOutAndNotCounted() throws {
        let apia = ZoneClock(TimeZone(identifier: "Pacific/Apia")!)
        let window = AgendaWindow.days(10, from: CivilDate(iso: "2011-12-26")!, clock: apia)
        let loaded = try load("BEGIN:VEVENT\nUID:a\nSUMMARY:a\nDTSTART;TZID=Pacific/Apia:20111227T090000\nRRULE:FREQ=DAILY;COUNT=7\nEND:VEVENT\n",
            window: window)
        let iso = ISOTime(clock: apia)
        // December 30 did not happen in Apia: an instance a rule makes at a
        // time the clocks skip is left out and not counted (RFC 5545 3.3.10),
        // so COUNT=7 runs on to January 3.
        #expect(loaded.occurrences.compactMap { $0.start.map(iso.string) }.sorted() == [
            "2011-12-27T09:00:00-10:00", "2011-12-28T09:00:00-10:00", "2011-12-29T09:00:00-10:00",
            "2011-12-31T09:00:00+14:00", "2012-01-01T09:00:00+14:00", "2012-01-02T09:00:00+14:00",
                "2012-01-03T09:00:00+14:00",
        ])
    }

    @Test func anInstanceInAnHourGapIsLeftOut() throws {
        // 02:30 on March 30 does not exist in Berlin (3.3.10); the third
        // instance, April 1, is after the window.
        let loaded = try load("BEGIN:VEVENT\nUID:g\nSUMMARY:g\nDTSTART;TZID=Europe/Berlin:20250329T023000\nRRULE:FREQ=DAILY;COUNT=3\nEND:VEVENT\n")
        #expect(starts(loaded) == ["2025-03-29T02:30:00+01:00", "2025-03-31T02:30:00+02:00"])
    }

    func vcalendar(_ offset: String?, _ uid: String, day: Int, tzid: String = "Office") -> String {
        let zone = offset.map {
            "BEGIN:VTIMEZONE\nTZID:Office\nBEGIN:STANDARD\nTZOFFSETFROM:\($0)\nTZOFFSETTO:\($0)\nDTSTART:19700101T000000\nEND:STANDARD\nEND:VTIMEZONE\n"
        } ?? ""
        return "BEGIN:VCALENDAR\nVERSION:2.0\n" + zone
            + "BEGIN:VEVENT\nUID:\(uid)\nSUMMARY:\(uid)\nDTSTART;TZID=\(tzid):202503\(String(format: "%02d", day))T090000\nEND:VEVENT\nEND:VCALENDAR\n"
    }

    func loadRaw(_ text: String) throws -> LoadedCalendar {
        try CalendarLoader(window: march).load(Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8),
            path: "test.ics", defaultName: "test", source: ".")
    }

    @Test func eachConcatenatedCalendarKeepsItsOwnZones() throws {
        let loaded = try loadRaw(vcalendar("+0100", "a", day: 4) + vcalendar("+0500", "b", day: 5)
            + vcalendar("-0300", "c", day: 6))
        #expect(starts(loaded) == ["2025-03-04T09:00:00+01:00", "2025-03-05T05:00:00+01:00",
            "2025-03-06T13:00:00+01:00"])
        #expect(loaded.diagnostics.isEmpty)
    }

    @Test func aCalendarWithoutTheZoneUsesTheFilesDefinition() throws {
        // The second calendar names Office without defining it: the file's (the first calendar's) holds.
        let loaded = try loadRaw(vcalendar("+0500", "a", day: 4) + vcalendar(nil, "b", day: 5))
        #expect(starts(loaded) == ["2025-03-04T05:00:00+01:00", "2025-03-05T05:00:00+01:00"])
    }

    @Test func aZoneDefinedTwiceInOneCalendarTakesTheLater() throws {
        let zones = ["+0100", "+0500"].map {
            "BEGIN:VTIMEZONE\nTZID:Office\nBEGIN:STANDARD\nTZOFFSETFROM:\($0)\nTZOFFSETTO:\($0)\nDTSTART:19700101T000000\nEND:STANDARD\nEND:VTIMEZONE\n"
        }.joined()
        let loaded = try load(zones
            + "BEGIN:VEVENT\nUID:a\nSUMMARY:a\nDTSTART;TZID=Office:20250304T090000\nEND:VEVENT\n")
        #expect(starts(loaded) == ["2025-03-04T05:00:00+01:00"])
    }
}
