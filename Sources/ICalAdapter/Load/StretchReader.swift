import AgendaCore
import Foundation

/// Reads one input a stretch at a time (`InputSegments`): each stretch is
/// framed, its components read and applied in file order into one
/// `LoadRun`, and its bytes given back before the next, so that memory
/// follows the largest component and the rows listed, not the input.
struct StretchReader {
    let loader: CalendarLoader
    let path: String
    let defaultName: String
    let source: String
    let release: ((Range<Int>) -> Void)?
    /// Whether the prefilter may skip a rule that starts after the window (`WindowPrefilter.skipsRules`).
    var skipsRules = false

    /// The VTIMEZONEs of a large mapped input, read before its first stretch.
    var zoneStarts: [(at: Int, linesBefore: Int)] = []

    private var run: LoadRun?
    private var wrTimezone: String?
    /// Lines before the next stretch.
    private(set) var lines = 0
    /// The warning that the input ends without END:VCALENDAR, as the
    /// stretch read last gives it (`ComponentSplitter.Result`).
    private var cutAfterLastComponent: Warning?
    /// BEGIN:VCALENDAR lines read so far (`ComponentSplitter.split`).
    private var calendarsSeen = 0
    /// Components too large to read, told once the calendar is known.
    private var tooLarge: [(line: Int, message: String)] = []
    /// Warnings about the text found as it was read (`CalendarLoader.readWarnings`, runs of
    /// NUL bytes in a stream), told once the calendar is known.
    private var early: [Warning] = []

    init(loader: CalendarLoader, path: String, defaultName: String, source: String, release: ((Range<Int>) -> Void)?) {
        self.loader = loader
        self.path = path
        self.defaultName = defaultName
        self.source = source
        self.release = release
    }

    /// Frames and reads the components of a stretch (up to
    /// `CalendarLoader.stretchComponents` of them); returns where it stopped.
    mutating func take(_ input: Stretch) throws -> Int {
        var stretch = input
        stretch.linesBefore = lines
        let bytes = stretch.bytes, range = stretch.range
        let onEveryCore = loader.fileStarts.isEmpty ? nil
            : FileStartSplit(starts: loader.fileStarts, workers: loader.threads.map { max(1, $0) }
                ?? min(ProcessInfo.processInfo.activeProcessorCount, 8))
                .split(stretch, maxChunks: loader.stretchComponents, calendarsSeen: calendarsSeen)
        var split = onEveryCore
            ?? ComponentSplitter.split(stretch, maxChunks: loader.stretchComponents, calendarsSeen: calendarsSeen)
        try start(split, bytes, range)
        for note in split.notes { run!.warn(note) }
        calendarsSeen = split.calendarsSeen
        // How the input ends: the last stretch with a component or END:VCALENDAR says.
        if !split.chunks.isEmpty || split.endedCalendar { cutAfterLastComponent = split.cutAfterLastComponent }
        run!.read(&split.chunks, from: bytes, stretch: range.lowerBound..<split.stoppedAt, wrTimezone: wrTimezone,
            me: loader.me, readsAlarms: loader.readsAlarms,
            keepsText: loader.keepsText)
        lines += split.lines
        return split.stoppedAt
    }

    /// Passes over `bytes[range]`, one component (or text) too large to
    /// read, or the first part of one (`warn`: the warning is given there).
    mutating func skip(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, warn: Bool) throws {
        // Components this program does not read (`BEGIN:X-WIDGET`, valid
        // RFC 5545 x-comps) up to the next one it reads: nothing is lost.
        let name = StretchReader.beginName(bytes, range)
        let unread = name.map { $0 != "a component" && !LineScan.topLevelNames.contains($0) } ?? false
        guard warn && !(unread && run != nil) else {
            lines += InputSegments.lineFeeds(in: bytes, range)
            return
        }
        if run == nil {
            // Text that is not iCalendar at all stops here, as a small file of it does.
            let head = range.lowerBound..<min(range.upperBound, range.lowerBound + (1 << 16))
            if !ComponentSplitter.split(bytes, in: head).looksLikeICalendar {
                throw NotICalendar(path: path,
                    reason: TextDecoding.describeNonCalendar(UnsafeBufferPointer(rebasing: bytes[head])))
            }
        }
        let size = loader.stretchBytes >= 1 << 20 ? "\(loader.stretchBytes >> 20) MB" : "\(loader.stretchBytes) bytes"
        let message = name.map { "\($0): larger than \(size), more than one component is read; skipped" }
            ?? "more than \(size) with no component in it; skipped"
        if run != nil { run!.warn(lines + 1, .componentTooLarge, message) } else {
            tooLarge.append((lines + 1, message))
        }
        lines += InputSegments.lineFeeds(in: bytes, range)
    }

    /// Tells a warning about the text read, now or once the calendar is known.
    mutating func warn(_ warning: Warning) {
        if run != nil { run!.warn(warning) } else { early.append(warning) }
    }

    /// The component a stretch starts with, when its first line is a BEGIN line.
    private static func beginName(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        let end = LineScan.lineFeed(in: bytes, from: range.lowerBound,
            before: min(range.upperBound, range.lowerBound + 200))
        var line = UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<end])
        if line.last == 0x0D { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        return LineScan.keyword(line, "BEGIN").map { $0.isEmpty ? "a component" : $0 }
    }

    /// The calendar, once its first stretch is framed.
    private mutating func start(_ split: ComponentSplitter.Result, _ bytes: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>) throws {
        guard run == nil else { return }
        guard split.looksLikeICalendar || !tooLarge.isEmpty else {
            throw NotICalendar(path: path,
                reason: TextDecoding.describeNonCalendar(UnsafeBufferPointer(rebasing: bytes[range])))
        }
        let info = CalendarInfo(
            name: loader.calendarName ?? split.calendarName ?? defaultName, source: source, path: path,
            color: loader.calendarColor ?? split.calendarColor)
        var run = LoadRun(window: loader.window, calendar: info, path: path)
        run.threads = loader.threads
        run.rowBudget = loader.rowBudget
        run.skipsRules = skipsRules
        run.release = release
        if loader.zonesPerCalendar {
            run.zoneDefinitions.zones.isScopedToCalendars = true
            run.zoneDefinitions.zoneCost.isPerCalendar = true
        }
        for w in loader.readWarnings + early { run.warn(w) }
        for w in tooLarge { run.warn(w.line, .componentTooLarge, w.message) }
        for zone in zoneStarts {
            let split = ComponentSplitter.split(bytes, in: zone.at..<min(bytes.count, zone.at + loader.stretchBytes),
                linesBefore: zone.linesBefore, maxChunks: 1)
            guard let chunk = split.chunks.first, chunk.name == "VTIMEZONE" else { continue }
            run.define(zone: chunk, bytes)
            run.zoneDefinitions.zonesRead.insert(zone.at)
        }
        tooLarge = []
        early = []
        wrTimezone = split.wrTimezone
        self.run = run
    }

    /// The file's occurrences, once every stretch is read.
    mutating func finish(_ bytes: UnsafeBufferPointer<UInt8>) throws -> LoadedCalendar {
        if run == nil { _ = try take(Stretch(bytes, bytes.count..<bytes.count)) }
        if let cut = cutAfterLastComponent { run!.warn(cut) }
        return run!.finish()
    }
}

