/// The ways the program opens a file, each once, through swift-system's
/// `FileDescriptor.open` (again after a signal; its failure an `Errno`).
extension FileDescriptor {
    /// Opens `path` (as the system spells it) for reading: `open(path, O_RDONLY)`.
    package static func openForReading(_ path: UnsafePointer<CChar>) throws(Errno) -> FileDescriptor {
        try SystemCall.typed { try FileDescriptor.open(path, .readOnly) }
    }

    /// Opens `path` for reading without waiting (`O_NONBLOCK`: a FIFO left
    /// at its name must not hold the run) and, unless `followingLinks`,
    /// not through a symbolic link (`O_NOFOLLOW`: ELOOP); closed on exec.
    package static func openWithoutWaiting(_ path: UnsafePointer<CChar>, followingLinks: Bool = false)
        throws(Errno) -> FileDescriptor
    {
        var options: OpenOptions = [.nonBlocking, .closeOnExec]
        if !followingLinks { options.insert(.noFollow) }
        return try SystemCall.typed { try FileDescriptor.open(path, .readOnly, options: options) }
    }

    /// Opens the folder at `path` (`O_RDONLY | O_DIRECTORY | O_CLOEXEC`,
    /// and `O_NOFOLLOW` when `followingLinks` is false).
    package static func openFolder(_ path: String, followingLinks: Bool = true) throws(Errno) -> FileDescriptor {
        var options: OpenOptions = [.directory, .closeOnExec]
        if !followingLinks { options.insert(.noFollow) }
        return try SystemCall.typed { try FileDescriptor.open(path, .readOnly, options: options) }
    }

    /// Opens the lock file at `path` (made 0600 when it is not there; never
    /// through a link; closed on exec), to take its lock (`lockExclusively`).
    /// `withoutWaiting` (`O_NONBLOCK`): a FIFO left at that name does not
    /// hold the open.
    package static func openLockFile(_ path: String, withoutWaiting: Bool = false) throws(Errno) -> FileDescriptor {
        var options: OpenOptions = [.create, .noFollow, .closeOnExec]
        if withoutWaiting { options.insert(.nonBlocking) }
        return try SystemCall.typed {
            try FileDescriptor.open(path, .readWrite, options: options, permissions: .ownerReadWrite)
        }
    }

    /// Opens (makes, or empties) the file at `path` for writing, 0600, never
    /// through a link; closed on exec.
    package static func openForReplacing(_ path: String) throws(Errno) -> FileDescriptor {
        try SystemCall.typed {
            try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .noFollow, .closeOnExec],
                permissions: .ownerReadWrite)
        }
    }
}
