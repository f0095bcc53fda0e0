import AgendaCore

#if canImport(Glibc)
    import Glibc
#endif

/// Runs of NUL bytes in an input: the zero-filled tail of a file a
/// downloader preallocated, or the zeros a crash leaves where the file
/// system kept a length but not the bytes. They are no text: each run is
/// taken out before the text is framed, told once where it starts, and
/// what lies before and after it is read as if it were not there.
/// Without this, a whole calendar followed by 100 MB of zeros framed as
/// one component "larger than 64 MB" (the zeros hold no line to cut at)
/// and listed nothing.
///
/// A NUL byte or two among the text are control characters (`TextRepair`
/// drops them); `minimum` in a row, or any at the very end, are a run.
enum NULRuns {
    static let minimum = 16
    /// How much is scanned between two gives-back of a large input's pages.
    static let scanStep = 1 << 24
    /// Warnings of one kind name the same words (`Warning.kind`).
    static let kind = "NUL bytes in a row"

    /// Where each run lies in `bytes`: none in text without NUL bytes (one
    /// `memchr` pass over it). The pages of a run, and those of an input
    /// larger than `large` as they are passed, are given back (`release`).
    static func find(in bytes: UnsafeBufferPointer<UInt8>, large: Int,
        release: ((Range<Int>) -> Void)?) -> [Range<Int>] {
        guard let base = bytes.baseAddress else { return [] }
        let n = bytes.count
        var runs: [Range<Int>] = []
        var p = 0, passed = 0
        while p < n {
            let stop = min(n, p + scanStep)
            if let hit = memchr(base + p, 0, stop - p) {
                let start = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                let end = endOfZeros(bytes, from: start, release: release)
                if end - start >= minimum || end == n { runs.append(start..<end) }
                p = end
            } else {
                p = stop
            }
            if n > large, let release, p - passed >= scanStep {
                release(passed..<p)
                passed = p
            }
        }
        return runs
    }

    /// Where the zeros from `start` end, eight bytes a step; the pages
    /// passed are given back as it goes (a run may be gigabytes).
    static func endOfZeros(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int,
        release: ((Range<Int>) -> Void)?) -> Int {
        let raw = UnsafeRawPointer(bytes.baseAddress!)
        let n = bytes.count
        var p = start
        while p < n {
            let (from, stop) = (p, min(n, p + scanStep))
            while p + 8 <= stop, raw.loadUnaligned(fromByteOffset: p, as: UInt64.self) == 0 { p += 8 }
            while p < stop, bytes[p] == 0 { p += 1 }
            if p - from >= minimum { release?(from..<p) }
            if p < stop { break }
        }
        return p
    }

    /// The text without its runs (a copy the size of what is left).
    static func removing(_ runs: [Range<Int>], from bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count - runs.reduce(0) { $0 + $1.count })
        var from = 0
        for run in runs {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[from..<run.lowerBound]))
            from = run.upperBound
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[from...]))
        return out
    }

    /// One warning a run, on the line it starts on: runs hold no line
    /// feed, so the lines of the text read without them are the file's.
    static func warnings(_ runs: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>) -> [Warning] {
        var line = 1, from = 0
        return runs.map { run in
            line += InputSegments.lineFeeds(in: bytes, from..<run.lowerBound)
            from = run.upperBound
            return warning(line: line, count: run.count, atEnd: run.upperBound == bytes.count)
        }
    }

    /// The words for a run of `count` NUL bytes starting on `line`.
    static func warning(line: Int, count: Int, atEnd: Bool) -> Warning {
        let what = "\(count) NUL byte\(count == 1 ? "" : "s")"
        let message = atEnd
            ? "the input ends in \(what) (preallocated by a downloader, or cut short by a crash?); left out: what " +
                "came before them is read"
            : "\(what) in a row (the file was damaged here?); left out: the text before and after them is read"
        return Warning(line, .controlCharacters, kind, message)
    }
}
