@testable import ICalAdapter
import AgendaCore
import Testing

/// How RuleCost judges rules before libical walks them.
@Suite struct RuleCostTests {
    @Test(arguments: [
        // Ordinary rules are walked, at about one candidate per instance.
        ("FREQ=DAILY", RuleCost.Verdict.walk(perStep: 1)),
        ("FREQ=WEEKLY;BYDAY=MO,WE,FR", .walk(perStep: 1)),
        ("FREQ=MONTHLY;BYDAY=-1FR", .walk(perStep: 1)),
        ("FREQ=HOURLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9,10,11,12,13,14,15,16,17", .walk(perStep: 1.4)),
        ("FREQ=MINUTELY;INTERVAL=15;BYHOUR=9", .walk(perStep: 24)),
        // Dates that do not exist, positions a filter cannot have.
        ("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", .neverMatches),
        ("FREQ=SECONDLY;BYMONTH=4,6,9,11;BYMONTHDAY=31", .neverMatches),
        ("FREQ=HOURLY;BYDAY=1MO", .neverMatches),
        ("FREQ=HOURLY;BYYEARDAY=367", .neverMatches),
        // Fine frequencies limited to rare days, or a phase that misses its filter.
        ("FREQ=SECONDLY;BYDAY=MO", .tooCostly(candidates: 604_800)),
        ("FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=29", .tooCostly(candidates: 2_923 * 1440 + 1440)),
    ])
    func judgement(_ rule: String, _ expected: RuleCost.Verdict) throws {
        let verdict = try #require(RuleCost.assess(rule, from: "20250301T090000"))
        switch (verdict, expected) {
        case (.walk(let a), .walk(let b)): #expect(abs(a - b) < 0.1, "\(rule): \(a) per step")
        case (.tooCostly(let a), .tooCostly(let b)): #expect(a >= b * 0.5 && a <= b * 2, "\(rule): \(a) candidates")
        default: #expect(verdict == expected, "\(rule)")
        }
    }

    @Test func aSubDailyRuleOnADateIsRefused() throws {
        #expect(RuleCost.assess("FREQ=MINUTELY;BYHOUR=3", from: "20250306") == .subDailyOnDate)
        #expect(RuleCost.assess("FREQ=DAILY;BYHOUR=3", from: "20250306") == .walk(perStep: 1))
    }
}

/// Which rules are known to have ended without walking them (RecurrenceExpander.latestWallSeconds).
@Suite struct SeriesEndTests {
    static let start = "20240101T090000"  // a Monday
    static let startSeconds = 1_704_099_600

    @Test(arguments: [
        // UNTIL: the end of its day.
        ("FREQ=MONTHLY;BYMONTHDAY=31;UNTIL=20240601T000000Z", 1_717_200_000 + 86400),
        ("FREQ=DAILY;UNTIL=20240110", 1_704_844_800 + 86400),
        // Weekly by plain weekdays (or none): COUNT + 1 INTERVALs of weeks.
        ("FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10", startSeconds + 11 * 7 * 86400),
        ("FREQ=WEEKLY;INTERVAL=2;COUNT=3", startSeconds + 8 * 7 * 86400),
    ])
    func knownEnds(_ rule: String, _ end: Int) {
        #expect(RecurrenceExpander.latestWallSeconds(rule, from: Self.start) == end)
    }

    @Test(arguments: [
        "FREQ=WEEKLY", "FREQ=WEEKLY;BYDAY=1MO;COUNT=3", "FREQ=WEEKLY;BYDAY=MO;BYMONTH=2;COUNT=3",
        "FREQ=MONTHLY;BYDAY=MO;COUNT=3", "FREQ=WEEKLY;BYSETPOS=1;BYDAY=MO,TU;COUNT=3",
    ])
    func rulesWhoseEndIsNotKnown(_ rule: String) {
        #expect(RecurrenceExpander.latestWallSeconds(rule, from: Self.start) == nil)
    }

    /// A series that ended before the window lists nothing; a reminder's last instance is still overdue.
    @Test func aSeriesThatEndedBeforeTheWindow() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:past
            SUMMARY:Past course
            DTSTART:20240108T090000Z
            RRULE:FREQ=WEEKLY;BYDAY=MO,TH;COUNT=20
            END:VEVENT
            BEGIN:VTODO
            UID:chore
            SUMMARY:Weekly chore
            DUE:20240108T090000Z
            RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=20
            END:VTODO

            """)
        #expect(loaded.occurrences.map(\.title) == ["Weekly chore"])
        #expect(loaded.occurrences.first?.due.map(ISOTime(clock: berlinClock).string) == "2024-05-20T11:00:00+02:00")
    }
}
