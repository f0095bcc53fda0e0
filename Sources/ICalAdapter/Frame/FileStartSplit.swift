import AgendaCore
import Foundation
import Synchronization

/// Frames a stretch of a vdir collection's joined text (`CollectionText`)
/// on every core: the text is cut where one of its files begins, and each
/// part framed on its own (`ComponentSplitter.split`), which gives what
/// framing the whole would. Every file of the join is a closed VCALENDAR
/// (`ItemFileScan.isJoinable`): at its first line the framer is between
/// calendars and holds nothing of the file before. Only the calendars
/// counted before each part are known once the parts before are framed;
/// each component's `calendar` is moved on by them after.
///
/// 20,000 one-event files framed one after the other took a third of a
/// `next` run's wall time on two cores.
struct FileStartSplit {
    /// Where each file of the joined text starts, and the lines before it.
    let starts: [FileStart]
    let workers: Int
    /// Below this many bytes a stretch is framed on one thread (tests frame small ones in parts).
    var minimumBytes = FileStartSplit.parallelFrom

    /// Below this many bytes a stretch is framed on one thread.
    static let parallelFrom = 1 << 20

    /// How many stretches were framed in parts, so far in this process: tests look.
    static let framedInParts = Atomic<Int>(0)

    /// The stretch framed in parts, or nil when it is framed as one: too
    /// small, one worker, no file start to cut at; a part that does not end
    /// idle, or after the first one that does not open a VCALENDAR on its
    /// first line (one pass would carry something across the cut); or a
    /// part that stopped at `maxChunks` or holds no component (then framing
    /// it whole is what says where to stop and how the input ends).
    func split(_ stretch: Stretch, maxChunks: Int, calendarsSeen: Int) -> ComponentSplitter.Result? {
        let range = stretch.range
        guard workers > 1, range.count >= minimumBytes else { return nil }
        var parts: [(range: Range<Int>, linesBefore: Int)] = []
        var lower = range.lowerBound, linesBefore = stretch.linesBefore
        for k in 1..<workers {
            let target = range.lowerBound + range.count / workers * k
            guard let cut = firstStart(atOrAfter: max(target, lower + 1), before: range.upperBound, in: stretch.bytes)
            else { break }
            parts.append((lower..<cut.offset, linesBefore))
            (lower, linesBefore) = (cut.offset, cut.linesBefore)
        }
        guard !parts.isEmpty else { return nil }
        parts.append((lower..<range.upperBound, linesBefore))
        let framing = PartFraming(bytes: stretch.bytes, parts: parts,
            results: Slots(count: parts.count, initial: ComponentSplitter.Result()))
        DispatchQueue.concurrentPerform(iterations: parts.count) { k in
            framing.frame(k, maxChunks: maxChunks, calendarsSeen: k == 0 ? calendarsSeen : 0)
        }
        let whole = FileStartSplit.joined(framing.results.values, parts: parts.map(\.range),
            linesBefore: parts.map(\.linesBefore), maxChunks: maxChunks)
        if whole != nil { FileStartSplit.framedInParts.add(1, ordering: .relaxed) }
        return whole
    }

