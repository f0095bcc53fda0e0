import AgendaCore
import Foundation

/// How one stretch's components are read and applied: in batches, read on
/// every core for a large file, and applied in file order on this thread,
/// so that the result does not depend on how many threads there were.
/// With more than one worker, the workers read the next batch while this
/// thread applies one: applying (counts, revisions, copying rows) is the
/// part that cannot be shared out.
struct BatchSchedule {
    let batches: BatchReader
    let workers: Int
    /// The bytes the components were framed from, given back (`release`) as they are passed.
    let framed: Range<Int>
    let release: ((Range<Int>) -> Void)?

    /// Components read together, before they are applied in file order.
    static let batchSize = 1024
    /// How many shares of a batch each worker takes on average: a worker
    /// that is done with its share takes the next, and a batch ends when
    /// its last share does.
    static let sharesPerWorker = 8
    /// Below this many components one thread is quicker than starting more.
    static let parallelFrom = 512
    /// Passed bytes are given back this many at a time.
    static let releaseStep = 1 << 20

    /// `threads` when set (ICS_AGENDA_THREADS), else every core (at most 8) for a stretch of many components.
    static func workers(for count: Int, threads: Int?) -> Int {
        if let threads { max(1, threads) } else if count >= parallelFrom { max(1,
            min(ProcessInfo.processInfo.activeProcessorCount, 8)) } else {
            1
        }
    }

    /// Reads every component and hands each to `apply`, in file order.
    /// - Parameter scratch: this thread's buffer for preparing a component's text.
    /// - Parameter rowBudget: what is left of the file's rows: every series
    ///   may list one row a day; one that reaches that is read again, alone
    ///   and in file order, with more out of the budget, which then pays for
    ///   what it really listed.
    func run(scratch: inout [CChar], rowBudget: inout Int, apply: (ExpandedComponent) -> Void) {
        let batches = self.batches, items = batches.items, firstRows = batches.firstRows
        var released = framed.lowerBound
        // Several shares a worker (BatchReader.process); one buffer each.
        let workerScratch = ScratchBuffers(count: workers > 1 ? workers * BatchSchedule.sharesPerWorker : 1)
        let ahead = DispatchQueue(label: "ics-agenda.read-ahead")
        let mainScratch = ScratchBuffers(count: 1, first: scratch)
        // Two batches' results, used in turn: each is a few hundred kilobytes,
        // which a new allocation would fault in afresh for every batch.
        // No more than the stretch holds: a file of one event (a folder of
        // thousands given one by one) set up two full batches each.
        let batchCount = min(BatchSchedule.batchSize, max(items.count, 1))
        var current = BatchResults(count: batchCount, initial: ExpandedComponent())
        var spare = BatchResults(count: batchCount, initial: ExpandedComponent())
        var start = 0
        batches.read(batchAt: 0, into: current, scratch: workerScratch)
        while start < items.count {
            let end = batches.end(of: start)
            let group = DispatchGroup()
            let readsAhead = end < items.count && workers > 1
            if readsAhead {
                ahead.async(group: group) {
                    [batches, spare] in batches.read(batchAt: end, into: spare, scratch: workerScratch)
                }
            }
            for i in 0..<(end - start) where current.buffer[i].rows.reachedLimit && rowBudget > 0 {
                batches.process(start, [(i, firstRows + min(RecurrenceExpander.maxInstances - firstRows, rowBudget))],
                    into: current, scratch: mainScratch)
                rowBudget = max(0, rowBudget - max(0, current.buffer[i].rows.listed - firstRows))
            }
            for i in 0..<(end - start) {
                apply(current.buffer[i])
                current.buffer[i] = ExpandedComponent()
            }
            group.wait()
            if let release, end < items.count, items[end].range.lowerBound - released > BatchSchedule.releaseStep {
                release(released..<items[end].range.lowerBound)
                released = items[end].range.lowerBound
            }
            if readsAhead {
                swap(&current, &spare)
            } else if end < items.count {
                batches.read(batchAt: end, into: current, scratch: workerScratch)
            }
            start = end
        }
        if released < framed.upperBound { release?(released..<framed.upperBound) }
        scratch = mainScratch.buffers[0]
    }
}
