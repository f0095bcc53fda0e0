import Foundation
import Synchronization

/// Writes an agenda's rows in order from several threads (text, JSON): the rows are taken in blocks of whole days (a
/// crowded day alone is cut), each block cut into runs near the starts of days, more runs than threads (days differ
/// in rows and overlaps: one run a thread left a core idle a third of the time), taken by the threads as they come
/// free and each written into its own buffer; the buffers are written out in order, so the bytes are the same
/// whatever the number of threads.
///
/// Before a block's rows, what each of its days needs (`day`: what its rows overlap, `NamedOverlaps.day`) is made,
/// a day a thread at a time, and handed to each of the day's rows. It is let go once the block is written (but the
/// last day's, when the next block goes on with it): memory holds a block of the agenda, not the whole.
package struct BlockWriter: Sendable {
    /// How many threads write.
    package let threads: Int
    /// About how many rows a block holds: it ends with a day past this many rows, or at four times as many.
    package let blockRows: Int
    static let runsPerThread = 3

    package init(threads: Int, blockRows: Int) {
        self.threads = max(threads, 1)
        self.blockRows = blockRows
    }

    /// A row's place: its section, its index among the section's rows, and whether it is the first written there.
    package struct Place: Sendable {
        package let section: Int
        package let index: Int
        package let opensSection: Bool
    }

    /// Writes the rows of `sections` that `keep` keeps, in order: `row` for each, given its place, what its day needs
    /// (`day`, made once a day from the rows' `sortDay`), the state of the thread writing it (`state`, made once a
    /// thread) and the buffer of its run.
    package func write<Day: Sendable, State>(
        _ sections: [AgendaSection], keep: (AgendaRow) -> Bool = { _ in true }, to out: inout some ByteOutputStream,
        state: () -> State, day: @escaping @Sendable (Int64) -> Day,
        row: @escaping @Sendable (AgendaRow, Place, Day, inout State, BlockBuffer) -> Void
    ) {
        var states = (0..<threads).map { _ in state() }
        let buffers = (0..<(threads > 1 ? threads * BlockWriter.runsPerThread : 1)).map { _ in BlockBuffer() }
        var rows: [AgendaRow] = [], places: [Place] = []
        var last: (sortDay: Int64, value: Day)? = nil
        states.withUnsafeMutableBufferPointer { states in
            let shared = SharedSlots(slots: states)
            func flush() {
                // The block's days, and what each needs: made a day a thread, the last block's last day's kept.
                var keys: [Int64] = [], dayOfRow: [Int32] = []
                for row in rows {
                    if keys.last != row.sortDay { keys.append(row.sortDay) }
                    dayOfRow.append(Int32(keys.count - 1))
                }
                var values = [Day?](repeating: nil, count: keys.count)
                if let last, last.sortDay == keys[0] { values[0] = last.value }
                let missing = values.indices.filter { values[$0] == nil }
                values.withUnsafeMutableBufferPointer { values in
                    let made = SharedSlots(slots: values)
                    inParallel(missing.count) { [keys] n, _ in made.slots[missing[n]] = day(keys[missing[n]]) }
                }
                last = (keys[keys.count - 1], values[keys.count - 1]!)
                let runs = rows.count >= 256 ? buffers.count : 1
                let bounds = BlockWriter.partBounds(of: rows, parts: runs)
                inParallel(runs) { [rows, places, values, dayOfRow] run, worker in
                    let buffer = buffers[run]
                    buffer.count = 0
                    for n in bounds[run]..<bounds[run + 1] {
                        row(rows[n], places[n], values[Int(dayOfRow[n])]!, &shared.slots[worker], buffer)
                    }
                }
                for run in 0..<runs { out.write(bytes: buffers[run].bytes) }
                rows.removeAll(keepingCapacity: true)
                places.removeAll(keepingCapacity: true)
            }
            for (s, section) in sections.enumerated() {
                var opens = true
                for (i, row) in section.rows.enumerated() where keep(row) {
                    if rows.count >= 4 * blockRows || (rows.count >= blockRows && rows.last!.sortDay != row.sortDay) {
                        flush()
                    }
                    rows.append(row)
                    places.append(Place(section: s, index: i, opensSection: opens))
                    opens = false
                }
            }
            if !rows.isEmpty { flush() }
        }
    }

    /// Calls `body` with each of `0..<count` and the number of the thread calling it: `threads` threads, each taking
    /// the next when done with one.
    private func inParallel(_ count: Int, _ body: @escaping @Sendable (Int, Int) -> Void) {
        guard threads > 1 && count > 1 else {
            for n in 0..<count { body(n, 0) }
            return
        }
        let next = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: min(threads, count)) { worker in
            while case let n = next.wrappingAdd(1, ordering: .relaxed).oldValue, n < count { body(n, worker) }
        }
    }

    /// Where each of `parts` parts of `rows` begins (and the last ends): about equal, each moved to the nearer start
    /// of a day when that is within half a part (on many cores a part is less than a day, and moving it further
    /// would leave one thread twice the rows).
    package static func partBounds(of rows: [AgendaRow], parts: Int) -> [Int] {
        var bounds = [0]
        let slack = rows.count / max(parts, 1) / 2
        for p in 1..<max(parts, 1) {
            let even = rows.count * p / parts
            var later = even, earlier = even
            while later > 0 && later < rows.count && rows[later - 1].sortDay == rows[later].sortDay { later += 1 }
            while earlier > 0 && earlier < rows.count && rows[earlier - 1].sortDay == rows[earlier].sortDay {
                earlier -= 1
            }
            let nearer = even - earlier <= later - even ? earlier : later
            let moved = abs(nearer - even) <= slack && nearer > bounds.last! && nearer < rows.count
            bounds.append(moved ? nearer : max(even, bounds.last!))
        }
        bounds.append(rows.count)
        return bounds
    }
}

/// One run's bytes, written through a pointer into memory reserved ahead (JSON: appending to an array piece by
/// piece, a dozen pieces a line, each checked and counted, cost more than the pieces) or appended (text).
package final class BlockBuffer: @unchecked Sendable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    var count = 0

    init() {
        capacity = 1 << 16
        start = .allocate(capacity: capacity)
    }

    deinit { start.deallocate() }

    /// Where the next bytes go, with room for `bytes` of them.
    func reserve(_ bytes: Int) -> UnsafeMutablePointer<UInt8> {
        if count + bytes > capacity {
            capacity = max(capacity * 2, count + bytes)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: start, count: count)
            start.deallocate()
            start = grown
        }
        return start + count
    }

    func append(_ byte: UInt8) {
        reserve(1)[0] = byte
        count += 1
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress else { return }
        reserve(bytes.count).update(from: from, count: bytes.count)
        count += bytes.count
    }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    func append(spaces n: Int) {
        guard n > 0 else { return }
        reserve(n).update(repeating: 0x20, count: n)
        count += n
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }
}
