import Foundation
import Synchronization

/// The work one component's expansion may still do, counted in libical
/// candidates (each instance costs what `RuleCost` reckons), so that where
/// a series is cut does not depend on the machine; a limit on CPU time
/// stands behind it for anything the count misjudges.
struct ExpansionBudget {
    /// About half a second of libical's inner loop.
    static let maxCandidates: Double = 500_000
    /// CPU time, a safety net that no reckoned rule should reach.
    static let maxSeconds: Double = 2

    private(set) var candidates: Double = 0
    private(set) var steps = 0
    private var outOfTime = false
    private let started = ExpansionBudget.cpuSeconds()

    /// Counts one instance from libical; false once the budget is spent.
    mutating func step(cost: Double) -> Bool {
        steps += 1
        candidates += cost
        if candidates > ExpansionBudget.maxCandidates { return false }
        if steps & 1023 == 0, ExpansionBudget.cpuSeconds() - started > ExpansionBudget.maxSeconds {
            outOfTime = true
            return false
        }
        return true
    }

    /// What ran out, for the warning.
    var spentWords: String {
        outOfTime
            ? "after \(Int(ExpansionBudget.maxSeconds)) s"
            : "after about \(Int(ExpansionBudget.maxCandidates)) libical steps"
    }

    /// This thread's CPU time: the budget does not shrink when the machine is busy.
    private static func cpuSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

extension RuleCost {
    /// The judgement for a rule and a start as written (`FREQ=...`,
    /// `20250301T000000`), for tests; nil when libical cannot read them.
    static func assess(_ rule: String, from start: String) -> Verdict? {
        let parsed = RecurrenceRule(reading: rule)
        let time = TimeValue(reading: start)
        guard parsed.frequency != .none, !time.isNull else { return nil }
        return assess(parsed, from: time)
    }
}

extension RecurrenceExpander {
    /// `latestWallSeconds` for a rule and a start as written, for tests.
    static func latestWallSeconds(_ rule: String, from start: String) -> Int? {
        latestWallSeconds(RecurrenceRule(reading: rule), from: TimeValue(reading: start))
    }
}
