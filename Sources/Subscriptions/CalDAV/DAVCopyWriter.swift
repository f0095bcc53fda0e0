import AgendaCore
import AgendaSystem
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// The items of a sync written as their answers come, on a thread of
/// their own, while the next ones are asked for: a large first sync's
/// writes take the server's time, not ours. One `AtomicFile.Batch` a
/// calendar (an item its old state names is replaced through a temporary
/// file, a new one written in place); nothing is durable, and no
/// replacement in place, until `commit`, which waits for every write
/// before it. The batches are touched on `queue` alone.
final class DAVCopyWriter: @unchecked Sendable {
    private let queue = DispatchQueue(label: "ics-agenda.caldav-copy")
    private var batches: [Int: AtomicFile.Batch] = [:]
    /// The first write that failed: every later one is skipped, and `commit` throws it.
    private var failure: CacheError?

    /// `bytes` as the item file at `path` of calendar number `calendar`,
    /// written soon on the writer's thread.
    func add(_ calendar: Int, path: String, bytes: [UInt8], named: Bool) {
        queue.async { [self] in
            guard failure == nil else { return }
            let batch = batches[calendar] ?? AtomicFile.Batch()
            batches[calendar] = batch
            do { try batch.add(path, bytes: bytes, named: named) } catch { failure = DAVCopyWriter.cacheError(error) }
        }
    }

    /// Every item of calendar number `calendar` durable and in place, once
    /// every write asked before is done.
    func commit(_ calendar: Int) throws(CacheError) {
        let failed: CacheError? = queue.sync { [self] in
            if let failure { return failure }
            do { try batches.removeValue(forKey: calendar)?.commit() } catch { return DAVCopyWriter.cacheError(error) }
            return nil
        }
        if let failed { throw failed }
    }

    /// Waits for every write asked, and drops what was not committed (its
    /// temporary files removed): a sync that ends leaves no write going on
    /// once it lets go of the account's lock.
    func close() {
        queue.sync { [self] in
            failure = failure ?? CacheError(path: "", code: ECANCELED)
            batches = [:]
        }
    }

    private static func cacheError(_ error: any Error) -> CacheError {
        guard let failure = error as? AtomicFile.Failure else { return CacheError(path: "", code: EIO) }
        return CacheError(path: failure.path, code: failure.code)
    }
}
