#if canImport(Glibc)
    import Glibc
#endif

/// What swift-system's `FileDescriptor` lacks, wrapped once: locks, syncs,
/// modes, descriptor flags, folders opened below a folder. Each call is
/// retried after a signal and throws `errno` (`SystemCall`).
extension FileDescriptor {
    /// Waits until no other descriptor holds its exclusive lock, then
    /// holds it (`flock(LOCK_EX)`) until the file is closed; a signal is
    /// waited through, any other failure (no such lock on this file system) thrown.
    package func lockExclusively() throws(Errno) {
        try SystemCall.checked { flock(rawValue, LOCK_EX) }
    }

    /// Its data and metadata on the disk (`fsync`).
    package func synchronize() throws(Errno) {
        try SystemCall.checked { fsync(rawValue) }
    }

    /// `syncfs(2)`, which Glibc's module does not declare (it is a GNU
    /// extension): looked up once in the C library; nil where it has none.
    private static let syncfsCall: (@convention(c) (Int32) -> Int32)? = dlsym(nil, "syncfs").map {
        unsafeBitCast($0, to: (@convention(c) (Int32) -> Int32).self)
    }

    /// Whether the whole file system can be synced at once (`synchronizeFileSystem`).
    package static var canSynchronizeFileSystem: Bool { syncfsCall != nil }

    /// Every file of the file system that holds it on the disk (`syncfs`);
    /// `canSynchronizeFileSystem` says whether the C library has it.
    package func synchronizeFileSystem() throws(Errno) {
        guard let syncfs = FileDescriptor.syncfsCall else { throw .noFunction }
        try SystemCall.checked { syncfs(rawValue) }
    }

    /// Sets its mode (`fchmod`): through the descriptor, never a link's target.
    package func setPermissions(_ permissions: FilePermissions) throws(Errno) {
        try SystemCall.checked { fchmod(rawValue, permissions.rawValue) }
    }

    /// Whether the descriptor is open (`F_GETFD`).
    package var isOpen: Bool { SystemCall.retryingOnInterrupt { fcntl(rawValue, F_GETFD) } >= 0 }

    /// Closed when this process starts a program (`FD_CLOEXEC`); whether it could be set.
    @discardableResult
    package func setCloseOnExec() -> Bool {
        SystemCall.retryingOnInterrupt { fcntl(rawValue, F_SETFD, FD_CLOEXEC) } >= 0
    }

    /// A second descriptor of the same file, closed when a program starts (`F_DUPFD_CLOEXEC`).
    package func duplicateClosingOnExec() throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try SystemCall.checked { fcntl(rawValue, F_DUPFD_CLOEXEC, 0) })
    }

    /// The folder `name` inside this folder (`openat`, `O_RDONLY | O_DIRECTORY | O_CLOEXEC`).
    package func openFolder(named name: UnsafePointer<CChar>) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try SystemCall.checked { openat(rawValue, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC) })
    }
}
