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

    /// What a component says of itself for that choice.
    struct Candidate {
        let kind: ComponentRecord.Kind
        let uid: String
        /// The RECURRENCE-ID, as kind and seconds; nil for a master.
        let recurrenceKey: String?
        let sequence: Int
        let recurs: Bool
        /// `Revision.identity`.
        var identity: Int? = nil
        /// A one-off event the prefilter skipped: it lists nothing, and is
        /// remembered in `SkippedRevisions` unless its UID is already listed.
        var skipped = false

        init(kind: ComponentRecord.Kind, uid: String, recurrenceKey: String?, sequence: Int, recurs: Bool, skipped: Bool = false) {
            self.kind = kind
            self.uid = uid
            self.recurrenceKey = recurrenceKey
            self.sequence = sequence
            self.recurs = recurs
            self.skipped = skipped
        }

        init(_ record: ComponentRecord) {
            self.init(kind: record.kind, uid: record.matchUID,
                recurrenceKey: record.recurrenceID.map { "\($0.agendaTime.kind)\($0.agendaTime.matchKey)" },
                sequence: record.sequence, recurs: record.isRecurring)
            if !recurs && recurrenceKey == nil {
                var hasher = Hasher()
                hasher.combine(record.dtstart.map { "\($0.agendaTime.kind)\($0.agendaTime.matchKey)" })
                hasher.combine(record.summary)
                identity = hasher.finalize()
            }
        }
    }
}

/// Identifies one instance of a series: the UID and the instance's original start.
struct OverrideKey: Hashable {
    let uid: String
    let time: Int64

    /// nil without a UID: components without one are never one series
    /// (RFC 5545 3.8.4.7), so nothing overrides their instances.
    static func make(uid: String, _ time: AgendaTime) -> OverrideKey? {
        uid.isEmpty ? nil : OverrideKey(uid: uid, time: time.matchKey)
    }
}
