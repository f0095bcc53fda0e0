import AgendaCore
import Foundation

/// One RRULE walked with libical's iterator (`RecurrenceExpander.instances`):
/// where the walk starts (`plan`), whether libical can walk it in bounded
/// time and at what cost a step (`stepCost`), the iterator (`iterator`),
/// and the steps (`follow`).
extension RecurrenceExpander {
    /// How one rule is walked: the rule as walked (COUNT less what a
    /// restart skips), the value libical starts from, where the iterator
    /// restarts near the window (nil: from `dtstart`), and the correction
    /// of a shape libical expands wrongly (`RuleCorrection`).
    struct WalkPlan {
        var rule: RecurrenceRule
        var dtstart: TimeValue
        var restart: TimeValue?
        let correction: RuleCorrection?
    }

    /// Walks one RRULE with libical's iterator, handing each instance that
    /// starts before the window's end to `consider` until it says stop.
    ///
    /// Bounded work: a rule libical could not walk in bounded time
    /// (`RuleCost`) is not walked; each step counts against the component's
    /// `budget`; an old rule restarts near the window where its phase
    /// allows. Each cut says so in `cut`.
    /// - Returns: how many instances fell in a DST gap and were left out
    ///   (RFC 5545 3.3.10: they are ignored and not counted).
    @discardableResult
    func walk(
        _ rule: RecurrenceRule, from anchor: ZonedTime, skipTo: Date, keepsLatestBefore: Bool,
            budget: inout ExpansionBudget,
        cut: inout String?, _ consider: (ZonedTime, AgendaTime?, AgendaTime?) -> Bool
    ) -> Int {
        let plan = self.plan(rule, from: anchor, skipTo: skipTo)
        guard let perStep = RecurrenceExpander.stepCost(of: plan, cut: &cut) else { return 0 }
        // A series that ended well before the window lists nothing in it,
        // and walking it would only step through its past (a reminder's last
        // instance can still be overdue: reminders are walked).
        if !keepsLatestBefore, let last = RecurrenceExpander.latestWallSeconds(plan.rule, from: plan.dtstart),
            Double(last) < skipTo.timeIntervalSince1970 - 2 * 86400
        {
            return 0
        }
        guard var source = iterator(for: plan, anchor: anchor, cut: &cut) else { return 0 }
        return follow(&source, plan: plan, anchor: anchor, perStep: perStep, budget: &budget, cut: &cut, consider)
    }

    /// Where the walk of `rule` starts: DTSTART, the start of its first
    /// week (`firstWeekStart`), or for an old rule a whole number of
    /// INTERVALs after DTSTART near the window (`skipTo`), keeping its phase.
    func plan(_ rule: RecurrenceRule, from anchor: ZonedTime, skipTo: Date) -> WalkPlan {
        var rule = rule
        let subDaily = rule.isSubDaily
        let zone = RecurrenceExpander.iterationZone
        var dtstart = anchor.local
        // A shape libical expands wrongly is walked as one it expands right, and sieved (`RuleCorrection`).
        let correction = RuleCorrection.of(rule, from: anchor.local)
        if correction == nil, let week = RecurrenceExpander.firstWeekStart(rule, anchor.local) {
            dtstart = week.start
            if rule.count > 0 { rule.count += week.before }
        }
        dtstart.zoneMark = zone
        // The phase a restart keeps is the rule's first instance's, which is DTSTART's unless moved just above.
        let phase = ZonedTime(local: dtstart, zone: anchor.zone)
        let clock = window.clock
        // An old rule need not be walked from its first day: the iterator
        // can start near the window, a whole number of INTERVALs after
        // DTSTART. With COUNT only a rule whose every step is an instance
        // can: the instances skipped are then known.
        var restart: TimeValue? = nil
        let plain = RecurrenceExpander.hasNoByParts(rule)
        // A corrected MONTHLY or YEARLY rule is walked from its start: the
        // restart's day and time would stand for DTSTART's in libical's walk.
        let restarts = correction == nil || (rule.frequency != .monthly && rule.frequency != .yearly)
        if restarts, rule.count == 0 || (plain && rule.frequency != .monthly && rule.frequency != .yearly),
            anchor.agendaTime.instant(in: clock) < skipTo - 86400
        {
            restart = RecurrenceExpander.alignedStart(rule, anchor: phase,
                near: RecurrenceExpander.local(skipTo, like: anchor, clock: clock))
        }
        if let start = restart, let correction {
            // Restarted a whole number of INTERVALs on, the walk keeps the
            // rule's phase; the sieve counts the intervals from DTSTART.
            dtstart = correction.walkStart(start)
            dtstart.zoneMark = zone
            restart = nil
        } else if let start = restart, subDaily || rule.count > 0 {
            // libical's set_start loses the phase of sub-daily rules (and
            // refuses rules with COUNT): the rule restarted from a whole
            // number of INTERVALs after DTSTART is the same series from there
            // on. Its first value may not be an instance (a BYxxx the restart
            // does not pass), but it lies before anything listed.
            if rule.count > 0 {
                let step = RecurrenceExpander.stepSeconds(rule)
                let skipped = (start.wallSeconds - anchor.local.wallSeconds) / max(step, 1)
                if skipped < rule.count {
                    rule.count -= skipped
                    dtstart = start
                } else {
                    // The series ended before the window: only its last
                    // instance can matter (a reminder's overdue one).
                    let last = anchor.local.wallSeconds + (rule.count - 1) * step
                    dtstart = anchor.local.at(wallSeconds: last)
                    rule.count = 1
                }
            } else {
                dtstart = start
            }
            dtstart.zoneMark = zone
            restart = nil
        }
        if let correction, restart == nil, dtstart.wallSeconds == anchor.local.wallSeconds {
            dtstart = correction.walkStart(dtstart)
            dtstart.zoneMark = zone
        }
        return WalkPlan(rule: rule, dtstart: dtstart, restart: restart, correction: correction)
    }

