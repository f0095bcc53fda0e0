import Foundation

/// Frames an iCalendar text into its top-level components before libical
/// parses each one on its own.
///
/// This is framing, not parsing: it only follows `BEGIN`/`END` lines, read
/// as libical reads them (parameters, folds), and reads `X-WR-CALNAME` and
/// `X-WR-TIMEZONE`. It gives what libical cannot: the line where each
/// component starts, so that warnings can name it, and one component at a
/// time, so that a damaged one costs only itself. Framing damage it finds
/// (lost END lines, stray ones, nesting too deep) is noted in the chunk's
/// `Repairs`, which `ChunkText` carries out before libical reads it.
struct ComponentSplitter {
    struct Chunk {
        /// Upper-case component name: `VEVENT`, `VTODO`, `VTIMEZONE`, ...
        let name: String
        let range: Range<Int>
        let firstLine: Int
        /// The components that lost their END line (innermost last): empty
        /// for a well-formed component.
        let unclosed: [String]
        /// Whether the chunk ends with its own END line.
        let rootClosed: Bool
        /// Whether its VCALENDAR has a METHOD: an iTIP message (RFC 5546),
        /// in which a VEVENT need not have a DTSTART (RFC 5545 3.6.1).
        var inITIPMessage = false
        /// What to mend before libical reads the chunk (ChunkText does it);
        /// nil for a well-formed component.
        var repairs: Repairs? = nil
        /// Which VCALENDAR of the file holds it (files and standard input
        /// may hold several one after the other): each has its own VTIMEZONEs.
        var calendar = 0
    }

