import AgendaCore
import Foundation

/// The component kept for one UID and RECURRENCE-ID.
struct Revision {
    let component: Int
    let sequence: Int
    let recurs: Bool
    /// Where its occurrences are in `LoadRun.masters`.
    let masters: Range<Int>
    /// For a component that neither recurs nor overrides: its DTSTART and
    /// SUMMARY, hashed; nil when not known (a one-off event the prefilter
    /// did not parse) or not needed.
    var identity: Int? = nil

    struct Key: Hashable {
        let kind: ComponentRecord.Kind
        let uid: String
        let recurrence: String?
    }

    /// RFC 5545 3.8.7.4: the higher SEQUENCE is the newer; on a tie the later
    /// wins when either recurs, and of two one-off components the first stays.
    static func isNewer(_ new: Revision, than old: Revision) -> Bool {
        new.sequence != old.sequence ? new.sequence > old.sequence : (new.recurs || old.recurs)
    }

    /// Whether two components that share a UID cannot be revisions of one
    /// another, and so are both listed: neither recurs, their SEQUENCE is
    /// equal (a revision counts it up, RFC 5545 3.8.7.4), and their DTSTART
    /// or SUMMARY differ (two copies of one event are one item).
    /// An event far from the window that was not parsed (no identity) is
    /// taken as distinct too: it lists nothing, and must not hide a talk of
    /// the same feed that is in the window.
    static func areDistinct(_ new: Revision, _ old: Revision) -> Bool {
        guard !new.recurs, !old.recurs, new.sequence == old.sequence else { return false }
        guard let a = new.identity, let b = old.identity else { return true }
        return a != b
    }
}