    /// What one of libical's steps costs the budget, or nil (with `cut`
    /// saying why) for a rule that is not walked. A corrected rule is judged
    /// as written (what it asks for), and costed as walked: libical's steps,
    /// of which the sieve keeps about one an INTERVAL when it keeps to the
    /// rule's intervals.
    static func stepCost(of plan: WalkPlan, cut: inout String?) -> Double? {
        let rule = plan.rule
        switch RuleCost.assess(rule, from: plan.dtstart) {
        case .walk(let cost):
            if let correction = plan.correction, case .walk(let walkedCost) = RuleCost.assess(correction.walked,
                from: plan.dtstart) {
                return walkedCost * Double(correction.keepsToIntervals ? correction.interval : 1)
            }
            return cost
        case .neverMatches:
            cut = cut ?? "\(rule.text) matches no date; the rule adds no occurrence"
        case .subDailyOnDate:
            cut = cut ?? "\(rule.text) steps through hours, minutes or seconds, but DTSTART is a date; the rule " +
                "is ignored"
        case .tooCostly(let candidates):
            cut = cut ?? "\(rule.text) would make libical test about \(RecurrenceExpander.round(candidates)) " +
                "candidate times between two occurrences; the rule is not expanded, only DTSTART is listed"
        }
        return nil
    }

    /// libical's iterator for the plan, restarted where it says, and
    /// sieved when the rule is corrected; nil (with `cut`) when libical
    /// cannot expand the rule.
    func iterator(for plan: WalkPlan, anchor: ZonedTime, cut: inout String?) -> SievedIterator? {
        let zone = RecurrenceExpander.iterationZone
        let iterated = RecurrenceExpander.until(of: plan.rule, for: anchor, inZone: zone)
        guard var iterator = RecurrenceIterator(plan.correction?.walked ?? iterated, from: plan.dtstart) else {
            cut = cut ?? "libical cannot expand \(plan.rule.text) (no date matches it, or its parts do not go " +
                "together); the rule adds no occurrence"
            return nil
        }
        if var start = plan.restart {
            start.zoneMark = zone
            if !iterator.setStart(start) {
                // Walked from DTSTART instead; the old iterator is freed as the new one replaces it.
                guard let fresh = RecurrenceIterator(iterated, from: plan.dtstart) else { return nil }
                iterator = fresh
            }
        }
        var anchorValue = anchor.local
        anchorValue.zoneMark = zone
        // The sieve's walk ends two days of zone offsets past `stopAt`, on the wall clock.
        let stopWall = Int(stopAt(plan.rule).timeIntervalSince1970) + 2 * 86400
        return SievedIterator(iterator, plan.correction.map {
            InstanceSieve($0, anchor: anchorValue, until: iterated.until)
        }, stopWall: stopWall)
    }

    /// BYWEEKNO rules come out of libical slightly out of order around the
    /// year's end: they are walked a year past the window before stopping.
    func stopAt(_ rule: RecurrenceRule) -> Date {
        rule.has(.weekNumber) ? window.end + 366 * 86400 : window.end
    }

    /// Takes libical's steps, each against the `budget`, handing each
    /// instance to `consider`; an instance in an hour the zone skips is
    /// left out and counted. The count of those is returned.
    func follow(
        _ source: inout SievedIterator, plan: WalkPlan, anchor: ZonedTime, perStep: Double,
            budget: inout ExpansionBudget,
        cut: inout String?, _ consider: (ZonedTime, AgendaTime?, AgendaTime?) -> Bool
    ) -> Int {
        var inGap = 0
        // A zone whose wall clock skips an hour: instances there are dropped (see `iterationZone`).
        let gapZone = anchor.isDate || anchor.isUTC ? nil : anchor.zone
        let anchorWall = anchor.local.wallSeconds
        let clock = window.clock
        let stopAt = stopAt(plan.rule)
        // A rule with neither end that gives nothing from its own DTSTART matches no date.
        var unbounded = plan.restart == nil && plan.rule.count == 0 && plan.rule.until.isNull
        while true {
            var spent = false
            let next = source.next {
                spent = !budget.step(cost: perStep)
                return !spent
            }
            if spent {
                let step = source.lastStep
                let at = String(format: "%04d-%02d-%02d", step.year, step.month, step.day)
                cut = cut ?? "expanding the rule stopped \(budget.spentWords), at \(at); later occurrences of this " +
                    "series are not listed"
                return inGap
            }
            if next.isNull {
                if unbounded && plan.correction == nil {
                    cut = cut ?? "\(plan.rule.text) matches no date; the rule adds no occurrence"
                }
                return inGap
            }
            unbounded = false
            var local = next
            local.zoneMark = anchor.local.zoneMark  // keep UTC values UTC
            let wall = local.wallSeconds
            if wall < anchorWall { continue }  // before DTSTART: only from `firstWeekStart`
            let start = ZonedTime(local: local, zone: anchor.zone)
            let time: AgendaTime
            if let gapZone {
                // The instant, and whether the wall clock exists, from one look at the zone.
                let resolved = ZonedTime.resolve(local, in: gapZone)
                if resolved.inGap && wall != anchorWall {
                    inGap += 1
                    continue
                }
                time = .instant(Date(timeIntervalSince1970: TimeInterval(resolved.seconds)))
            } else {
                time = start.agendaTime
            }
            let instant = time.instant(in: clock)
            if instant >= stopAt { return inGap }
            if instant >= window.end { continue }
            if !consider(start, time, nil) { return inGap }
        }
    }
}
