import Synchronization

/// Counts the files and folders found that were skipped, from the threads
/// that read a folder and from the walk that finds them: shared by every
/// copy of the `InputReader` that owns it.
final class SkippedInputs: Sendable {
    private let counts = Mutex<(unreadable: Int, notCalendar: Int)>((0, 0))

    func add(notCalendar: Bool) {
        counts.withLock { if notCalendar { $0.notCalendar += 1 } else { $0.unreadable += 1 } }
    }

    var unreadable: Int { counts.withLock { $0.unreadable } }
    var notCalendar: Int { counts.withLock { $0.notCalendar } }
}