    /// The first file start in `from..<before` whose line reads `BEGIN:VCALENDAR` (a start given that does not
    /// is not cut at: the text is not what the starts were made for).
    private func firstStart(atOrAfter from: Int, before: Int, in bytes: UnsafeBufferPointer<UInt8>) -> FileStart? {
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid].offset < from { low = mid + 1 } else { high = mid }
        }
        for start in starts[low...] {
            guard start.offset < before else { return nil }
            if FileStartSplit.beginsCalendar(bytes, at: start.offset),
                FileStartSplit.endsCalendar(bytes, before: start.offset) {
                return start
            }
        }
        return nil
    }

    /// Whether the line before `at` reads `END:VCALENDAR`, as the framer reads
    /// it (`LineScan.keyword`): the file before ends as a joinable one should.
    static func endsCalendar(_ bytes: UnsafeBufferPointer<UInt8>, before at: Int) -> Bool {
        guard at > 0, bytes[at - 1] == 0x0A else { return false }
        let start = UnsafeBufferPointer(rebasing: bytes[..<(at - 1)]).lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        return LineScan.keyword(line(bytes, start..<(at - 1)), "END") == "VCALENDAR"
    }

    /// Whether a line that reads `BEGIN:VCALENDAR` (`LineScan.keyword`), not
    /// folded, starts at `at`, after a line feed. (The framer says whether
    /// it read it so: `ComponentSplitter.Result.startsWithCalendar`.)
    static func beginsCalendar(_ bytes: UnsafeBufferPointer<UInt8>, at: Int) -> Bool {
        guard at > 0, at < bytes.count, bytes[at - 1] == 0x0A else { return false }
        let end = LineScan.lineFeed(in: bytes, from: at, before: bytes.count)
        // Its line ends, and the next is no fold of it.
        guard end + 1 < bytes.count, !ContentLines.isBlank(bytes[end + 1]) else { return false }
        return LineScan.keyword(line(bytes, at..<end), "BEGIN") == "VCALENDAR"
    }

    /// A line's text, without its carriage return.
    private static func line(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        let end = range.upperBound > range.lowerBound && bytes[range.upperBound - 1] == 0x0D
            ? range.upperBound - 1 : range.upperBound
        return UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<end])
    }

    /// The parts' results as one, in order; nil when framing the whole is needed.
    private static func joined(_ results: [ComponentSplitter.Result], parts: [Range<Int>], linesBefore: [Int],
        maxChunks: Int) -> ComponentSplitter.Result? {
        guard results.allSatisfy({ !$0.chunks.isEmpty }),
            results.dropLast().allSatisfy(\.endsIdle), results.dropFirst().allSatisfy(\.startsWithCalendar),
            zip(results, parts).allSatisfy({ $0.stoppedAt == $1.upperBound }),
            zip(results, parts.indices.dropFirst()).allSatisfy({ $0.lines + linesBefore[$1 - 1] == linesBefore[$1] }),
            // The `maxChunks`-th component stops a pass before what follows it.
            results.reduce(0, { $0 + $1.chunks.count }) < maxChunks
        else { return nil }
        var whole = results[0]
        for part in results.dropFirst() {
            // The part counted its calendars from none: the ones before it come first.
            let before = whole.calendarsSeen
            whole.chunks.reserveCapacity(whole.chunks.count + part.chunks.count)
            for var chunk in part.chunks {
                chunk.calendar += before
                whole.chunks.append(chunk)
            }
            // Only the first X-WR-CALNAME is read: a later part's cut of its own is not told.
            let named = whole.calendarName != nil
            whole.calendarName = whole.calendarName ?? part.calendarName
            whole.wrTimezone = whole.wrTimezone ?? part.wrTimezone
            whole.appleColor = whole.appleColor ?? part.appleColor
            whole.color = whole.color ?? part.color
            whole.notes += named ? part.notes.filter { $0.kind != FrameScanner.calendarNameCut } : part.notes
            whole.cutAfterLastComponent = part.cutAfterLastComponent
            whole.endedCalendar = part.endedCalendar
            whole.calendarsSeen = before + part.calendarsSeen
            whole.sawCalendar = whole.sawCalendar || part.sawCalendar
            whole.lines += part.lines
            whole.stoppedAt = part.stoppedAt
            whole.endsIdle = part.endsIdle
        }
        return whole
    }
}

/// The parts framed on the workers: the text is only read, and each
/// part's result goes to its own slot.
private struct PartFraming: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
    let parts: [(range: Range<Int>, linesBefore: Int)]
    let results: Slots<ComponentSplitter.Result>

    func frame(_ k: Int, maxChunks: Int, calendarsSeen: Int) {
        results[k] = ComponentSplitter.split(bytes, in: parts[k].range, linesBefore: parts[k].linesBefore,
            maxChunks: maxChunks, calendarsSeen: calendarsSeen)
    }
}
