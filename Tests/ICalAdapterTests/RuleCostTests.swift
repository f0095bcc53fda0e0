@testable import ICalAdapter
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
