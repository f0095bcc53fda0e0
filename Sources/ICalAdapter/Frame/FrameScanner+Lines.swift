import AgendaCore
/// How the frame scanner reads lines: plain lines counted in a loop of
/// their own, indentation taken off, folds of BEGIN and END lines joined,
/// lines glued together cut in two, and lines past `maxLines` left out.
extension FrameScanner {
    /// Most lines of a file are inside a component and are neither BEGIN
    /// nor END lines: they are only counted (`maxLines`), here, in a loop
    /// of their own that keeps its state in locals. It stops before the
    /// first line that needs more: a fold or indentation, a line that
    /// starts with B or E or a control character, X-LIC-ERROR, or the
    /// line past `maxLines`.
    mutating func countPlainLines() {
        guard !gluedRest, var lines = open?.lines else { return }
        var next = pos, number = lineNumber, folds = foldedLines
        while next < end, lines < ComponentSplitter.maxLines {
            let first = bytes[next]
            guard first > 0x20, first < 0x7F, first | 0x20 != 0x62, first | 0x20 != 0x65 else { break }
            let lineEnd = LineScan.lineFeed(in: bytes, from: next, before: end)
            if first | 0x20 == 0x78, ContentLines.hasName(UnsafeBufferPointer(rebasing: bytes[next..<lineEnd]),
                "X-LIC-ERROR") {
                break
            }
            number += 1 + folds
            folds = 0
            lines += 1
            next = lineEnd < end ? lineEnd + 1 : end
        }
        pos = next
        lineNumber = number
        foldedLines = folds
        open!.lines = lines
    }

    /// The next line, `pos` moved past it. A line of an indented component
    /// is read without the indentation, which libical would take for folds
    /// (RFC 5545 3.1). Its BEGIN and END lines may be indented less than
    /// what is inside, or (the whole component indented) the BEGIN line itself.
    mutating func nextLine() -> Line {
        let lineEnd = LineScan.lineFeed(in: bytes, from: pos, before: end)
        var line = Line(start: pos, contentEnd: lineEnd, text: UnsafeBufferPointer(rebasing: bytes[pos..<lineEnd]))
        pos = lineEnd < end ? lineEnd + 1 : end
        if lineEnd > line.start && bytes[lineEnd - 1] == 0x0D {
            line = Line(start: line.start, contentEnd: lineEnd - 1,
                text: UnsafeBufferPointer(rebasing: bytes[line.start..<(lineEnd - 1)]))
        }
        guard let first = line.text.first, ContentLines.isBlank(first) else { return line }
        let blanks = ContentLines.leadingBlanks(line.text)
        let indent = open?.indent ?? 0
        let strip: Int
        if indent > 0, open != nil, line.text.count > indent, blanks >= indent {
            strip = indent
        } else if indent > 0 || open == nil, blanks < line.text.count,
            ComponentSplitter.isComponentLine(UnsafeBufferPointer(rebasing: line.text[blanks...]),
                topLevelOnly: open == nil)
        {
            strip = blanks
            if open == nil { indentedBegin = true }
        } else {
            strip = 0
        }
        if strip > 0 {
            if open != nil { open!.repairs.dropped.append(line.start..<(line.start + strip)) }
            line.start += strip
            line.text = UnsafeBufferPointer(rebasing: bytes[line.start..<line.contentEnd])
        }
        return line
    }

    /// A line inside a component that is no BEGIN or END line: counted
    /// (`leftOutPastLimit`), and an X-LIC-ERROR written into the file (by a
    /// tool that read it with libical and saved it again) left out: it is
    /// not libical's word on this file, which would report it as damage found now.
    mutating func readPlain(_ line: Line, first: UInt8) {
        if leftOutPastLimit(line) { return }
        if first | 0x20 == 0x78, ContentLines.hasName(line.text, "X-LIC-ERROR") {
            let next = afterFolds()
            open!.repairs.dropped.append(line.start..<next)
            pos = next
        }
    }

