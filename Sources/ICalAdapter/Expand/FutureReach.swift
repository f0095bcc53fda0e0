import AgendaCore
import Foundation

/// How far outside the window a series must be expanded so that every
/// instance a `RANGE=THISANDFUTURE` override moves into the window is found
/// (RFC 5545 3.2.13, 3.8.4.4).
///
/// An override that moves its instance three days later moves every later
/// instance three days later too: the instance listed on the window's first
/// day is the one that was due three days before it. A move backwards
/// brings instances from after the window's end. The expander walks the
/// master over the window widened by that much (`widened`); instances that
/// still fall outside it after the move are left out by the agenda as any
/// other (`AgendaWindow.intersects`), so the agenda of a day is the same
/// whatever window it is part of.
struct FutureReach: Sendable {
    /// Days the master is walked before the window's first day and after its end.
    var daysBefore = 0
    var daysAfter = 0

    /// The window to expand a master of this reach over.
    func widened(_ window: AgendaWindow) -> AgendaWindow {
        AgendaWindow(firstDay: window.firstDay.adding(days: -daysBefore), endDay: window.endDay.adding(days: daysAfter),
            clock: window.clock)
    }

    /// The reach of each UID that has a THISANDFUTURE override, from the
    /// components whose text may say so (`WindowPrefilter.mayMoveSeries`,
    /// rare), read once more before the file's components are expanded.
    static func scan(_ records: some Sequence<ComponentRecord>) -> [String: FutureReach] {
        var reach: [String: FutureReach] = [:]
        for record in records {
            guard record.thisAndFuture, !record.uid.isEmpty, let rid = record.recurrenceID else { continue }
            let timing = InstanceTiming(record: record)
            guard let anchor = timing.anchor else { continue }
            // The move on the wall clock (as `LoadRun.changed` applies it), and how long the moved instances last.
            let shift = anchor.read(inZoneOf: rid).agendaTime.wall.timeIntervalSince(rid.read(inZoneOf: anchor)
                .agendaTime.wall)
            let days = Int((abs(shift) / 86400).rounded(.up)) + 1
            var r = reach[record.uid] ?? FutureReach()
            if shift > 0 {
                r.daysBefore = max(r.daysBefore, days + Int((timing.lookBehind / 86400).rounded(.up)))
            } else if shift < 0 {
                r.daysAfter = max(r.daysAfter, days)
                r.daysBefore = max(r.daysBefore, Int((timing.lookBehind / 86400).rounded(.up)))
            } else {
                r.daysBefore = max(r.daysBefore, Int((timing.lookBehind / 86400).rounded(.up)))
            }
            reach[record.uid] = r
        }
        return reach
    }
}
