import AgendaCore
import AgendaSystem
import ArgumentParser
import Foundation
import ICalAdapter
import Subscriptions

#if canImport(Glibc)
    import Glibc
#endif

/// What the inputs gave: the calendars read, and what the run must still say.
struct LoadedInputs {
    var calendars: [LoadedCalendar] = []
    /// How old each URL calendar's copy is, by its place in `calendars`
    /// (nil: a copy whose time is in the future, of unknown age).
    var copyAges: [Int: TimeInterval?] = [:]
    /// An input named had nothing to read (a file missing or unreadable, a
    /// URL without copy): once the others are printed, the run ends with status 66.
    var missing = false
    /// How many named files and folders could not be read (`--strict` fails on them).
    var missingInputs = 0
    /// Files and folders found that could not be read, and files found
    /// that are not iCalendar: each told and skipped (`--strict` fails on them).
    var unreadable = 0
    var notCalendar = 0

    /// Ends the run with status 66 when a URL had nothing to read.
    func finish() throws {
        if missing { throw ExitCode(66) }
    }
}

/// The pipeline in one place: inputs → parse and expand (ICalAdapter) →
/// group (AgendaBuilder) → format (TextFormatter, JSONLinesFormatter).
struct AgendaPipeline {
    let settings: Settings

    /// Reads every input. Warnings go to stderr as they come; an input named
    /// (on the command line or in the configuration) that is missing or
    /// cannot be read is told and left out, as a URL with nothing to read is
    /// (`LoadedInputs.missing`: one moved file must not blank the cron mail);
    /// one that is not iCalendar stops the run; one found in a folder is
    /// skipped with a warning.
    /// Every mode reads alike: a file in a folder that is not iCalendar or
    /// cannot be read is told and skipped, and counted in `unreadable` and
    /// `notCalendar`; `--strict`'s caller fails on what the warnings tell.
    /// - Parameter warnings: how much is told of each file's damage.
    /// - Parameter fetch: how URLs are fetched (`--refresh`, `--offline`).
    /// - Parameter me: my calendar addresses (`--me`).
    /// - Parameter readsAlarms: read VALARMs (`alarms`, `--format ics`).
    /// - Parameter keepsText: keep each component's text (`--format ics --series`).
    /// - Parameter ringing: `alarms`' span: each input is read over `window`
    ///   widened as far as its alarms ring from their occurrences.
    static func load(
        _ paths: [String], window: AgendaWindow, warnings: WarningDetail = .summary, fetch: SubscriptionFetch? = nil,
        me: Set<String> = [], readsAlarms: Bool = false, keepsText: Bool = false, ringing: ClosedRange<Date>? = nil
    ) throws -> LoadedInputs {
        var loader = CalendarLoader(window: window, threads: threads)
        loader.me = me
        loader.readsAlarms = readsAlarms
        loader.keepsText = keepsText
        loader.ringing = ringing
        let reader = InputReader(loader: loader, warnings: warnings)
        var loaded = LoadedInputs()
        func tell(_ error: UnreadableInput) {
            StandardError.write("ics-agenda: \(PrintableText.escaped("\(error)"))\n")
            loaded.missing = true
            loaded.missingInputs += 1
        }
        let sources = try InputFiles.expand(paths, missing: tell) {
            if warnings != .none { StandardError.write("ics-agenda: warning: \($0)\n") }
            reader.skipped.add(notCalendar: false)
        }
        var (outcomes, accountOutcomes) = remote(sources, fetch: fetch ?? AgendaPipeline.defaultFetch(),
            warnings: warnings)
        for source in sources {
            switch source {
            case .file(let file):
                do {
                    if let calendar = try reader.read(file) {
                        reader.tell(calendar)
                        loaded.calendars.append(calendar)
                    }
                } catch let error as UnreadableInput {
                    tell(error)
                }
            case .folder(let folder):
                do {
                    loaded.calendars += try FolderReader(reader: reader).read(folder)
                } catch let error as UnreadableInput {
                    tell(error)
                }
            case .url(let url):
                guard let outcome = outcomes.removeValue(forKey: url) else { continue }
                if let calendar = try reader.read(outcome) {
                    reader.tell(calendar)
                    loaded.copyAges.updateValue(outcome.age, forKey: loaded.calendars.count)
                    loaded.calendars.append(calendar)
                } else {
                    loaded.missing = true
                }
            case .caldav(let account):
                guard let outcome = accountOutcomes.removeValue(forKey: account) else { continue }
                if let warning = outcome.warning, warnings != .none {
                    StandardError.write("ics-agenda: warning: \(PrintableText.escaped(warning))\n")
                }
                if let error = outcome.error {
                    StandardError.write("ics-agenda: \(PrintableText.escaped(error))\n")
                    loaded.missing = true
                }
                for copy in outcome.calendars {
                    let calendars = try FolderReader(reader: reader).read(AgendaPipeline.folder(of: copy, in: account))
                    for calendar in calendars {
                        loaded.copyAges.updateValue(outcome.age, forKey: loaded.calendars.count)
                        loaded.calendars.append(calendar)
                    }
                }
            }
        }
        loaded.unreadable = reader.skipped.unreadable
        loaded.notCalendar = reader.skipped.notCalendar
        return loaded
    }

