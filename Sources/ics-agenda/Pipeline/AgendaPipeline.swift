import AgendaCore
import Foundation
import ICalAdapter

#if canImport(Glibc)
    import Glibc
#endif

/// The pipeline in one place: inputs → parse and expand (ICalAdapter) →
/// group (AgendaBuilder) → format (TextFormatter, JSONLinesFormatter).
struct AgendaPipeline {
    let settings: Settings

    /// Reads every input. Warnings go to stderr as they come; an input named
    /// on the command line that is missing or not iCalendar stops the run,
    /// one found in a folder is skipped with a warning.
    /// - Parameter strict: a file in a folder that is not iCalendar or
    ///   cannot be read stops the run, as a file named on the command line
    ///   does (the caller then fails on any diagnostic too), and every
    ///   component is parsed, also one-off events far from the window.
    /// - Parameter warnings: how much is told of each file's damage.
    func load(_ paths: [String], strict: Bool = false, warnings: WarningDetail = .summary) throws -> [LoadedCalendar] {
        try AgendaPipeline.load(paths, window: settings.window, strict: strict, warnings: warnings)
    }

    static func load(_ paths: [String], window: AgendaWindow, strict: Bool = false, warnings: WarningDetail = .summary) throws -> [LoadedCalendar] {
        var skipped: [String] = []
        let files = try InputFiles.expand(paths) {
            if warnings != .none { StandardError.write("ics-agenda: warning: \($0)\n") }
            skipped.append($0)
        }
        if strict && !skipped.isEmpty {
            throw UnreadableInput(path: "--strict", reason: "\(skipped.count) file\(skipped.count == 1 ? "" : "s") or folder\(skipped.count == 1 ? "" : "s") could not be read")
        }
        let loader = CalendarLoader(window: window, threads: threads, readsEveryComponent: strict)
        var calendars: [LoadedCalendar] = []
        for file in files {
            do {
                let path = file.path == "-" ? "stdin" : file.path
                let calendar = try InputFiles.withContents(of: file) { bytes, release in
                    try loader.load(bytes, release: release, path: path, defaultName: file.defaultName, source: file.source)
                } streaming: { read in
                    try loader.load(streaming: read, path: path, defaultName: file.defaultName, source: file.source)
                }
                for line in WarningReport.lines(calendar.diagnostics, detail: warnings, strict: strict) { StandardError.write("ics-agenda: warning: \(line)\n") }
                calendars.append(calendar)
            } catch where !file.isExplicit && !strict {
                if warnings != .none { StandardError.write("ics-agenda: warning: \(PrintableText.escaped("\(error)")); skipped\n") }
            }
        }
        return calendars
    }

    func render(_ calendars: [LoadedCalendar], options: AgendaOptions, environment: [String: String], to out: inout BufferedOutput) {
        let builder = AgendaBuilder(window: settings.window, today: settings.today, selection: options.selection)
        let formats = LocaleFormats(localeIdentifier: settings.localeIdentifier, clock: settings.clock)
        let grouping: SectionGrouping =
            switch options.groupBy {
            case .day: .day
            case .week: .week(firstWeekday: formats.firstWeekday)
            case .month: formats.monthGrouping
            }
        let sections = grouping.group(builder.build(parts: calendars.map(\.occurrences), threads: AgendaPipeline.workerCount))
        let today = options.noRelative ? nil : settings.today
        if let template = options.template?.value {
            TemplateFormatter(template: template, formats: formats).write(sections, to: &out)
            return
        }
        switch options.format {
        case .text:
            let style = TerminalStyle(enabled: AgendaPipeline.useColor(options.color, environment: environment))
            TextFormatter(formats: formats, style: style, showCalendar: options.showCalendar, today: today)
                .write(sections, to: &out, threads: AgendaPipeline.workerCount)
        case .json:
            JSONLinesFormatter(clock: settings.clock).write(sections, to: &out, threads: AgendaPipeline.workerCount)
        case .markdown:
            MarkdownFormatter(formats: formats, today: today, showCalendar: options.showCalendar).write(sections, to: &out)
        case .html:
            // An empty agenda prints nothing at all, so that cron mails nothing.
            if !sections.isEmpty { HTMLFormatter(formats: formats, today: today, showCalendar: options.showCalendar).write(sections, to: &out) }
        case .ics:
            ICSWriter(clock: settings.clock).write(sections, to: &out)
        }
    }

    /// How many threads place rows and write text and JSON: ICS_AGENDA_THREADS, or
    /// every core (at most 8). Small agendas use one whatever this says.
    static var workerCount: Int { threads ?? min(ProcessInfo.processInfo.activeProcessorCount, 8) }

    /// ICS_AGENDA_THREADS fixes how many threads read components, place rows
    /// and write text and JSON (tests use it to show that the output does not depend
    /// on it); otherwise every core is used on large inputs.
    static let threads = ProcessInfo.processInfo.environment["ICS_AGENDA_THREADS"].flatMap { Int($0) }.map { min(max($0, 1), 64) }

    static func useColor(_ choice: ColorChoice, environment: [String: String]) -> Bool {
        switch choice {
        case .always: true
        case .never: false
        case .auto: isatty(1) != 0 && (environment["NO_COLOR"] ?? "").isEmpty
        }
    }
}