    /// Framing damage inside one chunk, and how it is mended.
    struct Repairs {
        /// END lines to put back (innermost first) at a byte offset: where an
        /// outer END line, the next component or the end of the file shows
        /// that inner components were left open.
        var insertions: [(at: Int, names: [String])] = []
        /// Byte ranges libical does not see: stray END lines, components
        /// nested deeper than `maxDepth`, and the indentation of an indented
        /// component.
        var dropped: [Range<Int>] = []
        /// Byte offsets where a line break is put in: two lines glued
        /// together (`END:VALARMEND:VEVENT`).
        var lineBreaks: [Int] = []
        /// Warnings about what was mended, with their lines.
        var notes: [Warning] = []
    }

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
        var chunks: [Chunk] = []
        var calendarName: String?
        var wrTimezone: String?
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
    }

    /// Components that stand only at the top of a calendar: meeting one
    /// while another is open means the open one lost its END line.
    static let topLevelNames: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VCALENDAR"]

    /// - Parameters:
    ///   - range: the bytes to frame (all when nil): a stretch that starts
    ///     at a line of its own and ends after a line feed, as `InputSegments` cuts them.
    ///   - linesBefore: the lines before the stretch, for line numbers.
    ///   - maxChunks: stop after this many components (at the end of one, where
    ///     framing the rest on its own gives what going on would).
    ///   - calendarsSeen: the BEGIN:VCALENDAR lines of the stretches before
    ///     (each VCALENDAR's components keep its own VTIMEZONEs).
    static func split(
        _ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>? = nil, linesBefore: Int = 0, maxChunks: Int = .max, calendarsSeen: Int = 0
    ) -> Result {
        var result = Result()
        var stack: [String] = []  // open components inside the current chunk
        var chunkStart = 0
        var chunkLine = 0
        var chunkName = ""
        var unclosed: [String] = []
        var repairs = Repairs()
        // Inside a component nested too deep: where it started, and how deep inside it.
        var dropStart = 0
        var dropDepth = 0
        // Notes already given for this chunk, and how many stray END lines it has.
        var toldDepth = false
        var strayEnds = 0
        var innerCount = 0
        // Content lines of the current chunk (`maxLines`), and those left out past it.
        var chunkLines = 0
        var essentialPast = [Int](repeating: 0, count: essentialNames.count)
        var linesLeftOut = 0
        var pendingProperty: (name: String, value: [UInt8])? = nil
        // Leading blanks every line of the current chunk carries (a file
        // re-indented by a script), taken off before libical reads it.
        var chunkIndent = 0
        // Whether the current chunk's BEGIN line was indented too (a whole
        // component indented).
        var indentedBegin = false
        // Whether the VCALENDAR being read has a METHOD (an iTIP message).
        var calendarHasMethod = false
        // Whether END:VCALENDAR came after the last component (a file
        // without it may have been cut short).
        var calendarEnded = false
        // The rest of a line that held two BEGIN or END lines glued together
        // is read next, on the same line number.
        var gluedRest = false
        var lineNumber = linesBefore
        var pos = range?.lowerBound ?? 0
        let n = range?.upperBound ?? bytes.count
        // The VCALENDAR being read: the first is 0 (as are components before any).
        var calendarsSeen = calendarsSeen
        var calendar = max(0, calendarsSeen - 1)
        chunkStart = pos

        /// Ends the current chunk at `end`; when it ends without its own END
        /// line, END lines for every open component are put back there.
        func closeChunk(at end: Int, rootClosed: Bool = false) {
            if dropDepth > 0 {
                repairs.dropped.append(dropStart..<end)
                dropDepth = 0
            }
            if !rootClosed {
                unclosed += stack
                repairs.insertions.append((end, stack.reversed()))
            }
            if strayEnds > 1, let i = repairs.notes.firstIndex(where: { $0.message.hasSuffix("; ignored") }) {
                repairs.notes[i].message += " (and \(strayEnds - 1) more END line\(strayEnds > 2 ? "s" : "") without a BEGIN in this component)"
            }
            if linesLeftOut > 0, let i = repairs.notes.firstIndex(where: { $0.kind == "too many lines" }) {
                repairs.notes[i].message += " (\(linesLeftOut) line\(linesLeftOut == 1 ? "" : "s"))"
            }
            toldDepth = false
            strayEnds = 0
            innerCount = 0
            // Only a chunk past the limit has counted any (no allocation per chunk).
            if chunkLines > maxLines { essentialPast = essentialPast.map { _ in 0 } }
            chunkLines = 0
            linesLeftOut = 0
            chunkIndent = 0
            indentedBegin = false
            calendarEnded = false
            let mended = repairs.insertions.isEmpty && repairs.dropped.isEmpty && repairs.notes.isEmpty && repairs.lineBreaks.isEmpty ? nil : repairs
            result.chunks.append(
                Chunk(name: chunkName, range: chunkStart..<end, firstLine: chunkLine, unclosed: unclosed, rootClosed: rootClosed,
                    inITIPMessage: calendarHasMethod, repairs: mended, calendar: calendar))
            stack.removeAll()
            unclosed.removeAll()
            repairs = Repairs()
        }
        func finishProperty() {
            guard let p = pendingProperty else { return }
            let value = unescapeText(p.value)
            if p.name == "X-WR-CALNAME", result.calendarName == nil, !value.isEmpty { result.calendarName = value }
            if p.name == "X-WR-TIMEZONE", result.wrTimezone == nil, !value.isEmpty { result.wrTimezone = value }
            if p.name == "METHOD", !value.isEmpty { calendarHasMethod = true }
            pendingProperty = nil
        }

        var foldedLines = 0  // continuation lines of the last BEGIN or END line, counted after it
        var stoppedAt: (pos: Int, lines: Int)? = nil
        while pos < n {
            // After a component that ended with its own END line nothing of it is open.
            if result.chunks.count >= maxChunks && stack.isEmpty { break }
            if gluedRest { gluedRest = false } else { lineNumber += 1 + foldedLines }
            foldedLines = 0
            var lineStart = pos
            let lineEnd = ComponentSplitter.lineFeed(in: bytes, from: pos, before: n)
            pos = lineEnd < n ? lineEnd + 1 : n
            var contentEnd = lineEnd
            if contentEnd > lineStart && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            var line = UnsafeBufferPointer(rebasing: bytes[lineStart..<contentEnd])

            // A line of an indented component: read without the indentation,
            // which libical would take for folds (RFC 5545 3.1). Its BEGIN
            // and END lines may be indented less than what is inside, or
            // (the whole component indented) the BEGIN line itself.
            if let first = line.first, first == 0x20 || first == 0x09 {
                let blanks = line.prefix(while: { $0 == 0x20 || $0 == 0x09 }).count
                let strip: Int
                if chunkIndent > 0, !stack.isEmpty, line.count > chunkIndent, blanks >= chunkIndent {
                    strip = chunkIndent
                } else if chunkIndent > 0 || stack.isEmpty, blanks < line.count,
                    ComponentSplitter.isComponentLine(UnsafeBufferPointer(rebasing: line[blanks...]), topLevelOnly: stack.isEmpty)
                {
                    strip = blanks
                    if stack.isEmpty { indentedBegin = true }
                } else {
                    strip = 0
                }
                if strip > 0 {
                    if !stack.isEmpty { repairs.dropped.append(lineStart..<(lineStart + strip)) }
                    lineStart += strip
                    line = UnsafeBufferPointer(rebasing: bytes[lineStart..<contentEnd])
                }
            }

            // A folded continuation of a calendar-level property.
            if let first = line.first, first == 0x20 || first == 0x09 {
                if pendingProperty != nil { pendingProperty!.value.append(contentsOf: line.dropFirst()) }
                continue
            }
            finishProperty()
            /// Past `maxLines`, leaves the line out (with its folds) unless it
            /// is one of the few that say what and when.
            func leftOutPastLimit() -> Bool {
                chunkLines += 1
                guard chunkLines > maxLines else { return false }
                if let e = essentialNames.firstIndex(where: { ComponentSplitter.hasPropertyName(line, $0) }), essentialPast[e] < maxEssentialPast {
                    essentialPast[e] += 1
                    return false
                }
                var end = pos
                while end < n, bytes[end] == 0x20 || bytes[end] == 0x09 {
                    let next = ComponentSplitter.lineFeed(in: bytes, from: end, before: n)
                    end = next < n ? next + 1 : n
                    foldedLines += 1
                }
                if let last = repairs.dropped.last, last.upperBound == lineStart {
                    repairs.dropped[repairs.dropped.count - 1] = last.lowerBound..<end
                } else {
                    repairs.dropped.append(lineStart..<end)
                }
                if linesLeftOut == 0 {
                    repairs.notes.append(Warning(lineNumber, .tooManyLines, "too many lines",
                        "\(chunkName): more than \(maxLines) lines; from here on only the lines that say what and when are read, the others left out"))
                }
                linesLeftOut += 1
                pos = end
                return true
            }
            // Inside a component only BEGIN and END lines matter, and a line
            // that starts with a visible character other than B or E is
            // neither (only control characters and a byte-order mark are
            // passed over before the word): most lines end here.
            if !stack.isEmpty, let first = line.first, first > 0x20, first < 0x7F, first | 0x20 != 0x62, first | 0x20 != 0x65 {
                if leftOutPastLimit() { continue }
                // An X-LIC-ERROR written into the file (by a tool that read it
                // with libical and saved it again) is not libical's word on
                // this file: libical would report it as damage found now.
                if first | 0x20 == 0x78, ComponentSplitter.hasPropertyName(line, "X-LIC-ERROR") {
                    var end = pos
                    while end < n, bytes[end] == 0x20 || bytes[end] == 0x09 {
                        let next = ComponentSplitter.lineFeed(in: bytes, from: end, before: n)
                        end = next < n ? next + 1 : n
                        foldedLines += 1
                    }
                    repairs.dropped.append(lineStart..<end)
                    pos = end
                }
                continue
            }

            // A BEGIN or END line folded in two is one to libical: it unfolds first.
            var unfolded: [UInt8]? = nil
            if pos < n, bytes[pos] == 0x20 || bytes[pos] == 0x09, line.count < 80, let first = line.first,
                first | 0x20 == 0x62 || first | 0x20 == 0x65 || first == 0xEF || first == 0
            {
                var joined = Array(line)
                var next = pos
                var folds = 0
                while next < n, bytes[next] == 0x20 || bytes[next] == 0x09, joined.count < 1000 {
                    let end = ComponentSplitter.lineFeed(in: bytes, from: next, before: n)
                    var contentEnd = end
                    if contentEnd > next + 1 && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                    joined.append(contentsOf: bytes[(next + 1)..<max(contentEnd, next + 1)])
                    next = end < n ? end + 1 : n
                    folds += 1
                }
                // Joined, it must still name a component: `BEGIN:VEVENT` followed
                // by indented properties is not one folded line.
                let isKeyword = joined.withUnsafeBufferPointer { joined in
                    [ComponentSplitter.keyword(joined, "BEGIN"), ComponentSplitter.keyword(joined, "END")].contains { name in
                        name.map(ComponentSplitter.isComponentName) ?? false
                    }
                }
                if isKeyword {
                    unfolded = joined
                    pos = next
                    foldedLines = folds
                }
            }
            func keyword(_ word: StaticString) -> String? {
                if let unfolded { return unfolded.withUnsafeBufferPointer { ComponentSplitter.keyword($0, word) } }
                return ComponentSplitter.keyword(line, word)
            }
            // `END:VCALENDARBEGIN:VCALENDAR`: two lines glued into one (an
            // export that concatenates calendars). The first is read here,
            // the rest as a line of its own.
            if unfolded == nil, let glue = ComponentSplitter.gluedKeyword(in: line) {
                let at = lineStart + glue
                let second = TextRepair.string(UnsafeBufferPointer(rebasing: line[glue..<min(line.count, glue + 40)]))
                result.notes.append(Warning(lineNumber, .gluedLines, "glued lines",
                    "\(TextRepair.string(UnsafeBufferPointer(rebasing: line[..<min(glue, 40)]))) and \(second) are glued together on one line; read as two lines"))
                if !stack.isEmpty { repairs.lineBreaks.append(at) }
                line = UnsafeBufferPointer(rebasing: bytes[lineStart..<at])
                pos = at
                gluedRest = true
            }

            if let name = keyword("BEGIN") {
                if stack.isEmpty {
                    if name == "VCALENDAR" {
                        calendarsSeen += 1
                        calendar = max(0, calendarsSeen - 1)
                        result.sawCalendar = true
                        calendarHasMethod = false
                        continue
                    }
                    // Outside a VCALENDAR only iCalendar's own components are
                    // taken (a bare VEVENT), not a VCARD or the like.
                    if !topLevelNames.contains(name) { continue }
                } else if topLevelNames.contains(name) {
                    closeChunk(at: lineStart)  // the open one lost its END line
                    if result.chunks.count >= maxChunks {
                        // Enough: this line starts the next stretch.
                        stoppedAt = (lineStart, lineNumber - 1)
                        break
                    }
                    if name == "VCALENDAR" {
                        calendarsSeen += 1
                        calendar = max(0, calendarsSeen - 1)
                        continue
                    }
                } else if dropDepth > 0 {
                    dropDepth += 1
                    continue
                } else if stack.count >= maxDepth {
                    if !toldDepth {
                        repairs.notes.append(Warning(lineNumber, .framing, "framing: nested too deep", "\(chunkName): components nested more than \(maxDepth) deep (BEGIN:\(name)); left out"))
                        toldDepth = true
                    }
                    dropStart = lineStart
                    dropDepth = 1
                    continue
                } else if stack.count == 1 && innerCount >= maxInner {
                    if innerCount == maxInner {
                        repairs.notes.append(Warning(lineNumber, .tooManyInnerComponents, "framing: too many inner components",
                            "\(chunkName): more than \(maxInner) components inside it (BEGIN:\(name)); this one and the ones after it are left out"))
                    }
                    innerCount += 1
                    dropStart = lineStart
                    dropDepth = 1
                    continue
                } else {
                    if stack.count == 1 { innerCount += 1 }
                    stack.append(name)
                    continue
                }
                chunkStart = lineStart
                chunkLine = lineNumber
                chunkName = name
                stack = [name]
                chunkIndent = ComponentSplitter.indentation(after: pos, in: bytes)
                if chunkIndent > 0 || indentedBegin {
                    let blanks = max(chunkIndent, 1)
                    repairs.notes.append(Warning(lineNumber, .indented, "indented",
                        "\(name): its lines are indented by \(blanks) blank\(blanks == 1 ? "" : "s") or more, which iCalendar reads as folds; read without them"))
                }
            } else if let name = keyword("END") {
                guard !stack.isEmpty else {  // END:VCALENDAR, or a stray END between components
                    if name == "VCALENDAR" { calendarEnded = true }
                    continue
                }
                if dropDepth > 0 && name != chunkName {
                    dropDepth -= 1
                    if dropDepth == 0 { repairs.dropped.append(dropStart..<pos) }
                    continue
                }
                if dropDepth > 0 {
                    repairs.dropped.append(dropStart..<lineStart)
                    dropDepth = 0
                }
                if let index = stack.lastIndex(of: name) {
                    if index < stack.count - 1 {
                        // The components inside this one lost their END lines: put them back here.
                        let lost = Array(stack[(index + 1)...])
                        unclosed += lost
                        repairs.insertions.append((lineStart, lost.reversed()))
                    }
                    stack.removeSubrange(index...)
                    if stack.isEmpty { closeChunk(at: pos, rootClosed: true) }
                } else if name == "VCALENDAR" {
                    closeChunk(at: lineStart)
                } else {
                    // libical would print "Encountered END before BEGIN" on stderr, or close the wrong component.
                    strayEnds += 1
                    if strayEnds == 1 { repairs.notes.append(Warning(lineNumber, .framing, "framing: stray END", "\(chunkName): END:\(name) without a BEGIN:\(name); ignored")) }
                    repairs.dropped.append(lineStart..<pos)
                }
            } else if !stack.isEmpty {
                _ = leftOutPastLimit()  // a line inside that starts with B or E, or a control character
            } else if stack.isEmpty, let colon = line.firstIndex(of: 0x3A) {
                let head = line[..<colon]
                let nameEnd = head.firstIndex(of: 0x3B) ?? colon  // ';' starts parameters
                let name = String(decoding: UnsafeBufferPointer(rebasing: line[..<nameEnd]), as: UTF8.self).uppercased()
                if name == "X-WR-CALNAME" || name == "X-WR-TIMEZONE" || name == "METHOD" {
                    pendingProperty = (name, Array(line[(colon + 1)...]))
                }
            }
        }
        finishProperty()
        if !stack.isEmpty { closeChunk(at: n) }
        // A download cut between two components ends after an END line,
        // without END:VCALENDAR: what came after the cut is missing. Told
        // by the loader only of the input's last stretch.
        if calendarsSeen > 0, let last = result.chunks.last, last.rootClosed, !calendarEnded {
            result.cutAfterLastComponent = Warning(lineNumber, .cutAfterComponent, "cut after a component",
                "the file ends without END:VCALENDAR after its last component (\(last.name) from line \(last.firstLine)); it may have been cut short, and what followed is missing")
        }
        result.endedCalendar = calendarEnded
        result.calendarsSeen = calendarsSeen
        result.lines = (stoppedAt?.lines ?? lineNumber + foldedLines) - linesBefore
        result.stoppedAt = stoppedAt?.pos ?? pos
        return result
    }

    /// The components a property may be found glued to (longest first where one begins another).
    static let gluedComponentNames = ["VCALENDAR", "VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VALARM", "STANDARD", "DAYLIGHT"]

    /// Whether the line is a BEGIN or END line of a component (a top-level one with `topLevelOnly`).
    static func isComponentLine(_ line: UnsafeBufferPointer<UInt8>, topLevelOnly: Bool) -> Bool {
        guard let name = keyword(line, "BEGIN") ?? (topLevelOnly ? nil : keyword(line, "END")) else { return false }
        return topLevelOnly ? topLevelNames.contains(name) && name != "VCALENDAR" : isComponentName(name)
    }

    /// Whether the line is the property `name` (then `:` or `;`), in any case.
    static func hasPropertyName(_ line: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        let w = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        guard line.count > w.count else { return false }
        for i in 0..<w.count where line[i] | 0x20 != w[i] | 0x20 { return false }
        return line[w.count] == 0x3A || line[w.count] == 0x3B
    }

    /// Whether a BEGIN or END line's word is a component name (RFC 5545
    /// 3.6: an iana-token or x-name, letters, digits and hyphens).
    static func isComponentName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    /// Where a second line starts on a BEGIN or END line whose component
    /// name runs straight into it: another BEGIN or END
    /// (`END:VEVENTBEGIN:VEVENT`), or a property (`BEGIN:VEVENTUID:1`).
    /// How far into a line with control characters a BEGIN or END keyword is looked for.
    static let keywordReach = 1024

    static func gluedKeyword(in line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let colon = line.firstIndex(of: 0x3A), colon <= 5, let name = keyword(line, "BEGIN") ?? keyword(line, "END") else { return nil }
        if !isComponentName(name) {
            for component in gluedComponentNames where name.hasPrefix(component) {
                let rest = name.utf8.dropFirst(component.utf8.count)
                let word = rest.prefix { ($0 >= 0x41 && $0 <= 0x5A) || $0 == 0x2D }
                if !word.isEmpty, word.count < rest.count, let after = rest.dropFirst(word.count).first, after == 0x3A || after == 0x3B {
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
            if let name = keyword(rest, "BEGIN") ?? keyword(rest, "END"), isComponentName(name) || name.contains(":") { return i }
            i += 1
        }
        return nil
    }

    /// The blanks that start the line at `start` when it is a property line
    /// indented as no iCalendar line is (a name after the blanks): the first
    /// line of a component whose lines a script indented.
    static func indentation(after start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var i = start
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        let blanks = i - start
        guard blanks > 0 else { return 0 }
        // A name of letters, digits and hyphens, then ';' or ':'.
        var j = i
        while j < bytes.count, (bytes[j] | 0x20 >= 0x61 && bytes[j] | 0x20 <= 0x7A) || (bytes[j] >= 0x30 && bytes[j] <= 0x39) || bytes[j] == 0x2D { j += 1 }
        guard j > i, j < bytes.count, bytes[j] == 0x3A || bytes[j] == 0x3B else { return 0 }
        return blanks
    }

    /// The place of the first line feed in `bytes[from..<end]`, or `end`
    /// when there is none (memchr: lines are scanned by the million).
    static func lineFeed(in bytes: UnsafeBufferPointer<UInt8>, from: Int, before end: Int) -> Int {
        guard from < end, let base = bytes.baseAddress else { return end }
        return memchr(base + from, 0x0A, end - from).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? end
    }

    /// The place of the first colon of `bytes[from..<end]` outside double
    /// quotes (where a property's value begins), stopping at a line feed;
    /// the place it stopped (`end` or the line feed) when there is none.
    static func valueColon(in bytes: UnsafeBufferPointer<UInt8>, from: Int, before end: Int) -> Int {
        var i = from
        var quoted = false
        while i < end && bytes[i] != 0x0A && !(bytes[i] == 0x3A && !quoted) {
            if bytes[i] == 0x22 { quoted.toggle() }
            i += 1
        }
        return i
    }

    /// The upper-cased word after `BEGIN:` or `END:` on a line, if it is one.
    /// NUL bytes and a byte-order mark at the start (files concatenated
    /// with their marks) do not hide a BEGIN or END line.
    static func keyword(_ line: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> String? {
        if let first = line.first, first == 0xEF || line.prefix(word.utf8CodeUnitCount + 1).contains(where: TextRepair.isControl) {
            // The start of the line only: a keyword and its name are short, and a
            // line of 80,000 NUL bytes, looked at from each of its places, was quadratic.
            var cleaned = line.prefix(ComponentSplitter.keywordReach).filter { !TextRepair.isControl($0) }
            if cleaned.starts(with: [0xEF, 0xBB, 0xBF]) { cleaned.removeFirst(3) }
            return cleaned.withUnsafeBufferPointer { plainKeyword($0, word) }
        }
        return plainKeyword(line, word)
    }

    /// `BEGIN` or `END` as libical reads them: the word, then parameters
    /// if any (`END;X-A=1:VALARM`), a colon and the name, which may be empty.
    /// Blanks after the word count for nothing (`END :VALARM`): libical trims
    /// them from a property name, so such a line closes whatever is open.
    private static func plainKeyword(_ line: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> String? {
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard line.count > w.count else { return nil }
        for i in 0..<w.count where line[i] | 0x20 != w[i] | 0x20 { return nil }
        var i = w.count
        // libical's make_segment trims what iswspace calls space: blank, tab, VT, FF, CR.
        while i < line.count, line[i] == 0x20 || (0x09...0x0D).contains(line[i]) { i += 1 }
        guard i < line.count else { return nil }
        if line[i] == 0x3B {  // ';': parameters, up to the first colon outside quotes
            var quoted = false
            var lastSemicolon = i
            while i < line.count && (line[i] != 0x3A || quoted) {
                if line[i] == 0x22 { quoted.toggle() } else if line[i] == 0x3B && !quoted { lastSemicolon = i }
                i += 1
            }
            // No colon at all: libical still reads the word (`END;STANDARD`
            // ends what is open, `BEGIN;VALARM` opens an alarm), so the name
            // is what follows the last ';'.
            if i == line.count { i = lastSemicolon }
        } else if line[i] != 0x3A {
            return nil
        }
        var rest = line[(i + 1)...]
        while let last = rest.last, last == 0x20 || last == 0x09 { rest = rest.dropLast() }
        // Control characters are dropped, as the loader drops them (and kept out of warnings).
        if rest.contains(where: { $0 >= 0x7F || TextRepair.isControl($0) }) { return TextRepair.string(rest).uppercased() }
        return String(decoding: UnsafeBufferPointer(rebasing: rest), as: UTF8.self).uppercased()
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
        return TextRepair.string(out).trimmingWhitespace()
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
