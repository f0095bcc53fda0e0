import AgendaCore
import Foundation

/// Reads batches of a file's components on the workers. Each worker takes
/// every `threads`-th job of a batch (so that slow and quick ones spread
/// evenly) and writes only its own result slots and its own scratch buffer.
struct BatchReader: @unchecked Sendable {
    let items: [FramedComponent]
    let buffer: UnsafeBufferPointer<UInt8>
    let stages: ComponentStages
    /// The rows each series may list at first (one a day of the window).
    let firstRows: Int

    func end(of start: Int) -> Int { min(start + BatchSchedule.batchSize, items.count) }

    /// Every component of the batch at `start`, into the first slots of `results` (empty ones).
    func read(batchAt start: Int, into results: BatchResults, scratch: ScratchBuffers) {
        process(start, (0..<(end(of: start) - start)).map { ($0, firstRows) }, into: results, scratch: scratch)
    }

    /// Reads the given components of the batch at `start` (slot, rows it
    /// may list) into `results`: in as many shares as `scratch` has buffers,
    /// each share every so-many-th job (so that slow and quick ones spread
    /// evenly), the shares handed to the threads as they come free (so that
    /// one slow share does not keep the others waiting); one buffer: on this thread.
    func process(_ start: Int, _ jobs: [(slot: Int, maxRows: Int)], into results: BatchResults,
        scratch: ScratchBuffers) {
        let shares = min(scratch.buffers.count, jobs.count)
        guard shares > 0 else { return }
        @Sendable func work(_ share: Int) {
            for j in stride(from: share, to: jobs.count, by: shares) {
                let (slot, maxRows) = jobs[j]
                results.buffer[slot] = stages.run(items[start + slot], buffer, scratch: &scratch.buffers[share],
                    maxRows: maxRows)
            }
            freeLibicalTemporaryBuffers()
        }
        if shares <= 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: shares, execute: work) }
    }
}

/// One batch's results, a slot a component: each written by one worker,
/// then read by the applying thread once every worker is done.
typealias BatchResults = Slots<ExpandedComponent>

/// `WindowPrefilter.mayMoveSeries` on another thread: the text is only
/// read, and the answer is written before the DispatchGroup's wait returns.
final class SeriesMoveScan: @unchecked Sendable {
    let text: UnsafeBufferPointer<UInt8>
    var mayMoveSeries = true

    init(text: UnsafeBufferPointer<UInt8>) {
        self.text = text
    }

    func run() { mayMoveSeries = WindowPrefilter.mayMoveSeries(text) }

    /// The same a stretch at a time, each given back once read (a word
    /// across two stretches is found: each starts a little before the last ended).
    func runInStretches(of stretch: Int, release: ((Range<Int>) -> Void)?) {
        var start = 0
        mayMoveSeries = false
        while start < text.count && !mayMoveSeries {
            let end = min(start + stretch, text.count)
            mayMoveSeries = WindowPrefilter.mayMoveSeries(UnsafeBufferPointer(rebasing: text[max(0,
                start - 4096)..<end]))
            release?(start..<end)
            start = end
        }
    }
}

/// The text a component is prepared in for libical, one buffer per
/// thread that reads components at once.
final class ScratchBuffers: @unchecked Sendable {
    let buffers: UnsafeMutableBufferPointer<[CChar]>
    init(count: Int, first: [CChar] = []) {
        buffers = .allocate(capacity: count)
        buffers.initialize(repeating: [])
        buffers[0] = first
    }
    deinit {
        buffers.deinitialize()
        buffers.deallocate()
    }
}
