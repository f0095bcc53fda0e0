import AgendaCore

#if canImport(Glibc)
    import Glibc
#endif

/// `NULRuns` for a stream, as it comes: runs of NUL bytes are taken out
/// of the text piece by piece, so that a stream that ends in gigabytes of
/// zeros costs the memory of its text. NUL bytes at the end of a piece are
/// held back until the next shows whether they are a run.
struct NULStripper {
    /// A run taken out: where it was, as an offset into the text given
    /// on, how many bytes it held, and whether the stream ended in it.
    struct Run {
        let at: Int
        let count: Int
        let atEnd: Bool
    }

    /// NUL bytes in a row at the end of what came so far, held back.
    private var held = 0
    private(set) var runs: [Run] = []
    /// The runs before this one are told (`warnings`).
    private var untold = 0
    /// Bytes given on so far.
    private(set) var written = 0

    /// Appends `bytes`, without its runs, to `out`.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        // Most text has no NUL byte at all: one memchr, one copy.
        if held == 0, memchr(base, 0, bytes.count) == nil {
            give(bytes, to: &out)
            return
        }
        var p = 0
        while p < bytes.count {
            if bytes[p] == 0 {
                held += 1
                p += 1
                continue
            }
            endRun(atEnd: false, into: &out)
            let next = memchr(base + p, 0, bytes.count - p)
                .map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? bytes.count
            give(UnsafeBufferPointer(rebasing: bytes[p..<next]), to: &out)
            p = next
        }
    }

    /// At the end of the stream: NUL bytes held back end it, a run whatever their number.
    mutating func finish(into out: inout [UInt8]) {
        endRun(atEnd: true, into: &out)
    }

    /// The NUL bytes held back: a run taken out, or (fewer than
    /// `NULRuns.minimum` among text) given on for `TextRepair`.
    private mutating func endRun(atEnd: Bool, into out: inout [UInt8]) {
        guard held > 0 else { return }
        if held >= NULRuns.minimum || atEnd {
            runs.append(Run(at: written, count: held, atEnd: atEnd))
        } else {
            out.append(contentsOf: repeatElement(0, count: held))
            written += held
        }
        held = 0
    }

    private mutating func give(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(contentsOf: bytes)
        written += bytes.count
    }

    /// The warnings of the runs taken out of `text`, the stream's text
    /// from offset `offset` on, `linesBefore` lines before it; those runs
    /// are then forgotten. Runs past the end of `text` wait.
    mutating func warnings(in text: UnsafeBufferPointer<UInt8>, offset: Int, linesBefore: Int) -> [Warning] {
        var told: [Warning] = []
        var line = linesBefore + 1, from = 0
        while untold < runs.count, runs[untold].at <= offset + text.count {
            let run = runs[untold]
            let at = max(0, run.at - offset)
            line += InputSegments.lineFeeds(in: text, from..<at)
            from = at
            told.append(NULRuns.warning(line: line, count: run.count, atEnd: run.atEnd))
            untold += 1
        }
        return told
    }
}
