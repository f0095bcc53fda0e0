import AgendaCore
import Foundation

/// Frames one stretch of text line by line, for `ComponentSplitter.split`.
///
/// The scanner is in one of two states: between components (`open` is
/// nil), where calendar-level lines are read (`X-WR-CALNAME`,
/// `X-WR-TIMEZONE`, `METHOD`) and a BEGIN line of a top-level component
/// opens one; or inside one (`OpenComponent`), where only BEGIN and END
/// lines matter and framing damage is noted for its chunk. A component
/// ends with its own END line, or where an outer END line, the next
/// top-level BEGIN or the end of the input shows it lost it.
struct FrameScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the text to frame starts and ends.
    let start: Int
    let end: Int
    let linesBefore: Int
    let maxChunks: Int
    var result = ComponentSplitter.Result()
    /// The component being framed; nil between components.
    var open: OpenComponent? = nil
    /// Where the next line starts, and the number of the line just read.
    var pos: Int
    var lineNumber: Int
    /// Continuation lines of the last BEGIN or END line, counted after it.
    var foldedLines = 0
    /// The rest of a line that held two BEGIN or END lines glued together
    /// is read next, on the same line number.
    var gluedRest = false
    /// Where framing stopped after `maxChunks` components, and the lines before it.
    var stoppedAt: (pos: Int, lines: Int)? = nil
    /// A calendar-level property read between components, with its folds.
    var pendingProperty: (name: String, value: [UInt8])? = nil
    /// The line it starts on.
    var pendingLine = 0
    /// The BEGIN:VCALENDAR lines so far, and the VCALENDAR being read (the
    /// first is 0, as are components before any).
    var calendarsSeen: Int
    var calendar: Int
    /// Whether the VCALENDAR being read has a METHOD (an iTIP message).
    var calendarHasMethod = false
    /// Whether END:VCALENDAR came after the last component (a file
    /// without it may have been cut short).
    var calendarEnded = false
    /// Whether the next component's BEGIN line was indented (a whole
    /// component indented).
    var indentedBegin = false

    /// The calendar-level properties read between components (`finishProperty`), and their lengths.
    static let calendarProperties: Set<String> = ["X-WR-CALNAME", "X-WR-TIMEZONE", "METHOD", "X-APPLE-CALENDAR-COLOR",
        "COLOR"]
    static let calendarPropertyLengths = Set(calendarProperties.map(\.utf8.count))

    /// The kind of the warning that the calendar's name was cut to one line.
    static let calendarNameCut = "X-WR-CALNAME cut"

    init(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>?, linesBefore: Int, maxChunks: Int,
        calendarsSeen: Int) {
        self.bytes = bytes
        end = range?.upperBound ?? bytes.count
        pos = range?.lowerBound ?? 0
        start = pos
        self.linesBefore = linesBefore
        lineNumber = linesBefore
        self.maxChunks = maxChunks
        self.calendarsSeen = calendarsSeen
        calendar = max(0, calendarsSeen - 1)
    }

    /// Frames the lines up to the end of the range, or up to the line
    /// after the `maxChunks`-th component.
    mutating func scan() -> ComponentSplitter.Result {
        while pos < end {
            if open != nil {
                countPlainLines()
                guard pos < end else { break }
            }
            // After a component that ended with its own END line nothing of it is open.
            if result.chunks.count >= maxChunks && open == nil { break }
            if gluedRest { gluedRest = false } else { lineNumber += 1 + foldedLines }
            foldedLines = 0
            var line = nextLine()
            // A folded continuation of a calendar-level property.
            if let first = line.text.first, ContentLines.isBlank(first) {
                // (A name is one short line: a megabyte of folds is not kept.)
                if pendingProperty != nil, pendingProperty!.value.count < CalendarName.maxFileBytes {
                    pendingProperty!.value.append(contentsOf: line.text.dropFirst())
                }
                continue
            }
            finishProperty()
            // Inside a component only BEGIN and END lines matter, and a line
            // that starts with a visible character other than B or E is
            // neither (only control characters and a byte-order mark are
            // passed over before the word): most lines end here.
            if open != nil, let first = line.text.first, first > 0x20, first < 0x7F, first | 0x20 != 0x62,
                first | 0x20 != 0x65 {
                readPlain(line, first: first)
                continue
            }
            let unfolded = unfoldedKeywordLine(line)
            if unfolded == nil { splitGlued(&line) }
            func keyword(_ word: StaticString) -> String? {
                if let unfolded { return unfolded.withUnsafeBufferPointer { LineScan.keyword($0, word) } }
                return LineScan.keyword(line.text, word)
            }
            if let name = keyword("BEGIN") {
                if !begin(name, line) { break }
            } else if let name = keyword("END") {
                endLine(name, line)
            } else if open != nil {
                _ = leftOutPastLimit(line)  // a line inside that starts with B or E, or a control character
            } else {
                readCalendarProperty(line)
            }
        }
        return finish()
    }

    /// A BEGIN line. False when framing stops here: the `maxChunks`-th
    /// component lost its END line, and this line starts the next stretch.
    mutating func begin(_ name: String, _ line: Line) -> Bool {
        if open == nil {
            if name == "VCALENDAR" {
                enterCalendar()
                result.sawCalendar = true
                calendarHasMethod = false
                indentedBegin = false
                if line.start == start { result.startsWithCalendar = true }
                return true
            }
            // Outside a VCALENDAR only iCalendar's own components are
            // taken (a bare VEVENT), not a VCARD or the like. An indented
            // BEGIN line that, unfolded, opens nothing leaves nothing behind.
            if !LineScan.topLevelNames.contains(name) {
                indentedBegin = false
                return true
            }
        } else if LineScan.topLevelNames.contains(name) {
            closeChunk(at: line.start)  // the open one lost its END line
            if result.chunks.count >= maxChunks {
                stoppedAt = (line.start, lineNumber - 1)
                return false
            }
            if name == "VCALENDAR" {
                // A calendar of its own: a METHOD of the one before is not its own.
                enterCalendar()
                calendarHasMethod = false
                return true
            }
        } else {
            beginInner(name, line)
            return true
        }
        let indent = ComponentSplitter.indentation(after: pos, in: bytes)
        open = OpenComponent(name: name, start: line.start, firstLine: lineNumber, indent: indent)
        if indent > 0 || indentedBegin {
            let blanks = max(indent, 1)
            open!.repairs.notes.append(Warning(lineNumber, .indented, "indented",
                "\(name): its lines are indented by \(blanks) " +
                    "blank\(blanks == 1 ? "" : "s") or more, which iCalendar reads as folds; read without them"))
        }
        return true
    }

    mutating func enterCalendar() {
        calendarsSeen += 1
        calendar = max(0, calendarsSeen - 1)
    }

    /// A BEGIN line inside the open component: one more level, unless it
    /// is left out (inside one left out, nested too deep, or past `maxInner`).
    mutating func beginInner(_ name: String, _ line: Line) {
        if open!.dropDepth > 0 {
            open!.dropDepth += 1
        } else if open!.stack.count >= ComponentSplitter.maxDepth {
            if !open!.toldDepth {
                open!.repairs.notes.append(Warning(lineNumber, .framing, "framing: nested too deep",
                    "\(open!.name): components nested more than \(ComponentSplitter.maxDepth) deep " +
                        "(BEGIN:\(name)); left out"))
                open!.toldDepth = true
            }
            open!.dropStart = line.start
            open!.dropDepth = 1
        } else if open!.stack.count == 1 && open!.innerCount >= ComponentSplitter.maxInner {
            if open!.innerCount == ComponentSplitter.maxInner {
                open!.repairs.notes.append(Warning(lineNumber, .tooManyInnerComponents,
                    "framing: too many inner components",
                    "\(open!.name): more than \(ComponentSplitter.maxInner) components inside it (BEGIN:\(name)); " +
                        "this one and the ones after it are left out"))
            }
            open!.innerCount += 1
            open!.dropStart = line.start
            open!.dropDepth = 1
        } else {
            if open!.stack.count == 1 { open!.innerCount += 1 }
            open!.stack.append(name)
        }
    }

    /// An END line: it closes the open component it names (and puts back
    /// the END lines of those inside it that lost theirs), or is a stray.
    mutating func endLine(_ name: String, _ line: Line) {
        guard open != nil else {  // END:VCALENDAR, or a stray END between components
            if name == "VCALENDAR" { calendarEnded = true }
            return
        }
        if open!.dropDepth > 0 && name != open!.name {
            open!.dropDepth -= 1
            if open!.dropDepth == 0 { open!.repairs.dropped.append(open!.dropStart..<pos) }
            return
        }
        if open!.dropDepth > 0 {
            open!.repairs.dropped.append(open!.dropStart..<line.start)
            open!.dropDepth = 0
        }
        if let index = open!.stack.lastIndex(of: name) {
            if index < open!.stack.count - 1 {
                // The components inside this one lost their END lines: put them back here.
                let lost = Array(open!.stack[(index + 1)...])
                open!.unclosed += lost
                open!.repairs.insertions.append((line.start, lost.reversed()))
            }
            open!.stack.removeSubrange(index...)
            if open!.stack.isEmpty { closeChunk(at: pos, rootClosed: true) }
        } else if name == "VCALENDAR" {
            closeChunk(at: line.start)
        } else {
            // libical would print "Encountered END before BEGIN" on stderr, or close the wrong component.
            open!.strayEnds += 1
            if open!.strayEnds == 1 {
                open!.repairs.notes.append(Warning(lineNumber, .framing, "framing: stray END",
                    "\(open!.name): END:\(name) without a BEGIN:\(name); ignored"))
            }
            open!.repairs.dropped.append(line.start..<pos)
        }
    }

    /// A property line between components: the calendar's name, zone and METHOD are kept.
    mutating func readCalendarProperty(_ line: Line) {
        guard let colon = line.text.firstIndex(of: 0x3A) else { return }
        let head = line.text[..<colon]
        let nameEnd = head.firstIndex(of: 0x3B) ?? colon  // ';' starts parameters
        let word = line.text[..<nameEnd]
        // Most such lines are VERSION and PRODID: only a name as long as one looked for is made a string.
        guard FrameScanner.calendarPropertyLengths.contains(word.count), !word.contains(where: { $0 >= 0x80 })
        else { return }
        let name = LineScan.asciiUppercased(word)
        if FrameScanner.calendarProperties.contains(name) {
            pendingProperty = (name, Array(line.text[(colon + 1)...].prefix(CalendarName.maxFileBytes)))
            pendingLine = lineNumber
        }
    }

    mutating func finishProperty() {
        guard let p = pendingProperty else { return }
        let value = ComponentSplitter.unescapeText(p.value)
        if p.name == "X-WR-CALNAME", result.calendarName == nil, !value.isEmpty {
            let (name, cut) = CalendarName.oneLine(value)
            result.calendarName = name
            if cut {
                result.notes.append(Warning(pendingLine, .valueNotAllowed, FrameScanner.calendarNameCut,
                    CalendarName.cutWords(name, from: "X-WR-CALNAME")))
            }
        }
        if p.name == "X-WR-TIMEZONE", result.wrTimezone == nil, !value.isEmpty { result.wrTimezone = value }
        // The calendar's colour: Apple's property first, then RFC 7986's (a CSS name or #rrggbb), as the contract
        // orders them.
        if p.name == "X-APPLE-CALENDAR-COLOR", let color = CalendarColor.normalized(value) {
            result.appleColor = result.appleColor ?? color
        }
        if p.name == "COLOR", let color = CalendarColor.normalized(value) { result.color = result.color ?? color }
        if p.name == "METHOD", !value.isEmpty { calendarHasMethod = true }
        pendingProperty = nil
    }

    /// Ends the open component at `end`; when it ends without its own END
    /// line, END lines for every open component are put back there.
    mutating func closeChunk(at end: Int, rootClosed: Bool = false) {
        guard var o = open.take() else { return }
        if o.dropDepth > 0 {
            o.repairs.dropped.append(o.dropStart..<end)
            o.dropDepth = 0
        }
        if !rootClosed {
            o.unclosed += o.stack
            o.repairs.insertions.append((end, o.stack.reversed()))
        }
        if o.strayEnds > 1, let i = o.repairs.notes.firstIndex(where: { $0.message.hasSuffix("; ignored") }) {
            o.repairs.notes[i].message += " (and \(o.strayEnds - 1) more END " +
                "line\(o.strayEnds > 2 ? "s" : "") without a BEGIN in this component)"
        }
        if o.linesLeftOut > 0, let i = o.repairs.notes.firstIndex(where: { $0.kind == "too many lines" }) {
            o.repairs.notes[i].message += " (\(o.linesLeftOut) line\(o.linesLeftOut == 1 ? "" : "s"))"
        }
        indentedBegin = false
        calendarEnded = false
        let r = o.repairs
        let mended = r.insertions.isEmpty && r.dropped.isEmpty && r.notes.isEmpty && r.lineBreaks.isEmpty ? nil : r
        result.chunks.append(
            FramedComponent(name: o.name, range: o.start..<end, firstLine: o.firstLine, unclosed: o.unclosed,
                rootClosed: rootClosed,
                inITIPMessage: calendarHasMethod, repairs: mended, calendar: calendar))
    }

    /// The result once the lines are read: the last component closed, and
    /// a download cut between two components (it ends after an END line,
    /// without END:VCALENDAR: what came after the cut is missing) noted,
    /// for the loader to tell of the input's last stretch.
    mutating func finish() -> ComponentSplitter.Result {
        result.endsIdle = open == nil && pendingProperty == nil && !indentedBegin && !gluedRest && stoppedAt == nil
        finishProperty()
        if open != nil { closeChunk(at: end) }
        if calendarsSeen > 0, let last = result.chunks.last, last.rootClosed, !calendarEnded {
            result.cutAfterLastComponent = Warning(lineNumber, .cutAfterComponent, "cut after a component",
                "the file ends without END:VCALENDAR after its last component (\(last.name) from line " +
                    "\(last.firstLine)); it may have been cut short, and what followed is missing")
        }
        result.endedCalendar = calendarEnded
        result.calendarsSeen = calendarsSeen
        result.lines = (stoppedAt?.lines ?? lineNumber + foldedLines) - linesBefore
        result.stoppedAt = stoppedAt?.pos ?? pos
        return result
    }
}