    /// Where the folds of the line just read end (counted in `foldedLines`).
    mutating func afterFolds() -> Int {
        let (next, folds) = ContentLines.pastFolds(bytes, from: pos, before: end)
        foldedLines += folds
        return next
    }

    /// Past `maxLines`, leaves the line out (with its folds) unless it is
    /// one of the few that say what and when.
    mutating func leftOutPastLimit(_ line: Line) -> Bool {
        open!.lines += 1
        guard open!.lines > ComponentSplitter.maxLines else { return false }
        if open!.essentialPast.isEmpty {
            open!.essentialPast = [Int](repeating: 0, count: ComponentSplitter.essentialNames.count)
        }
        if let e = ComponentSplitter.essentialNames.firstIndex(where: { ContentLines.hasName(line.text, $0) }),
            open!.essentialPast[e] < ComponentSplitter.maxEssentialPast
        {
            open!.essentialPast[e] += 1
            return false
        }
        let next = afterFolds()
        if let last = open!.repairs.dropped.last, last.upperBound == line.start {
            open!.repairs.dropped[open!.repairs.dropped.count - 1] = last.lowerBound..<next
        } else {
            open!.repairs.dropped.append(line.start..<next)
        }
        if open!.linesLeftOut == 0 {
            open!.repairs.notes.append(Warning(lineNumber, .tooManyLines, "too many lines",
                "\(open!.name): more than \(ComponentSplitter.maxLines) lines; from here on only the lines that say " +
                    "what and when are read, the others left out"))
        }
        open!.linesLeftOut += 1
        pos = next
        return true
    }

    /// A BEGIN or END line folded in two is one to libical, which unfolds
    /// first: the line joined with its folds when, joined, it still names
    /// a component (`BEGIN:VEVENT` followed by indented properties is not
    /// one folded line); `pos` then moves past the folds.
    mutating func unfoldedKeywordLine(_ line: Line) -> [UInt8]? {
        guard ContentLines.isFold(bytes, at: pos, before: end), line.text.count < 80, let first = line.text.first,
            first | 0x20 == 0x62 || first | 0x20 == 0x65 || first == 0xEF || first == 0
        else { return nil }
        var joined = Array(line.text)
        var next = pos
        var folds = 0
        while ContentLines.isFold(bytes, at: next, before: end), joined.count < 1000 {
            let lineEnd = LineScan.lineFeed(in: bytes, from: next, before: end)
            var contentEnd = lineEnd
            if contentEnd > next + 1 && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            joined.append(contentsOf: bytes[(next + 1)..<max(contentEnd, next + 1)])
            next = lineEnd < end ? lineEnd + 1 : end
            folds += 1
        }
        let isKeyword = joined.withUnsafeBufferPointer { joined in
            [LineScan.keyword(joined, "BEGIN"), LineScan.keyword(joined, "END")].contains { name in
                name.map(ComponentSplitter.isComponentName) ?? false
            }
        }
        guard isKeyword else { return nil }
        pos = next
        foldedLines = folds
        return joined
    }

    /// `END:VCALENDARBEGIN:VCALENDAR`: two lines glued into one (an export
    /// that concatenates calendars). The first is read now, the rest as a
    /// line of its own.
    mutating func splitGlued(_ line: inout Line) {
        guard let glue = ComponentSplitter.gluedKeyword(in: line.text) else { return }
        let at = line.start + glue
        let second = TextBytes.string(UnsafeBufferPointer(rebasing: line.text[glue..<min(line.text.count, glue + 40)]))
        result.notes.append(Warning(lineNumber, .gluedLines, "glued lines",
            "\(TextBytes.string(UnsafeBufferPointer(rebasing: line.text[..<min(glue, 40)]))) and \(second) are glued " +
                "together on one line; read as two lines"))
        if open != nil { open!.repairs.lineBreaks.append(at) }
        line.text = UnsafeBufferPointer(rebasing: bytes[line.start..<at])
        pos = at
        gluedRest = true
    }
}
