import AgendaCore
import Foundation

/// One VEVENT or VTODO as the expand stage hands it on
/// (`ComponentExpander`): its rows in the window, and what the resolve
/// stage needs to choose between its revisions and apply its overrides.
/// Worked out without touching the state of the file being read, so that
/// components are expanded on several threads and then applied in file
/// order (`LoadRun.apply`).
struct ExpandedComponent {
    /// Its warnings, in the order the file's log takes them.
    var warnings = ComponentWarnings()
    /// Where the component starts.
    var line = 0
    /// `--series`: the component as written (`ComponentRecord.whole`).
    var whole: WholeComponent?
    /// What it is, each case with what it hands on.
    var shape = Shape.unread

    enum Shape {
        /// Nothing to count or list: not read, or an override whose
        /// RECURRENCE-ID cannot be read (it would replace its whole series).
        case unread
        /// Counted for `calendars`, but it can be neither listed nor chosen
        /// between revisions: an event without a usable DTSTART.
        case unplaced(kind: ComponentRecord.Kind, uid: String, isOverride: Bool)
        /// A one-off event the prefilter skipped unread.
        case skipped(RevisionCandidate)
        /// A master, or a component without a UID (which stands alone): its
        /// instances in the window.
        case series(MasterInstances)
        /// An override: what it adds, if it is the revision kept.
        case override(OverrideInstance)
        /// An override of an event that is far from the window and changes
        /// only its own instance: it lists nothing, and is kept as the
        /// instance it replaces (`LoadRun.FarOverride`), not as an occurrence.
        case farOverride(OverrideInstance)
    }

    /// A master's instances in the window.
    struct MasterInstances {
        let revision: RevisionCandidate
        /// Its UID and first start, when it has a UID and a start.
        var anchor: (uid: String, anchor: ZonedTime)?
        var masters: [Occurrence] = []
        /// Beside each of `masters`, the original start an override would
        /// replace it by (`noKey` when none can).
        var masterKeys: [Int64] = []
        var rows = RowCount()

        init(revision: RevisionCandidate) { self.revision = revision }

        /// One instance, with the original start an override would replace it by.
        mutating func add(_ occurrence: Occurrence, _ key: OverrideKey?) {
            masters.append(occurrence)
            masterKeys.append(key?.time ?? ExpandedComponent.noKey)
        }
    }

    /// An override, at its own times.
    struct OverrideInstance {
        let revision: RevisionCandidate
        let occurrence: Occurrence
        let uid: String
        let recurrenceID: ZonedTime
        let thisAndFuture: Bool
        /// Counted as an override of its UID; one without a UID stands alone and counts as a master.
        let isCounted: Bool
        /// An override that also has RRULE or RDATE: its own series, listed
        /// instead of it when the file has no master for its UID (`LoadRun.finish`).
        var series: (occurrences: [Occurrence], line: Int)?
        var rows = RowCount()
    }

    /// The rows a rule made, and whether it was cut at the rows it was allowed (`maxRows`).
    struct RowCount {
        var listed = 0
        var reachedLimit = false
        /// Given only when the component is kept (it is about its expansion).
        var cutWarning: Warning?
    }

    static let noKey = Int64.min

    /// The revision this component is of its UID and RECURRENCE-ID; nil for
    /// one that cannot be listed or was not read.
    var revision: RevisionCandidate? {
        switch shape {
        case .unread, .unplaced: nil
        case .skipped(let candidate): candidate
        case .series(let series): series.revision
        case .override(let o), .farOverride(let o): o.revision
        }
    }

    /// How it is counted for `calendars`: a component read, or one the prefilter skipped.
    var counted: (kind: ComponentRecord.Kind, uid: String, isOverride: Bool)? {
        switch shape {
        case .unread: nil
        case .unplaced(let kind, let uid, let isOverride): (kind, uid, isOverride)
        case .skipped(let candidate): (candidate.kind, candidate.uid, false)
        case .series(let series): (series.revision.kind, series.revision.uid, false)
        case .override(let o), .farOverride(let o): (o.revision.kind, o.revision.uid, o.isCounted)
        }
    }

    /// The rows its rule made (a master's, or an override's own series).
    var rows: RowCount {
        switch shape {
        case .series(let series): series.rows
        case .override(let o), .farOverride(let o): o.rows
        case .unread, .unplaced, .skipped: RowCount()
        }
    }
}

/// What a component says of itself for the choice of the revision of
/// its UID (and RECURRENCE-ID) to show (`RevisionLedger`).
struct RevisionCandidate {
    let kind: ComponentRecord.Kind
    let uid: String
    /// The RECURRENCE-ID, as kind and seconds; nil for a master.
    let recurrenceKey: String?
    let sequence: Int
    let recurs: Bool
    /// `Revision.identity`.
    var identity: Int? = nil
    /// Its VALARMs; nil when none are read (all but `alarms`): an override
    /// without its own rings its master's, also when that lists nothing in
    /// the window.
    var alarms: [Alarm]? = nil
    /// It has VALARMs, read or not (`ComponentRecord.hasAlarmComponents`).
    var hasAlarmComponents = false
    /// A one-off event the prefilter skipped: it lists nothing, and is
    /// remembered in `SkippedRevisions` unless its UID is already listed.
    var skipped = false

    init(kind: ComponentRecord.Kind, uid: String, recurrenceKey: String?, sequence: Int, recurs: Bool,
        skipped: Bool = false) {
        self.kind = kind
        self.uid = uid
        self.recurrenceKey = recurrenceKey
        self.sequence = sequence
        self.recurs = recurs
        self.skipped = skipped
    }

    init(_ record: ComponentRecord) {
        self.init(kind: record.kind, uid: record.matchUID,
            recurrenceKey: record.recurrenceID.map { $0.agendaTime.revisionKey },
            sequence: record.sequence, recurs: record.isRecurring)
        alarms = record.alarms
        hasAlarmComponents = record.hasAlarmComponents
        if !recurs && recurrenceKey == nil {
            var hasher = Hasher()
            hasher.combine(record.dtstart.map { $0.agendaTime.revisionKey })
            hasher.combine(record.summary)
            identity = hasher.finalize()
        }
    }
}

extension AgendaTime {
    /// The time as revisions are told apart by it: its kind's name and its
    /// seconds (`date1735689600`), made without string interpolation, which
    /// reflects on the enum (1% of a 100k load).
    fileprivate var revisionKey: String {
        let name = switch kind {
        case .instant: "instant"
        case .floating: "floating"
        case .date: "date"
        }
        return name + String(matchKey)
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
