/// The content lines of iCalendar text (RFC 5545 3.1), read as libical reads
/// them: a physical line ends at a line feed (a carriage return before it is
/// no part of its text), and a physical line that starts with a space or a
/// tab is a fold: it goes on the line before it, without that blank.
///
/// Blank lines between a line and its fold do not end it: the fold goes on
/// the line before them (an old Mozilla export writes `UID`, a blank line,
/// ` :1234`), as the repairs hand it to libical (`TextRepair.copy`) and as
/// readers that skip blank lines read it.
///
/// This is the one place that knows what a fold is. Every stage that looks
/// at lines before libical does (framing, the window prefilter, the repairs,
/// the alarm reach, the folder scan, the warnings' line finder) reads its
/// lines here, or asks here whether a byte starts a fold; `FoldRuleTests`
/// fails when a file outside `Bytes/` tests for a fold's blank itself.
///
/// Iterating yields each logical line once, with its first physical line's
/// number, where that line's text ends and where the next logical line
/// starts; nothing is copied (`unfolded` copies a line when a stage needs it
/// whole).
struct ContentLines: Sequence, IteratorProtocol {
    let bytes: UnsafeBufferPointer<UInt8>
    let end: Int
    /// Where the next logical line starts.
    private(set) var position: Int
    /// The number of the next physical line.
    private(set) var lineNumber: Int

    /// The lines of `bytes[range]` (all of it when nil), the first numbered `firstLine`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>? = nil, firstLine: Int = 1) {
        self.bytes = bytes
        end = range?.upperBound ?? bytes.count
        position = range?.lowerBound ?? 0
        lineNumber = firstLine
    }

    mutating func next() -> ContentLine? {
        guard position < end else { return nil }
        let start = position
        let lineFeed = LineScan.lineFeed(in: bytes, from: start, before: end)
        var firstEnd = lineFeed
        if firstEnd > start && bytes[firstEnd - 1] == 0x0D { firstEnd -= 1 }
        let after = lineFeed < end ? lineFeed + 1 : end
        let (next, folds) = ContentLines.pastFolds(bytes, from: after, before: end)
        let line = ContentLine(start: start, firstEnd: firstEnd, next: next, number: lineNumber,
            physicalLines: 1 + folds)
        position = next
        lineNumber += 1 + folds
        return line
    }

    // MARK: - Folds, for stages that keep their own place in the text

    /// Whether a byte, first on a physical line, makes the line a fold of
    /// the one before it (a space or a tab; also the blanks libical trims
    /// around a BEGIN or END word and that a component's indentation is made of).
    @inline(__always)
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Whether the physical line starting at `at` is a fold of the line before it.
    @inline(__always)
    static func isFold(_ bytes: UnsafeBufferPointer<UInt8>, at: Int, before end: Int) -> Bool {
        at < end && isBlank(bytes[at])
    }

    /// Past the folds that start at `from` (each up to and with its line
    /// feed, and any blank lines before one): where the next line that is no
    /// fold starts, and how many physical lines were passed.
    static func pastFolds(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, before end: Int) -> (next: Int, folds: Int) {
        var next = from
        var folds = 0
        while next < end {
            let (blank, blankLines) = pastBlankLines(bytes, from: next, before: end)
            guard isFold(bytes, at: blank, before: end) else { break }
            let lineFeed = LineScan.lineFeed(in: bytes, from: blank, before: end)
            next = lineFeed < end ? lineFeed + 1 : end
            folds += blankLines + 1
        }
        return (next, folds)
    }

    /// Past the line ends at `from` (the blank lines, CR or LF, of a text):
    /// where the next text starts, and how many line feeds were passed.
    static func pastBlankLines(
        _ bytes: UnsafeBufferPointer<UInt8>, from: Int, before end: Int
    ) -> (next: Int, lines: Int) {
        var next = from, lines = 0
        while next < end, bytes[next] == 0x0A || bytes[next] == 0x0D {
            if bytes[next] == 0x0A { lines += 1 }
            next += 1
        }
        return (next, lines)
    }

    /// How many blanks a line's text starts with (a fold's, or an indentation's).
    static func leadingBlanks<C: Collection<UInt8>>(_ text: C) -> Int {
        var count = 0
        for byte in text {
            guard isBlank(byte) else { break }
            count += 1
        }
        return count
    }

    /// A line break at `at` (CR, LF or CR LF; `text[at]` is one of them):
    /// where the text after it starts, and whether the break is a fold
    /// (then past the fold's blank: the break and the blank are no text).
    static func lineBreak(_ text: UnsafeBufferPointer<UInt8>, at: Int) -> (next: Int, isFold: Bool) {
        var j = at
        if text[j] == 0x0D, j + 1 < text.count, text[j + 1] == 0x0A { j += 1 }
        guard j + 1 < text.count, isBlank(text[j + 1]) else { return (j + 1, false) }
        return (j + 2, true)
    }

    /// The place of the byte before `at` on the unfolded line, over any
    /// number of folds (a fold of one blank among them); nil at the text's start.
    static func unfoldedByte(before at: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        var p = at
        while true {
            p -= 1
            guard p >= 0 else { return nil }
            guard p >= 1, isBlank(text[p]), text[p - 1] == 0x0A else { return p }
            p -= p >= 2 && text[p - 2] == 0x0D ? 2 : 1
        }
    }

    /// The place of the byte after `at` on the unfolded line, over any
    /// number of folds; nil where the line ends.
    static func unfoldedByte(after at: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        var p = at
        let n = text.count
        while true {
            p += 1
            guard p < n else { return nil }
            if text[p] == 0x0D && p + 1 < n && text[p + 1] == 0x0A { p += 1 }
            guard text[p] == 0x0A else { return p }
            guard p + 1 < n, isBlank(text[p + 1]) else { return nil }
            p += 1
        }
    }

    /// Whether a line's text starts with the property name `name`, in any
    /// case, followed by its value's `:` or its parameters' `;`.
    static func hasName(_ line: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        let n = name.utf8CodeUnitCount
        guard line.count > n else { return false }
        let p = name.utf8Start
        for k in 0..<n where line[k] | 0x20 != p[k] | 0x20 { return false }
        return line[n] == 0x3A || line[n] == 0x3B
    }
}

