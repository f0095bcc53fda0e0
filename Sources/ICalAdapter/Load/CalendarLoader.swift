import AgendaCore
import Foundation

/// The input is not an iCalendar stream at all (exit status 65).
package struct NotICalendar: Error, CustomStringConvertible {
    package let path: String
    package let reason: String
    package var description: String { "\(path): not an iCalendar file: \(reason)" }
}

/// Reads one calendar with libical and expands it over a window: the
/// adapter's entry point. libical itself is met only in `Libical/`.
///
/// Components are framed by `ComponentSplitter` and parsed one at a time,
/// VTIMEZONEs first; each is read into Swift values and freed before the
/// next, so memory follows the largest component, not the file.
package struct CalendarLoader {
    package private(set) var window: AgendaWindow
    /// How many threads read components: nil for every core on a large
    /// file. The agenda is the same whatever the number.
    package let threads: Int?
    /// Rows beyond one a day that the file's series may list together
    /// (`rowsPerFile`; tests give a small one).
    package let rowBudget: Int

    /// Rows beyond one a day that the series of one file may list together
    /// (each series at most `RecurrenceExpander.maxInstances`): once spent,
    /// a further series lists one row a day of the window, with a warning.
    /// Real calendars do not come near it (no series of gencal's 300,000
    /// components lists more than one row a day); it bounds what a small
    /// hostile file costs to what the same file of daily events would: a
    /// thousand `FREQ=SECONDLY` rules would otherwise make a hundred
    /// million rows.
    static let rowsPerFile = 1_000_000

    /// The calendar's name whatever the input says (a vdir collection's
    /// `displayname`); nil: `X-WR-CALNAME`, else the default name.
    package var calendarName: String?
    /// The calendar's colour whatever the input says (a vdir collection's
    /// `color` file); nil: `X-APPLE-CALENDAR-COLOR`, else `COLOR`, else none.
    package var calendarColor: String?
    /// My calendar addresses (`--me`), normalized (`CalendarAddress`):
    /// each event's PARTSTAT of me is read (`Event.partstat`).
    package var me: Set<String> = []
    /// Whether each item's VALARMs are read (`Event.alarms`, `Reminder.alarms`).
    package var readsAlarms = false
    /// Whether each item keeps its component's whole text (`Event.whole`,
    /// `Reminder.whole`: `--format ics --series`); nothing is kept otherwise.
    package var keepsText = false
    /// `alarms`: when the alarms looked for ring. Each input is read over
    /// `window` widened as far as its alarms ring from their occurrences
    /// (`AlarmReach`); the calendar says so (`LoadedCalendar.window`).
    package var ringing: ClosedRange<Date>?
    /// Warnings about the input found before it is framed (runs of NUL
    /// bytes taken out), told with the calendar's own.
    var readWarnings: [Warning] = []
    /// The input is UTF-8 already (UTF-16 turned into it): its NUL bytes
    /// are not looked at for UTF-16 again.
    var isUTF8 = false
    /// Each VCALENDAR of the input is a file of its own (a vdir collection
    /// read joined): its zones, and what they may cost, are its own.
    var zonesPerCalendar = false
    /// Where each file of a joined collection starts in the bytes read (`FileStartSplit`); none for other input,
    /// and none once the bytes are copied to be read (`decode`).
    var fileStarts: [FileStart] = []

    /// The largest stretch of an input framed at once, and the largest
    /// component read (`InputSegments`): 64 MB. Tests give small ones.
    package var stretchBytes = InputSegments.stretchBytes
    /// The most components framed at once.
    package var stretchComponents = InputSegments.stretchComponents

    package init(window: AgendaWindow, threads: Int? = nil, rowBudget: Int = CalendarLoader.rowsPerFile) {
        self.window = window
        self.threads = threads
        self.rowBudget = rowBudget
    }

    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - path: how warnings name the input.
    ///   - defaultName: the calendar's name when it has no `X-WR-CALNAME`.
    ///   - source: the folder that holds it.
    package func load(_ data: Data, path: String, defaultName: String, source: String) throws -> LoadedCalendar {
        try load(Array(data), path: path, defaultName: defaultName, source: source)
    }

    package func load(_ input: [UInt8], path: String, defaultName: String, source: String) throws -> LoadedCalendar {
        try input.withUnsafeBufferPointer { try load($0, path: path, defaultName: defaultName, source: source) }
    }

    /// Reads a calendar from a stream (standard input, a pipe) as it comes:
    /// an input up to `InputSegments.stretchBytes` is read whole, as a file
    /// is; a longer one a stretch at a time, so that an endless stream is
    /// read in bounded memory. `read` fills the buffer it is given and
    /// returns how many bytes it wrote, 0 at the end.
    package func load(
        streaming read: (UnsafeMutableRawBufferPointer) throws -> Int, path: String, defaultName: String, source: String
    ) throws -> LoadedCalendar {
        let stretch = stretchBytes
        var input = StreamInput()
        try input.fill(upTo: 12, read)
        input.decide()
        try input.fill(upTo: stretch, read)
        if input.ended {
            // All of it: read as a file is, with the runs of NUL bytes taken out so far.
            var whole = self
            whole.isUTF8 = input.wasUTF16
            whole.readWarnings = input.nulWarnings(linesBefore: 0)
            return try whole.load(input.buffer, path: path, defaultName: defaultName, source: source)
        }
        if input.buffer.isEmpty {
            // A stretch of NUL bytes and nothing else (`/dev/zero`).
            throw NotICalendar(path: path, reason: "it looks like binary data (NUL bytes only)")
        }
        input.skipByteOrderMark()
        // Rules after the window are parsed: a RANGE=THISANDFUTURE later in the stream could move them.
        var reader = StretchReader(loader: self, path: path, defaultName: defaultName, source: source, release: nil)
        // Within a component too large to read: its bytes are dropped as they come, up to the next one.
        var skipping = false
        while true {
            try input.fill(upTo: stretch, read)
            if input.buffer.isEmpty {
                // Past a stretch of NUL bytes (an endless stream of them is read on in bounded memory).
                if input.ended { break }
                continue
            }
            for warning in input.nulWarnings(linesBefore: reader.lines) { reader.warn(warning) }
            let ended = input.ended
            let consumed: Int = try input.buffer.withUnsafeBufferPointer { bytes in
                if skipping {
                    // The component ends where the next begins.
                    if let cut = InputSegments.firstCut(in: bytes, from: 0, before: bytes.count) {
                        try reader.skip(bytes, 0..<cut, warn: false)
                        skipping = false
                        return cut
                    }
                    // The last, unfinished line may be that BEGIN line: it is kept.
                    let cut = ended ? bytes.count : (bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count)
                    try reader.skip(bytes, 0..<cut, warn: false)
                    return cut
                }
                if ended { return try reader.take(Stretch(bytes, 0..<bytes.count)) }
                if let cut = InputSegments.lastCut(in: bytes, after: 0, before: bytes.count)
                    ?? InputSegments.lastCutAfterEnd(in: bytes, after: 0, before: bytes.count)
                {
                    return try reader.take(Stretch(bytes, 0..<cut))
                }
                // One component fills the stretch: told, and dropped up to the next.
                let cut = bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
                try reader.skip(bytes, 0..<cut, warn: true)
                skipping = true
                return cut
            }
            if consumed == 0 && ended { break }
            input.consume(consumed)
        }
        for warning in input.nulWarnings(linesBefore: reader.lines) { reader.warn(warning) }
        return try input.buffer.withUnsafeBufferPointer { try reader.finish($0) }
    }

    /// Reads a calendar from memory the caller owns (a mapped file).
    /// `release` is told which byte ranges will not be read again, so that
    /// their pages can go back to the system: memory then follows the
    /// largest component, not the file.
    ///
    /// The bytes are first made ready to read (`decode`, a step at a time:
    /// UTF-16, runs of NUL bytes, odd line ends, the window alarms need),
    /// then read once (`read`).
    package func load(
        _ input: UnsafeBufferPointer<UInt8>, release: ((Range<Int>) -> Void)? = nil, path: String, defaultName: String,
            source: String
    ) throws -> LoadedCalendar {
        var loader = self
        var copy: [UInt8]? = nil
        var widened: AgendaWindow? = nil
        /// `body` over the bytes to read now: the decoded copy (no pages of
        /// it to release), else the input.
        func current<T>(_ body: (UnsafeBufferPointer<UInt8>, ((Range<Int>) -> Void)?) throws -> T) throws -> T {
            try copy.map { text in try text.withUnsafeBufferPointer { try body($0, nil) } } ?? body(input, release)
        }
        while true {
            switch try current({ try loader.decode($0, release: $1, path: path) }) {
            case .copied(let text, var next):
                next.fileStarts = []
                (copy, loader) = (text, next)
            case .widened(let next):
                (loader, widened) = (next, next.window)
            case .streamed:
                // UTF-16: read as a stream is, as UTF-8 a stretch at a time;
                // the pages read go back as they are copied.
                loader.fileStarts = []
                return try current { try loader.loadUTF16($0, release: $1, path, defaultName, source) }
            case .ready:
                var calendar = try current {
                    try loader.read($0, release: $1, path: path, defaultName: defaultName, source: source)
                }
                if let widened { calendar.window = widened }
                return calendar
            }
        }
    }

    /// What `decode` found the bytes need before they are read.
    private enum DecodeStep {
        /// UTF-16: read through the stream's decoder (`loadUTF16`).
        case streamed
        /// A copy to read instead, and the loader to read it with (its warnings).
        case copied([UInt8], CalendarLoader)
        /// The loader to read with: its window widened for the alarms that may ring.
        case widened(CalendarLoader)
        /// Nothing more: read them.
        case ready
    }

    /// One step of making the bytes ready to read, in order: UTF-16, runs
    /// of NUL bytes (a zero-filled tail: taken out, each told), line ends
    /// of CR alone, CR CR LF or LF CR (read as LF), the window of the
    /// alarms that may ring.
    private func decode(_ input: UnsafeBufferPointer<UInt8>, release: ((Range<Int>) -> Void)?,
        path: String) throws -> DecodeStep {
        if !isUTF8, TextBytes.utf16ByteOrder(input) != nil { return .streamed }
        let runs = NULRuns.find(in: input, large: stretchBytes, release: release)
        if !runs.isEmpty {
            let text = NULRuns.removing(runs, from: input)
            if text.allSatisfy(TextBytes.isBlankOrLineEnd) {
                throw NotICalendar(path: path, reason: "it looks like binary data (NUL bytes only)")
            }
            var loader = self
            loader.readWarnings += NULRuns.warnings(runs, in: input)
            return .copied(text, loader)
        }
        if let text = LineEndings.normalized(input) { return .copied(text, self) }
        if let ringing, readsAlarms {
            var widened = self
            widened.ringing = nil
            widened.window = AlarmReach(scanning: input).window(ringing: ringing, around: window)
            return .widened(widened)
        }
        return .ready
    }

    /// UTF-16 bytes read through the stream's decoder.
    private func loadUTF16(
        _ input: UnsafeBufferPointer<UInt8>, release: ((Range<Int>) -> Void)?, _ path: String, _ defaultName: String,
            _ source: String
    ) throws -> LoadedCalendar {
        var offset = 0
        return try load(
            streaming: { out in
                let n = min(out.count, input.count - offset)
                guard n > 0 else { return 0 }
                out.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: input[offset..<(offset
                    + n)])))
                release?(offset..<(offset + n))
                offset += n
                return n
            }, path: path, defaultName: defaultName, source: source)
    }

    /// Reads bytes that are ready (`decode`): UTF-8, LF or CRLF line ends.
    private func read(
        _ input: UnsafeBufferPointer<UInt8>, release: ((Range<Int>) -> Void)?, path: String, defaultName: String,
            source: String
    ) throws -> LoadedCalendar {
        // A UTF-8 byte-order mark is skipped.
        let skip = TextDecoding.hasUTF8BOM(input) ? 3 : 0
        let buffer = UnsafeBufferPointer(rebasing: input[skip...])
        let shifted = release.map { release in
            { (range: Range<Int>) in release((range.lowerBound + skip)..<(range.upperBound + skip)) }
        }
        var shiftedLoader = self
        shiftedLoader.fileStarts = skip == 0 ? fileStarts : []
        var reader = StretchReader(loader: shiftedLoader, path: path, defaultName: defaultName, source: source,
            release: shifted)
        // The prefilter needs to know; on a large file it is read beside the framing, on another core.
        let scanning = DispatchGroup()
        let scan = SeriesMoveScan(text: buffer)
        if buffer.count < 1 << 20 {
            scan.run()
        } else if buffer.count <= stretchBytes {
            DispatchQueue.global().async(group: scanning) { scan.run() }
        } else {
            scan.runInStretches(of: stretchBytes, release: shifted)
        }
        if buffer.count > stretchBytes {
            reader.zoneStarts = InputSegments.zoneStarts(in: buffer, stretch: stretchBytes, release: shifted)
        }
        // A large input is framed and read a stretch at a time; one of up to
        // 64 MB (and 262,144 components) is one stretch.
        var start = 0
        var scanned = false
        repeat {
            let limit = min(start + stretchBytes, buffer.count)
            let cut = limit == buffer.count
                ? limit : InputSegments.lastCut(in: buffer, after: start, before: limit)
                    ?? InputSegments.lastCutAfterEnd(in: buffer, after: start, before: limit)
            guard let cut else {
                let next = InputSegments.firstCut(in: buffer, from: limit, before: buffer.count) ?? buffer.count
                try reader.skip(buffer, start..<next, warn: true)
                shifted?(start..<next)
                start = next
                continue
            }
            if !scanned {
                scanned = true
                scanning.wait()
                reader.skipsRules = !scan.mayMoveSeries
            }
            let stopped = try reader.take(Stretch(buffer, start..<cut))
            guard stopped > start else { break }
            start = stopped
        } while start < buffer.count
        return try reader.finish(buffer)
    }
}
