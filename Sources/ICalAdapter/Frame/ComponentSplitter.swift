import AgendaCore
import Foundation

/// Frames an iCalendar text into its top-level components before libical
/// parses each one on its own.
///
/// This is framing, not parsing: it only follows `BEGIN`/`END` lines, read
/// as libical reads them (parameters, folds), and reads `X-WR-CALNAME` and
/// `X-WR-TIMEZONE`. It gives what libical cannot: the line where each
/// component starts, so that warnings can name it, and one component at a
/// time, so that a damaged one costs only itself. Framing damage it finds
/// (lost END lines, stray ones, nesting too deep) is noted in the component's
/// `FramedComponent.Repairs`, which `ChunkText` carries out before libical reads it.
struct ComponentSplitter {
    /// How deep components may nest inside a top-level one (VEVENT →
    /// VALARM is 2). Deeper ones are left out with a warning: nothing real
    /// nests so deep, and libical's parser and free would follow any depth.
    static let maxDepth = 32

    /// How many components one top-level component may hold (VALARMs in a
    /// VEVENT, observances in a VTIMEZONE). The ones after are left out with
    /// a warning: libical keeps each in about a kilobyte, so an event with a
    /// million alarms took a gigabyte; real ones hold a handful.
    static let maxInner = 10_000

    /// How many content lines one top-level component may hold (its own and
    /// its inner components', folds not counted). Past it, only the lines
    /// that say what and when (`essentialNames`, at most `maxEssentialPast`
    /// of each name: 200,000 EXDATEs do not push out the DTSTART after them)
    /// are read; the others are left out, told once. libical keeps
    /// each property in a few hundred bytes and reads a million in tens of
    /// seconds; a real component holds dozens, a big meeting a few thousand.
    static let maxLines = 100_000
    static let maxEssentialPast = 100
    static let essentialNames: [StaticString] = [
        "UID", "DTSTART", "DTEND", "DUE", "DURATION", "SUMMARY", "RRULE", "RDATE", "EXDATE", "RECURRENCE-ID",
        "SEQUENCE", "STATUS", "DTSTAMP", "LAST-MODIFIED", "TZID", "TZOFFSETFROM", "TZOFFSETTO",
    ]

    struct Result {
        var chunks: [FramedComponent] = []
        var calendarName: String?
        var wrTimezone: String?
        /// `X-APPLE-CALENDAR-COLOR` and RFC 7986 `COLOR` of the VCALENDAR, as `#rrggbb`.
        var appleColor: String?
        var color: String?
        /// The calendar's colour as the file gives it.
        var calendarColor: String? { appleColor ?? color }
        /// Damage outside any component: lines glued together.
        var notes: [Warning] = []
        /// The warning that the input ends without END:VCALENDAR after its
        /// last component, when this is its last stretch.
        var cutAfterLastComponent: Warning?
        /// Whether an END:VCALENDAR came after the last component framed.
        var endedCalendar = false
        /// The BEGIN:VCALENDAR lines framed so far (with the stretches before).
        var calendarsSeen = 0
        /// Whether a `BEGIN:VCALENDAR` or any component was seen at all.
        var looksLikeICalendar: Bool { sawCalendar || !chunks.isEmpty }
        var sawCalendar = false
        /// How many lines the framed bytes hold (the next byte starts line `linesBefore + lines + 1`).
        var lines = 0
        /// Where framing stopped: the end of the range, or the start of the
        /// line after the `maxChunks`-th component.
        var stoppedAt = 0
        /// Whether the first line opened a VCALENDAR with nothing open, and
        /// whether the text ended with nothing open or pending: framing
        /// a text cut there in two gives what framing it whole does (`FileStartSplit`).
        var startsWithCalendar = false
        var endsIdle = false
    }

    /// - Parameters:
    ///   - range: the bytes to frame (all when nil): a stretch that starts
    ///     at a line of its own and ends after a line feed, as `InputSegments` cuts them.
    ///   - linesBefore: the lines before the stretch, for line numbers.
    ///   - maxChunks: stop after this many components (at the end of one, where
    ///     framing the rest on its own gives what going on would).
    ///   - calendarsSeen: the BEGIN:VCALENDAR lines of the stretches before
    ///     (each VCALENDAR's components keep its own VTIMEZONEs).
    static func split(
        _ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>? = nil, linesBefore: Int = 0, maxChunks: Int = .max,
            calendarsSeen: Int = 0
    ) -> Result {
        var scanner = FrameScanner(bytes, in: range, linesBefore: linesBefore, maxChunks: maxChunks,
            calendarsSeen: calendarsSeen)
        return scanner.scan()
    }