    /// Every URL fetched and every CalDAV account synced, before any input
    /// is read: the URLs at once (the wait is the slowest one's), then the
    /// accounts with the same `--refresh`, `--offline` and cache; what the
    /// logins have to tell (a netrc others can read, a credential helper
    /// that failed) told once.
    private static func remote(_ sources: [InputSource], fetch: SubscriptionFetch, warnings: WarningDetail)
        -> (urls: [SubscriptionURL: SubscriptionFetch.Outcome], accounts: [DAVAccount: DAVFetch.Outcome])
    {
        let urls = sources.compactMap { if case .url(let url) = $0 { url } else { nil } }
        let fetched = urls.isEmpty ? [] : fetch.fetch(urls)
        let accounts = sources.compactMap { if case .caldav(let account) = $0 { account } else { nil } }
        let synced = accounts.isEmpty ? [] : DAVFetch(as: fetch).fetch(accounts)
        for warning in fetch.credentials.takeWarnings() where warnings != .none {
            StandardError.write("ics-agenda: warning: \(PrintableText.escaped(warning))\n")
        }
        return (Dictionary(zip(urls, fetched), uniquingKeysWith: { a, _ in a }),
            Dictionary(zip(accounts, synced), uniquingKeysWith: { a, _ in a }))
    }

    /// A CalDAV calendar's copy as the vdir collection it is, read as any
    /// other (`FolderReader`). Its path is written as the account shown and
    /// the copy's folder name (`davs://host/…/HASH`, `davs://host//HASH`): the collection's
    /// source is then the account as printed, not the cache folder.
    static func folder(of copy: DAVCalendarCopy, in account: DAVAccount) -> InputFolder {
        var folder = InputFolder(path: account.redacted + "/" + (copy.folder as NSString).lastPathComponent)
        for marker in ["displayname", "color"] { folder.mark(marker, path: copy.folder + "/" + marker) }
        folder.files = copy.files.map { file in
            InputFile(path: file.path, isExplicit: false, size: file.size,
                identity: FileIdentity(device: file.device, inode: file.inode))
        }
        return folder
    }

    /// Fetches with the cache of this user's environment.
    private static func defaultFetch() -> SubscriptionFetch {
        let folder = SubscriptionCache.location(environment: ProcessInfo.processInfo.environment)
        return SubscriptionFetch(cache: SubscriptionCache(folder: folder))
    }

    func render(_ calendars: [LoadedCalendar], options: AgendaOptions, environment: [String: String],
        to out: inout BufferedOutput) {
        let builder = AgendaBuilder(window: settings.window, today: settings.today, selection: options.selection)
        let formats = LocaleFormats(localeIdentifier: settings.localeIdentifier, clock: settings.clock)
        let grouping: SectionGrouping =
            switch options.groupBy {
            case .day: .day
            case .week: .week(firstWeekday: formats.firstWeekday)
            case .month: formats.monthGrouping
            }
        let sections = grouping.group(builder.build(parts: calendars.map(\.occurrences),
            threads: AgendaPipeline.workerCount))
        let today = options.noRelative ? nil : settings.today
        let threads = AgendaPipeline.workerCount
        let formatter: any OutputFormatter<[AgendaSection]> =
            if let template = options.template?.value {
                TemplateFormatter(template: template, formats: formats)
            } else {
                switch options.format {
                case .text:
                    TextFormatter(
                        formats: formats,
                        style: TerminalStyle(
                            enabled: AgendaPipeline.useColor(options.color, environment: environment),
                            trueColor: TerminalStyle.trueColor(environment: environment)),
                        showCalendar: options.showCalendar, today: today, threads: threads)
                case .json: JSONLinesFormatter(clock: settings.clock, threads: threads)
                case .markdown: MarkdownFormatter(formats: formats, today: today, showCalendar: options.showCalendar)
                case .html: HTMLFormatter(formats: formats, today: today, showCalendar: options.showCalendar)
                case .ics: ICSWriter(clock: settings.clock, now: settings.now, me: options.common.me,
                    series: options.writesSeries)
                }
            }
        formatter.write(sections, to: &out)
    }

    /// How many threads place rows and write text and JSON: ICS_AGENDA_THREADS, or
    /// every core (at most 8). Small agendas use one whatever this says.
    static var workerCount: Int { threads ?? min(ProcessInfo.processInfo.activeProcessorCount, 8) }

    /// ICS_AGENDA_THREADS fixes how many threads read components, place rows
    /// and write text and JSON (tests use it to show that the output does not depend
    /// on it); otherwise every core is used on large inputs.
    static let threads = ProcessInfo.processInfo.environment["ICS_AGENDA_THREADS"].flatMap { Int($0) }
        .map { min(max($0, 1), 64) }

    static func useColor(_ choice: ColorChoice, environment: [String: String]) -> Bool {
        switch choice {
        case .always: true
        case .never: false
        case .auto: isatty(1) != 0 && (environment["NO_COLOR"] ?? "").isEmpty
        }
    }
}
