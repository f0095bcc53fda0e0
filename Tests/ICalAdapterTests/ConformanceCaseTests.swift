import AgendaCore
import Foundation
import ICalAdapter
import Testing

/// The subtle cases of docs/CONFORMANCE.md ("Where we are wrong"), one test
/// per reading, with the RFC 5545 section that decides it.
@Suite struct ConformanceCaseTests {
    let iso = ISOTime(clock: berlinClock)

    /// Start → end of every occurrence, as ISO text in Berlin, sorted.
    func spans(_ loaded: LoadedCalendar) -> [String] {
        loaded.occurrences.map { "\($0.start.map(iso.string) ?? "-") → \(($0.end ?? $0.due).map(iso.string) ?? "-")" }
            .sorted()
    }

    // MARK: W2: floating beside zoned

    @Test func floatingEndBesideZonedStartIsReadInTheStartsZone() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:w2a
            DTSTART;TZID=America/New_York:20250303T090000
            DTEND:20250303T100000
            END:VEVENT

            """)
        #expect(spans(loaded) == ["2025-03-03T15:00:00+01:00 → 2025-03-03T16:00:00+01:00"])
    }

    @Test func floatingStartBesideZonedEndIsReadInTheEndsZone() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:w2b
            DTSTART:20250304T180000
            DTEND;TZID=America/New_York:20250304T190000
            END:VEVENT

            """)
        #expect(spans(loaded) == ["2025-03-05T00:00:00+01:00 → 2025-03-05T01:00:00+01:00"])
        #expect(loaded.occurrences.first?.start?.kind == .instant)
    }

    @Test func floatingDueBesideUTCStart() throws {
        let loaded = try load("""
            BEGIN:VTODO
            UID:w2c
            DTSTART:20250305T080000Z
            DUE:20250305T100000
            END:VTODO

            """)
        #expect(loaded.occurrences.first?.due.map(iso.string) == "2025-03-05T11:00:00+01:00")
    }

    @Test func floatingExdateAndRecurrenceIDMatchAZonedSeries() throws {
        // The override comes first: matching must not depend on the order of the file.
        let loaded = try load("""
            BEGIN:VEVENT
            UID:w2d
            SUMMARY:Moved
            RECURRENCE-ID:20250312T110000
            DTSTART;TZID=Europe/Berlin:20250312T140000
            END:VEVENT
            BEGIN:VEVENT
            UID:w2d
            DTSTART;TZID=Europe/Berlin:20250310T110000
            RRULE:FREQ=DAILY;COUNT=3
            EXDATE:20250311T110000
            END:VEVENT

            """)
        #expect(starts(loaded) == ["2025-03-10T11:00:00+01:00", "2025-03-12T14:00:00+01:00"])
    }

    @Test func zonedExdateAndRecurrenceIDMatchAFloatingSeriesByTheirWallClock() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:w2e
            DTSTART:20250310T110000
            RRULE:FREQ=DAILY;COUNT=3
            EXDATE:20250311T110000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:w2e
            SUMMARY:Moved
            RECURRENCE-ID;TZID=America/New_York:20250312T110000
            DTSTART:20250312T150000
            END:VEVENT

            """)
        #expect(starts(loaded) == ["2025-03-10T11:00:00+01:00", "2025-03-12T15:00:00+01:00"])
    }

    // MARK: W4: Outlook's date-time RECURRENCE-ID and EXDATE on an all-day series

    @Test func dateTimeRecurrenceIDAndExdateNameTheirLocalDateInAnAllDaySeries() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:w4
            SUMMARY:Moved
            RECURRENCE-ID;TZID=America/New_York:20250318T000000
            DTSTART;VALUE=DATE:20250319
            END:VEVENT
            BEGIN:VEVENT
            UID:w4
            DTSTART;VALUE=DATE:20250304
            RRULE:FREQ=WEEKLY;COUNT=4
            EXDATE;TZID=Europe/Berlin:20250311T000000
            END:VEVENT

            """)
        #expect(starts(loaded) == ["2025-03-04", "2025-03-19", "2025-03-25"])
        #expect(loaded.occurrences.first { $0.title == "Moved" }?.recurrenceID?.kind == .instant)
    }

    // MARK: W6: local times in a change of offset (RFC 5545 3.3.5)

    static let utc = ISOTime(clock: ZoneClock(TimeZone(identifier: "UTC")!))
    static let centralEuropean = """
        BEGIN:VTIMEZONE
        TZID:Central European
        BEGIN:STANDARD
        DTSTART:16010101T030000
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:16010101T020000
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
        END:DAYLIGHT
        END:VTIMEZONE

        """

    /// The UTC start of one event at `local` in `tzid`.
    func utcStart(_ tzid: String, _ local: String, vtimezone: String = "") throws -> String? {
        let year = AgendaWindow.days(366, from: CivilDate(iso: "2025-01-01")!, clock: berlinClock)
        let loaded = try load(vtimezone + "BEGIN:VEVENT\nUID:w6\nDTSTART;TZID=\(tzid):\(local)\nEND:VEVENT\n",
            window: year)
        return loaded.occurrences.first?.start.map(ConformanceCaseTests.utc.string)
    }

    @Test(arguments: [
        // Berlin, autumn: 02:30 happens twice; the first is still summer time.
        ("Europe/Berlin", "20251026T023000", "2025-10-26T00:30:00+00:00"),
        // Berlin, spring: 02:30 does not happen; the offset before the gap moves it to 03:30.
        ("Europe/Berlin", "20250330T023000", "2025-03-30T01:30:00+00:00"),
        ("Europe/Berlin", "20250330T013000", "2025-03-30T00:30:00+00:00"),
        ("Europe/Berlin", "20251026T033000", "2025-10-26T02:30:00+00:00"),
        // Auckland, the other hemisphere: overlap in April, gap in September.
        ("Pacific/Auckland", "20250406T023000", "2025-04-05T13:30:00+00:00"),
        ("Pacific/Auckland", "20250928T023000", "2025-09-27T14:30:00+00:00"),
    ])
    func builtinZoneResolvesOverlapToTheFirstAndGapForward(_ tzid: String, _ local: String, _ expected: String) throws {
        #expect(try utcStart(tzid, local) == expected)
    }

    @Test(arguments: [
        // Auckland's gap is 02:00-03:00 on September 30, 2007 (13:59:59Z to 14:00Z).
        ("20070930T023000", "2007-09-29T14:30:00+00:00"),
        ("20070930T013000", "2007-09-29T13:30:00+00:00"),
        // The overlap, 02:00-03:00 on April 6, 2025: the first is still daylight time (+13).
        ("20250406T023000", "2025-04-05T13:30:00+00:00"),
    ])
    func floatingTimesInTheDisplayZoneResolveTheSameWay(_ local: String, _ expected: String) throws {
        let auckland = ZoneClock(TimeZone(identifier: "Pacific/Auckland")!)
        let day = CivilDate(year: Int(local.prefix(4))!, month: Int(local.dropFirst(4).prefix(2))!,
            day: Int(local.dropFirst(6).prefix(2))!)
        let window = AgendaWindow.days(2, from: day.adding(days: -1), clock: auckland)
        let loaded = try load("BEGIN:VEVENT\nUID:w6f\nDTSTART:\(local)\nEND:VEVENT\n", window: window)
        let start = try #require(loaded.occurrences.first?.start)
        #expect(ConformanceCaseTests.utc.string(AgendaTime.instant(start.instant(in: auckland))) == expected)
    }

    @Test(arguments: [
        ("20251026T023000", "2025-10-26T00:30:00+00:00"),
        ("20250330T023000", "2025-03-30T01:30:00+00:00"),
        ("20250701T120000", "2025-07-01T10:00:00+00:00"),
    ])
    func vtimezoneFromTheFileResolvesTheSameWay(_ local: String, _ expected: String) throws {
        #expect(try utcStart("Central European", local, vtimezone: ConformanceCaseTests.centralEuropean) == expected)
    }

    // MARK: W7: RECURRENCE-ID;RANGE=THISANDFUTURE (RFC 5545 3.2.13, 3.8.4.4)

    @Test func thisAndFutureMovesEveryLaterInstanceAndTheLatestOverrideWins() throws {
        // Overrides before their master, and a later THISANDFUTURE taking over from an earlier one.
        let loaded = try load("""
            BEGIN:VEVENT
            UID:w7
            SUMMARY:Afternoon
            RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20250305T100000
            DTSTART;TZID=Europe/Berlin:20250305T150000
            DTEND;TZID=Europe/Berlin:20250305T153000
            END:VEVENT
            BEGIN:VEVENT
            UID:w7
            SUMMARY:Next morning
            RECURRENCE-ID;RANGE=THISANDFUTURE:20250308T090000Z
            DTSTART;TZID=Europe/Berlin:20250309T080000
            DTEND;TZID=Europe/Berlin:20250309T090000
            END:VEVENT
            BEGIN:VEVENT
            UID:w7
            SUMMARY:Daily
            DTSTART;TZID=Europe/Berlin:20250303T100000
            DTEND;TZID=Europe/Berlin:20250303T110000
            RRULE:FREQ=DAILY;COUNT=7
            END:VEVENT

            """)
        #expect(spans(loaded) == [
            "2025-03-03T10:00:00+01:00 → 2025-03-03T11:00:00+01:00",
            "2025-03-04T10:00:00+01:00 → 2025-03-04T11:00:00+01:00",
            "2025-03-05T15:00:00+01:00 → 2025-03-05T15:30:00+01:00",
            "2025-03-06T15:00:00+01:00 → 2025-03-06T15:30:00+01:00",
            "2025-03-07T15:00:00+01:00 → 2025-03-07T15:30:00+01:00",
            "2025-03-09T08:00:00+01:00 → 2025-03-09T09:00:00+01:00",
            "2025-03-10T08:00:00+01:00 → 2025-03-10T09:00:00+01:00",
        ])
        let titles = Dictionary(grouping: loaded.occurrences, by: \.title).mapValues(\.count)
        #expect(titles == ["Daily": 2, "Afternoon": 3, "Next morning": 2])
        // Each moved instance keeps its own original start as its RECURRENCE-ID.
        #expect(loaded.occurrences.compactMap { $0.recurrenceID.map(iso.string) }.sorted()
            .last == "2025-03-09T10:00:00+01:00")
    }

    @Test func thisAndFutureOnAnAllDaySeries() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:w7d
            DTSTART;VALUE=DATE:20250303
            RRULE:FREQ=WEEKLY;COUNT=3
            END:VEVENT
            BEGIN:VEVENT
            UID:w7d
            RECURRENCE-ID;RANGE=THISANDFUTURE;VALUE=DATE:20250310
            DTSTART;VALUE=DATE:20250311
            DTEND;VALUE=DATE:20250313
            END:VEVENT

            """)
        #expect(spans(loaded) == ["2025-03-03 → 2025-03-04", "2025-03-11 → 2025-03-13", "2025-03-18 → 2025-03-20"])
    }

    // MARK: P1: a VTIMEZONE with an IANA TZID, read where its onsets reach

    /// Rules bounded by COUNT, UNTIL or a last RDATE define their TZID from
    /// the first onset to the last; before and after, the IANA zone of the
    /// name is read (these made-up offsets show which one was used).
    @Test func boundedDefinitionsGiveWayToIANAOutsideTheirOnsets() throws {
        let zones = """
            BEGIN:VTIMEZONE
            TZID:America/New_York
            BEGIN:STANDARD
            DTSTART:20240101T000000
            RRULE:FREQ=MONTHLY;COUNT=3
            TZOFFSETFROM:-0500
            TZOFFSETTO:-0300
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VTIMEZONE
            TZID:America/Chicago
            BEGIN:DAYLIGHT
            DTSTART:20240101T000000
            RRULE:FREQ=MONTHLY;UNTIL=20240401T000000Z
            TZOFFSETFROM:-0600
            TZOFFSETTO:-0200
            END:DAYLIGHT
            END:VTIMEZONE
            BEGIN:VTIMEZONE
            TZID:America/Denver
            BEGIN:STANDARD
            DTSTART:20240101T000000
            RDATE:20240201T000000
            TZOFFSETFROM:-0700
            TZOFFSETTO:-0100
            END:STANDARD
            END:VTIMEZONE

            """
        func event(_ uid: String, _ tzid: String, _ time: String) -> String {
            "BEGIN:VEVENT\nUID:\(uid)\nDTSTART;TZID=\(tzid):\(time)\nEND:VEVENT\n"
        }
        let window = AgendaWindow.days(500, from: CivilDate(iso: "2023-12-01")!, clock: berlinClock)
        let loaded = try load(zones
            + event("ny-before", "America/New_York", "20231210T120000")
                + event("ny-in", "America/New_York", "20240210T120000")
            + event("ny-after", "America/New_York", "20250310T120000")
                + event("chi-in", "America/Chicago", "20240210T120000")
            + event("chi-after", "America/Chicago", "20250312T120000")
                + event("den-in", "America/Denver", "20240115T120000")
            + event("den-after", "America/Denver", "20250312T120000"), window: window)
        let iso = ISOTime(clock: berlinClock)
        let start = Dictionary(uniqueKeysWithValues: loaded.occurrences.map { ($0.uid,
            $0.start.map(iso.string) ?? "-") })
        #expect(start["ny-before"] == "2023-12-10T18:00:00+01:00")  // IANA EST
        #expect(start["ny-in"] == "2024-02-10T16:00:00+01:00")  // the file's -03:00
        #expect(start["ny-after"] == "2025-03-10T17:00:00+01:00")  // IANA EDT
        #expect(start["chi-in"] == "2024-02-10T15:00:00+01:00")  // the file's -02:00
        #expect(start["chi-after"] == "2025-03-12T18:00:00+01:00")  // IANA CDT
        #expect(start["den-in"] == "2024-01-15T14:00:00+01:00")  // the file's -01:00
        #expect(start["den-after"] == "2025-03-12T19:00:00+01:00")  // IANA MDT
    }

    /// Finding where a COUNT rule of a VTIMEZONE ends costs libical steps:
    /// a file may spend 20,000 (`ZoneTable.onsetStepsPerFile`). Within them
    /// a definition that ended in 2009 gives way to IANA in 2025; once they
    /// are spent, a rule counts as repeating without end, and the file's
    /// made-up -03:00 holds, as it did before P1. (A rule of more than three
    /// onsets a year is no zone rule at all: `ZoneCost`.) Each copy of the
    /// definition spends 150 steps, and the last copy holds. (The copies
    /// differ in a comment: a definition repeated as it was is read once.)
    @Test func countRulesBeyondTheOnsetBudgetHoldForEver() throws {
        func start(copies: Int) throws -> String? {
            let zone = { (n: Int) in """
                BEGIN:VTIMEZONE
                TZID:America/New_York
                X-COPY:\(n)
                BEGIN:STANDARD
                DTSTART:19600101T000000
                RRULE:FREQ=MONTHLY;INTERVAL=4;COUNT=150
                TZOFFSETFROM:-0300
                TZOFFSETTO:-0300
                END:STANDARD
                END:VTIMEZONE

                """
            }
            return try load((0..<copies).map(zone).joined() + """
                BEGIN:VEVENT
                UID:budget
                DTSTART;TZID=America/New_York:20250310T120000
                END:VEVENT

                """).occurrences.first?.start.map(iso.string)
        }
        #expect(try start(copies: 100) == "2025-03-10T17:00:00+01:00")  // IANA EDT, -04:00
        #expect(try start(copies: 200) == "2025-03-10T16:00:00+01:00")  // the file's -03:00
    }

    // MARK: rules walked on the wall clock (RecurrenceExpander.iterationZone)

    /// Starts of a daily series in `tzid` from 2025-03-03 09:00 with `until`, in Berlin.
    func dailyStarts(tzid: String, until: String) throws -> [String] {
        try load("""
            BEGIN:VEVENT
            UID:until-\(until)
            DTSTART;TZID=\(tzid):20250303T090000
            RRULE:FREQ=DAILY;UNTIL=\(until)
            END:VEVENT

            """).occurrences.compactMap { $0.start.map(iso.string) }.sorted()
    }

    /// RFC 5545 3.3.10: UNTIL is inclusive and, beside a zoned DTSTART, an
    /// instant in UTC. The rule is walked on the wall clock, so UNTIL is
    /// moved to the wall clock: the instance at exactly UNTIL stays, one
    /// second later it goes, in a zone west of UTC as well as east.
    @Test func utcUntilIsInclusiveForAZonedStart() throws {
        #expect(try dailyStarts(tzid: "Europe/Berlin", until: "20250305T080000Z").last == "2025-03-05T09:00:00+01:00")
        #expect(try dailyStarts(tzid: "Europe/Berlin", until: "20250305T075959Z").last == "2025-03-04T09:00:00+01:00")
        #expect(try dailyStarts(tzid: "America/New_York", until: "20250305T140000Z")
            .last == "2025-03-05T15:00:00+01:00")
        #expect(try dailyStarts(tzid: "America/New_York", until: "20250305T135959Z")
            .last == "2025-03-04T15:00:00+01:00")
    }

    /// A floating UNTIL beside a zoned DTSTART (invalid by 3.3.10) is read
    /// on DTSTART's wall clock, inclusive (O8 in docs/CONFORMANCE.md); a DATE
    /// UNTIL ends the series before that day on DTSTART's wall clock, as
    /// libical compares a date with a date-time.
    @Test func floatingAndDateUntilAreReadOnTheStartsWallClock() throws {
        #expect(try dailyStarts(tzid: "America/New_York", until: "20250305T090000").last == "2025-03-05T15:00:00+01:00")
        #expect(try dailyStarts(tzid: "America/New_York", until: "20250305T085959").last == "2025-03-04T15:00:00+01:00")
        #expect(try dailyStarts(tzid: "Europe/Berlin", until: "20250305") == ["2025-03-03T09:00:00+01:00",
            "2025-03-04T09:00:00+01:00"])
        #expect(try dailyStarts(tzid: "Asia/Tokyo", until: "20250305").last == "2025-03-04T01:00:00+01:00")
    }

    /// A daily 02:30 in Berlin meets the spring gap on 2025-03-30: a time
    /// a rule generates that does not exist is ignored and not counted
    /// (3.3.10), so COUNT=3 gives 03-29, 03-31 and 04-01 (docs/CONFORMANCE.md,
    /// G1). A weekly 09:00 keeps 09:00 on the wall clock across the change.
    @Test func wallClockRulesAcrossAChangeOfOffset() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:gap
            DTSTART;TZID=Europe/Berlin:20250329T023000
            RRULE:FREQ=DAILY;COUNT=3
            END:VEVENT
            BEGIN:VEVENT
            UID:weekly
            DTSTART;TZID=Europe/Berlin:20250324T090000
            RRULE:FREQ=WEEKLY;COUNT=2
            END:VEVENT

            """, window: AgendaWindow.days(14, from: CivilDate(iso: "2025-03-23")!, clock: berlinClock))
        #expect(spans(loaded).map { String($0.prefix(25)) } == [
            "2025-03-24T09:00:00+01:00", "2025-03-29T02:30:00+01:00", "2025-03-31T02:30:00+02:00",
            "2025-03-31T09:00:00+02:00", "2025-04-01T02:30:00+02:00",
        ])
    }
    // MARK: X-WR-TIMEZONE as its writers meant it (docs/CONFORMANCE.md, P2)

    static let xwrPairs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/corpus/x-wr-timezone").standardized

    /// The x-wr-timezone project's `.in` files and the `.out` files it makes
    /// of them (every value in the zone, as the writer meant it): our agenda
    /// of each is the same, 2019-2023 in Berlin and New York. Skipped
    /// without the shared corpus.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: xwrPairs.path), "needs ../shared/corpus"))
    func xWRTimezoneInputsReadAsTheirStandardForms() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: ConformanceCaseTests.xwrPairs.path)
            .filter { $0.hasSuffix(".in.ics") }
        #expect(names.count >= 8)
        for zone in ["Europe/Berlin", "America/New_York"] {
            let clock = ZoneClock(TimeZone(identifier: zone)!)
            let window = AgendaWindow.through(CivilDate(iso: "2023-12-31")!, from: CivilDate(iso: "2019-01-01")!,
                clock: clock)
            let iso = ISOTime(clock: clock)
            func agenda(_ name: String) throws -> [String] {
                let data = try Data(contentsOf: ConformanceCaseTests.xwrPairs.appendingPathComponent(name))
                let loaded = try CalendarLoader(window: window).load(data, path: name, defaultName: name, source: ".")
                return loaded.occurrences.map { "\($0.uid) \($0.start.map(iso.string) ?? "-") \($0.end.map(iso.string) ?? "-")" }.sorted()
            }
            for name in names {
                let output = name.replacingOccurrences(of: ".in.ics", with: ".out.ics")
                #expect(try agenda(name) == agenda(output), "\(name) in \(zone)")
            }
        }
    }
}