    /// Frames one stretch of the input (see above).
    static func split(_ stretch: Stretch, maxChunks: Int = .max, calendarsSeen: Int = 0) -> Result {
        split(stretch.bytes, in: stretch.range, linesBefore: stretch.linesBefore, maxChunks: maxChunks,
            calendarsSeen: calendarsSeen)
    }

    /// The components a property may be found glued to (longest first where one begins another).
    static let gluedComponentNames = ["VCALENDAR", "VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VALARM",
        "STANDARD", "DAYLIGHT"]

    /// Whether the line is a BEGIN or END line of a component (a top-level one with `topLevelOnly`).
    static func isComponentLine(_ line: UnsafeBufferPointer<UInt8>, topLevelOnly: Bool) -> Bool {
        guard let name = LineScan.keyword(line, "BEGIN") ?? (topLevelOnly ? nil : LineScan.keyword(line, "END")) else {
            return false
        }
        return topLevelOnly ? LineScan.topLevelNames.contains(name) && name != "VCALENDAR" : isComponentName(name)
    }

    /// Whether a BEGIN or END line's word is a component name (RFC 5545
    /// 3.6: an iana-token or x-name, letters, digits and hyphens).
    static func isComponentName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    /// Where a second line starts on a BEGIN or END line whose component
    /// name runs straight into it: another BEGIN or END
    /// (`END:VEVENTBEGIN:VEVENT`), or a property (`BEGIN:VEVENTUID:1`).
    static func gluedKeyword(in line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let colon = line.firstIndex(of: 0x3A), colon <= 5,
            let name = LineScan.keyword(line, "BEGIN") ?? LineScan.keyword(line, "END") else {
            return nil
        }
        if !isComponentName(name) {
            for component in gluedComponentNames where name.hasPrefix(component) {
                let rest = name.utf8.dropFirst(component.utf8.count)
                let word = rest.prefix { ($0 >= 0x41 && $0 <= 0x5A) || $0 == 0x2D }
                if !word.isEmpty, word.count < rest.count, let after = rest.dropFirst(word.count).first,
                    after == 0x3A || after == 0x3B {
                    return colon + 1 + component.utf8.count
                }
            }
        }
        var i = colon + 2
        while i < line.count {
            // A glued keyword starts with its B or E (control characters before it are passed over).
            guard line[i] | 0x20 == 0x62 || line[i] | 0x20 == 0x65 else {
                i += 1
                continue
            }
            let rest = UnsafeBufferPointer(rebasing: line[i...])
            if let name = LineScan.keyword(rest, "BEGIN") ?? LineScan.keyword(rest, "END"),
                isComponentName(name) || name.contains(":") {
                return i
            }
            i += 1
        }
        return nil
    }

    /// The blanks that start the line at `start` when it is a property line
    /// indented as no iCalendar line is (a name after the blanks): the first
    /// line of a component whose lines a script indented.
    static func indentation(after start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let blanks = ContentLines.leadingBlanks(UnsafeBufferPointer(rebasing: bytes[start...]))
        let i = start + blanks
        guard blanks > 0 else { return 0 }
        // A name of letters, digits and hyphens, then ';' or ':'.
        var j = i
        while j < bytes.count, (bytes[j] | 0x20 >= 0x61 && bytes[j] | 0x20 <= 0x7A)
            || (bytes[j] >= 0x30 && bytes[j] <= 0x39) || bytes[j] == 0x2D {
            j += 1
        }
        guard j > i, j < bytes.count, bytes[j] == 0x3A || bytes[j] == 0x3B else { return 0 }
        return blanks
    }

    /// RFC 5545 TEXT unescaping: `\n`, `\,`, `\;`, `\\`.
    static func unescapeText(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x5C, i + 1 < bytes.count {
                let next = bytes[i + 1]
                out.append(next == 0x6E || next == 0x4E ? 0x0A : next)
                i += 2
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return TextBytes.string(out).trimmingWhitespace()
    }
}