/// One logical line of `ContentLines`: its first physical line, and where
/// the line after its folds starts.
struct ContentLine {
    /// Where its first physical line starts, and where that line's text ends (before its CR LF).
    let start: Int
    let firstEnd: Int
    /// Where the next logical line starts (past the line feeds of its folds).
    let next: Int
    /// The number of its first physical line.
    let number: Int
    /// Its first physical line and its folds.
    let physicalLines: Int

    var isFolded: Bool { physicalLines > 1 }

    /// The text of its first physical line.
    func firstText(in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[start..<firstEnd])
    }

    /// The whole line unfolded, at most `limit` bytes: each physical line's
    /// text (without the CR before its line feed) after the first without its
    /// fold's blank; blank lines between them left out.
    func unfolded(in bytes: UnsafeBufferPointer<UInt8>, limit: Int = .max) -> [UInt8] {
        guard isFolded else { return Array(bytes[start..<(firstEnd - start <= limit ? firstEnd : start + limit)]) }
        var line = Array(bytes[start..<firstEnd])
        var at = firstEnd
        while at < next && line.count < limit {
            while at < next, bytes[at] == 0x0A || bytes[at] == 0x0D { at += 1 }  // line ends, blank lines
            guard at < next else { break }
            let lineFeed = LineScan.lineFeed(in: bytes, from: at, before: next)
            var textEnd = lineFeed
            if textEnd > at && bytes[textEnd - 1] == 0x0D { textEnd -= 1 }
            line += bytes[(at + 1)..<max(textEnd, at + 1)]  // past the fold's blank
            at = lineFeed
        }
        return line.count > limit ? Array(line.prefix(limit)) : line
    }
}
