/// Where a large input may be cut into stretches that are framed and read
/// one after another, so that memory follows a stretch, not the input.
///
/// A stretch ends just before a plain `BEGIN` line of a top-level component
/// (`BEGIN:VEVENT`, not folded): `ComponentSplitter` closes whatever is open
/// at such a line, so framing the stretches one by one gives the chunks that
/// framing the whole input gives.
enum InputSegments {
    /// The bytes read at once, and the largest component that is read: a
    /// component that does not fit is skipped with a warning. Real
    /// components are kilobytes; an input up to this size is one stretch,
    /// read exactly as before.
    static let stretchBytes = 64 << 20
    /// The components framed at once: a stretch of tiny ones (`BEGIN:VEVENT`
    /// lines only) would otherwise hold millions of chunks.
    static let stretchComponents = 1 << 16

    static let topLevel: [[UInt8]] = ["VEVENT", "VTODO", "VTIMEZONE", "VCALENDAR", "VJOURNAL",
        "VFREEBUSY"].map { Array($0.utf8) }
    private static let begin = Array("BEGIN:".utf8)

    /// The start of the last line in `bytes[after..<before]`, other than at
    /// `after` itself, where a stretch may begin; nil when there is none.
    static func lastCut(in bytes: UnsafeBufferPointer<UInt8>, after: Int, before end: Int) -> Int? {
        var p = end - 1
        while p > after {
            if bytes[p - 1] == 0x0A, isCut(bytes, at: p, before: end) { return p }
            p -= 1
        }
        return nil
    }

    /// Where a stretch may end when `bytes[after..<before]` has no `lastCut`:
    /// the start of the last `BEGIN:` line that follows an `END:` line of a
    /// top-level component (`END:VEVENT`), so that an event followed by more
    /// than a stretch of components this program does not know
    /// (`BEGIN:X-WIDGET`) is read, and only what follows it is too large.
    static func lastCutAfterEnd(in bytes: UnsafeBufferPointer<UInt8>, after: Int, before end: Int) -> Int? {
        var p = end - 1
        while p > after {
            if bytes[p - 1] == 0x0A, startsWithBegin(bytes, at: p, before: end) {
                // The line before: from the line feed before it.
                var q = p - 1
                if q > after && bytes[q - 1] == 0x0D { q -= 1 }
                var lineStart = q
                while lineStart > after && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<q])
                if let name = LineScan.keyword(line, "END"), name != "VCALENDAR",
                    LineScan.topLevelNames.contains(name) {
                    return p
                }
            }
            p -= 1
        }
        return nil
    }

    /// The start of the first line in `bytes[from..<before]`, at `from` or
    /// after, where a stretch may begin; nil when there is none.
    static func firstCut(in bytes: UnsafeBufferPointer<UInt8>, from: Int, before end: Int) -> Int? {
        var p = from
        if p > 0 && bytes[p - 1] != 0x0A { p = LineScan.lineFeed(in: bytes, from: p, before: end) + 1 }
        while p < end {
            if isCut(bytes, at: p, before: end) { return p }
            p = LineScan.lineFeed(in: bytes, from: p, before: end) + 1
        }
        return nil
    }

    /// Whether the bytes at `p` are `BEGIN:`.
    private static func startsWithBegin(_ bytes: UnsafeBufferPointer<UInt8>, at p: Int, before end: Int) -> Bool {
        guard p + begin.count < end, bytes[p] == 0x42 else { return false }
        for (k, c) in begin.enumerated() where bytes[p + k] != c { return false }
        return true
    }

    /// Whether a plain `BEGIN:` line of a top-level component starts at `p`,
    /// whole before `end`, and the line after it is there and not a fold.
    static func isCut(_ bytes: UnsafeBufferPointer<UInt8>, at p: Int, before end: Int) -> Bool {
        guard p + begin.count + 6 < end, startsWithBegin(bytes, at: p, before: end) else { return false }
        let name = p + begin.count
        for word in topLevel where name + word.count < end {
            var same = true
            for (k, c) in word.enumerated() where bytes[name + k] != c {
                same = false
                break
            }
            guard same else { continue }
            var q = name + word.count
            if bytes[q] == 0x0D { q += 1 }
            guard q + 1 < end, bytes[q] == 0x0A else { return false }
            return !ContentLines.isFold(bytes, at: q + 1, before: end)
        }
        return false
    }

    /// Where each plain `BEGIN:VTIMEZONE` line starts, with the lines before
    /// it: the zones of a large input are read before its first stretch, as
    /// those of a small one are read before its events. Each stretch scanned
    /// is given back (`release`).
    static func zoneStarts(in bytes: UnsafeBufferPointer<UInt8>, stretch: Int,
        release: ((Range<Int>) -> Void)?) -> [(at: Int, linesBefore: Int)] {
        let word = Array("BEGIN:VTIMEZONE".utf8)
        var found: [(at: Int, linesBefore: Int)] = []
        var lines = 0
        var start = 0
        var p = 0
        while start < bytes.count {
            let end = min(start + stretch, bytes.count)
            while p < end {
                if bytes[p] == 0x42, p + word.count < bytes.count, isCut(bytes, at: p, before: bytes.count),
                    bytes[(p + 6)..<(p + word.count)].elementsEqual(word[6...])
                {
                    found.append((p, lines))
                }
                p = LineScan.lineFeed(in: bytes, from: p, before: bytes.count) + 1
                lines += 1
            }
            release?(start..<end)
            start = end
        }
        return found
    }

    /// How many line feeds `bytes[range]` holds.
    static func lineFeeds(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        var count = 0
        var p = range.lowerBound
        while p < range.upperBound {
            p = LineScan.lineFeed(in: bytes, from: p, before: range.upperBound)
            if p < range.upperBound { count += 1 }
            p += 1
        }
        return count
    }
}
