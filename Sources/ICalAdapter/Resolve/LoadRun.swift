import AgendaCore
import Foundation

/// The state of reading one file, applied in file order: its zones
/// (`ZoneDefinitions`), warnings (`DiagnosticLog`), counts
/// (`ComponentCounts`), revisions (`RevisionLedger`) and overrides
/// (`OverrideSet`); `BatchSchedule` reads its components.
struct LoadRun {
    let window: AgendaWindow
    let calendar: CalendarInfo
    let path: String
    var zoneDefinitions = ZoneDefinitions()
    var zones: ZoneTable { zoneDefinitions.zones }
    var log: DiagnosticLog
    /// Occurrences of masters, and beside each the original start an
    /// override would replace it by (`ExpandedComponent.noKey` when none can): two plain
    /// arrays, not an array of tuples, since there can be hundreds of thousands.
    var masters: [Occurrence] = []
    var masterKeys: [Int64] = []
    var counts = ComponentCounts()
    var ledger = RevisionLedger()
    var overrides = OverrideSet()
    var componentNumber = 0
    var scratch: [CChar] = []
    var release: ((Range<Int>) -> Void)?
    var threads: Int?
    /// What is left of the file's budget of rows (`CalendarLoader.rowsPerFile`), set by the loader.
    var rowBudget = 0
    /// Whether the prefilter may skip a rule that starts after the window (`WindowPrefilter.skipsRules`).
    var skipsRules = false
    /// `--series`: every component read, as written (`CalendarLoader.keepsText`).
    var wholes: [WholeComponent] = []

    init(window: AgendaWindow, calendar: CalendarInfo, path: String) {
        self.window = window
        self.calendar = calendar
        self.path = path
        log = DiagnosticLog(path: path)
    }

    mutating func warn(_ warning: Warning) { log.warn(warning) }

    mutating func warn(_ line: Int, _ damage: DamageKind, _ message: String) {
        log.warn(Warning(line, damage, message))
    }

    /// Takes one processed component into the file's state, in file order:
    /// its warnings, its count, whether it is the revision of its UID to keep,
    /// and then what it lists.
    mutating func apply(_ processed: ExpandedComponent) {
        log.take(processed.warnings)
        counts.count(processed)
        if let whole = processed.whole { wholes.append(whole) }
        guard let candidate = processed.revision else { return }
        let component = componentNumber
        componentNumber += 1
        var slot: Int32? = nil
        // What lists nothing of its own (an override, a skipped event) holds no place in `masters`.
        let nothing = masters.count..<masters.count
        switch processed.shape {
        case .unread, .unplaced:
            return  // (neither has a revision: not reached)
        case .skipped:
            _ = ledger.supersedes(candidate, component, listing: nothing, line: processed.line, series: &slot)
        case .farOverride(let o):
            // Whichever of its revisions is kept replaces this instance.
            if !o.uid.isEmpty {
                overrides.far.append(FarOverride(uid: SkippedRevisions.fingerprint(o.uid), kind: candidate.kind,
                    recurrenceID: o.recurrenceID))
            }
            _ = ledger.supersedes(candidate, component, listing: nothing, line: processed.line, series: &slot,
                far: true)
        case .override(let o):
            guard ledger.supersedes(candidate, component, listing: nothing, line: processed.line, series: &slot) else {
                return
            }
            overrides.kept.append(Override(occurrence: o.occurrence, uid: o.uid, recurrenceID: o.recurrenceID,
                thisAndFuture: o.thisAndFuture, component: component, kind: candidate.kind,
                    ownsAlarms: candidate.hasAlarmComponents,
                series: o.series))
            if let cut = o.rows.cutWarning { warn(cut) }
        case .series(let series):
            // Where its masters go if it is kept, to drop them should a newer revision come.
            let listing = masters.count..<(masters.count + series.masters.count)
            guard ledger.supersedes(candidate, component, listing: listing, line: processed.line, series: &slot) else {
                return
            }
            if let anchor = series.anchor, let slot { ledger.series[Int(slot)].anchor = anchor.anchor.shape }
            if !series.masters.isEmpty {
                masters += series.masters
                masterKeys += series.masterKeys
            }
            if let cut = series.rows.cutWarning { warn(cut) }
        }
    }

    /// The file's occurrences: overrides, then the masters' instances less
    /// those an override replaces or a newer revision dropped. Instances are
    /// found through their series' place in `masters`, not by hashing the
    /// UID of each of hundreds of thousands of them.
    mutating func finish() -> LoadedCalendar {
        for warning in ledger.sharedUIDWarnings() { warn(warning) }
        joinSeries()
        let occurrences = overrides.occurrences(masters: masters, masterKeys: masterKeys, ledger: ledger, log: &log)
        return LoadedCalendar(calendar: calendar, occurrences: occurrences,
            eventCount: counts.items(.event, ledger: ledger),
            reminderCount: counts.items(.reminder, ledger: ledger), diagnostics: log.ordered())
    }
}

