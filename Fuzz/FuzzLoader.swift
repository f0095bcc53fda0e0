// libFuzzer entry point over the adapter and the whole pipeline:
// bytes → CalendarLoader (framing, libical, expansion) → AgendaBuilder →
// every formatter → the `ics` output read back in.
//
// Compiled into the ICalAdapter module by scripts/fuzz.sh (not by SwiftPM):
// `swiftc -sanitize=fuzzer,address -parse-as-library`. A crash, a sanitizer
// report or an input slower than libFuzzer's -timeout is a finding.
import AgendaCore
import Foundation

private let clock = ZoneClock(TimeZone(identifier: "Europe/Berlin")!)
private let today = CivilDate(year: 2025, month: 3, day: 1)
private let window = AgendaWindow.oneYear(from: today, clock: clock)
/// A week of 2019, for odd-sized inputs: what the year from 2025 skips
/// unread (the window prefilter), this one reads, and the reverse.
private let pastWeek = AgendaWindow.days(7, from: CivilDate(year: 2019, month: 6, day: 1), clock: clock)
/// Made once: its date formatters cost more than a small calendar's parse.
/// The fuzzer runs one input at a time, on one thread.
nonisolated(unsafe) private let formats = LocaleFormats(localeIdentifier: "en_US", clock: clock)

/// Swallows formatter output: only crashes and hangs matter here.
private struct Sink: ByteOutputStream {
    var count = 0
    mutating func write(_ string: String) { count &+= string.utf8.count }
    mutating func write(bytes: UnsafeBufferPointer<UInt8>) { count &+= bytes.count }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // Odd-sized inputs are read over a week of 2019, so that both the
    // prefilter's skip and the full parse see the same kinds of component.
    // A small file budget: the same code paths, but an input of many
    // absurd rules costs a fraction of a second, so that -timeout=5 still
    // finds real hangs (the full budget is the tests' and the CLI's).
    let loader = CalendarLoader(window: size % 2 == 1 ? pastWeek : window, rowBudget: 20_000)
    guard let loaded = try? loader.load(bytes, path: "fuzz.ics", defaultName: "fuzz", source: ".") else { return 0 }
    for diagnostic in loaded.diagnostics { _ = diagnostic.description }

    // Large agendas are formatted in the tests; here they would only slow
    // the search down (a rule capped at 100,000 rows takes seconds under ASan).
    guard loaded.occurrences.count <= 5_000 else { return 0 }
    var selection = Selection()
    selection.showCompleted = true
    selection.showCancelled = true
    let sections = AgendaBuilder(window: loader.window, today: today, selection: selection).build(loaded.occurrences, threads: 2)
    let rows = sections.reduce(0) { $0 + $1.rows.count }
    guard rows <= 5_000 else { return 0 }
    var sink = Sink()
    TextFormatter(formats: formats, style: TerminalStyle(enabled: false), today: today).write(sections, to: &sink)
    JSONLinesFormatter(clock: clock).write(sections, to: &sink)
    MarkdownFormatter(formats: formats, today: today, showCalendar: true).write(SectionGrouping.week(firstWeekday: 2).group(sections), to: &sink)
    HTMLFormatter(formats: formats, today: today).write(SectionGrouping.month.group(sections), to: &sink)

    // The `ics` output must read back in as iCalendar.
    guard rows <= 500 else { return 0 }
    var ics = ""
    ICSWriter(clock: clock).write(sections, to: &ics)
    if !ics.isEmpty {
        do {
            _ = try loader.load(Array(ics.utf8), path: "fuzz-out.ics", defaultName: "fuzz", source: ".")
        } catch {
            fatalError("the ics output of a calendar is not iCalendar: \(error)")
        }
    }
    return 0
}
