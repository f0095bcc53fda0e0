import AgendaCore
import Foundation
import ICalAdapter
import Subscriptions

/// Reads inputs into calendars, one way for all of them: an input named on
/// the command line that is missing or not iCalendar stops the run, one
/// found in a folder is skipped with a warning, in every mode; each
/// calendar's damage is told as it is read.
struct InputReader {
    let loader: CalendarLoader
    let warnings: WarningDetail
    /// The files found in folders that were skipped (folders are read on
    /// several threads): `--strict` fails on them once every file is told.
    let skipped = SkippedInputs()

    /// Reads one file (or standard input), mapped; nil when it is skipped.
    func read(_ file: InputFile) throws -> LoadedCalendar? {
        try skippingWhenFound(file) {
            let path = file.isStdin ? "stdin" : file.path
            var change: (message: String, cut: InputFiles.CutPlace?)? = nil
            var loaded = try InputFiles.withContents(of: file) { bytes, release in
                try loader.load(bytes, release: release, path: path, defaultName: file.defaultName, source: file.source)
            } streaming: { read in
                try loader.load(streaming: read, path: path, defaultName: file.defaultName, source: file.source)
            } changed: { change = ($0, $1) }
            if let change {
                if let cut = change.cut { loaded.diagnostics = InputReader.beforeCut(loaded.diagnostics, at: cut) }
                loaded.diagnostics.insert(Diagnostic(path: path, line: nil, message: change.message,
                    damage: DamageKind.fileChanged.rawValue), at: 0)
            }
            return loaded
        }
    }

    /// The warnings of a file cut short while it was read that are the
    /// file's: past the cut (the cut line too, whose rest read as zeros)
    /// the text was zeros; in the component the cut went through they are
    /// NUL bytes no one wrote, and it looked as long as the zeros ("larger
    /// than 64 MB"). That component keeps its one warning (not closed, or
    /// not readable).
    static func beforeCut(_ diagnostics: [Diagnostic], at cut: InputFiles.CutPlace) -> [Diagnostic] {
        let last = cut.line
        return diagnostics.compactMap { d in
            let line = d.line ?? Int.max
            guard line < last, !d.kind.contains("more than one component is read") else { return nil }
            if line >= cut.componentLine, d.kind.hasPrefix("text: ") { return nil }
            var kept = d
            if let from = d.morePlacesFrom, from >= last {
                kept.morePlaces = 0
                kept.morePlacesFrom = nil
            }
            return kept
        }
    }

    /// Reads a URL's copy, named by the URL as it may be shown (its
    /// warnings, its calendar's source); nil when there is none to read:
    /// then why is told here.
    func read(_ outcome: SubscriptionFetch.Outcome) throws -> LoadedCalendar? {
        let url = outcome.url
        if let warning = outcome.warning, warnings != .none {
            StandardError.write("ics-agenda: warning: \(PrintableText.escaped(warning))\n")
        }
        guard let content = outcome.content else {
            StandardError.write("ics-agenda: \(PrintableText.escaped(outcome.error ?? url.redacted))\n")
            return nil
        }
        do {
            switch content {
            case .file(let path):
                return try InputFiles.withContents(of: InputFile(path: path, isExplicit: true)) { bytes, release in
                    try loader.load(bytes, release: release, path: url.redacted, defaultName: url.defaultName,
                        source: url.redacted)
                } streaming: { read in
                    try loader.load(streaming: read, path: url.redacted, defaultName: url.defaultName,
                        source: url.redacted)
                }
            case .bytes(let bytes):
                return try loader.load(bytes, path: url.redacted, defaultName: url.defaultName, source: url.redacted)
            }
        } catch {
            // A copy that went bad between the fetch and now is no copy: told, and left out.
            let why = (error as? UnreadableInput)?.reason ?? (error as? NotICalendar)?.reason ?? "\(error)"
            StandardError.write("ics-agenda: \(PrintableText.escaped(url.redacted)): its copy cannot be read: " +
                "\(PrintableText.escaped(why)); left out\n")
            return nil
        }
    }

    /// Runs `body`, a load of `file`: its error ends the run when the file
    /// was named, else it is told and the file skipped (and counted: in
    /// every mode alike, `--strict` then fails on it).
    func skippingWhenFound(_ file: InputFile, _ body: () throws -> LoadedCalendar) throws -> LoadedCalendar? {
        do {
            return try body()
        } catch where !file.isExplicit {
            skipped.add(notCalendar: error is NotICalendar)
            if warnings != .none {
                StandardError.write("ics-agenda: warning: \(PrintableText.escaped("\(error)")); skipped\n")
            }
            return nil
        }
    }

    /// Tells a calendar's damage, as much as `warnings` asks.
    func tell(_ calendar: LoadedCalendar) {
        for line in WarningReport.lines(calendar.diagnostics, detail: warnings) {
            StandardError.write("ics-agenda: warning: \(line)\n")
        }
    }
}
