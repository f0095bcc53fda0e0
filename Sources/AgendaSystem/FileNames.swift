#if canImport(Glibc)
    import Glibc
#endif

/// The calls on a file's name in its folder that swift-system does not
/// give, wrapped once: a folder made or removed, a file renamed or
/// removed, its time set, a path resolved. Each is retried after a signal
/// and throws `errno` (`SystemCall`).
package enum FileNames {
    /// Renames `path` to `target`, replacing what is there at once (`rename`).
    package static func rename(_ path: String, to target: String) throws(Errno) {
        try SystemCall.checked { Glibc.rename(path, target) }
    }

    /// Removes the file (`unlink`; a link itself, never its target).
    package static func remove(_ path: String) throws(Errno) {
        try SystemCall.checked { unlink(path) }
    }

    /// Makes the folder (`mkdir`), its mode `permissions` less the umask.
    package static func makeFolder(_ path: String, permissions: FilePermissions) throws(Errno) {
        try SystemCall.checked { mkdir(path, permissions.rawValue) }
    }

    /// Removes the folder when it is empty (`rmdir`).
    package static func removeFolder(_ path: String) throws(Errno) {
        try SystemCall.checked { rmdir(path) }
    }

    /// Sets the file's times to now (`utimensat`), not through a symbolic link.
    package static func touch(_ path: String) throws(Errno) {
        try SystemCall.checked { utimensat(AT_FDCWD, path, nil, AT_SYMLINK_NOFOLLOW) }
    }

    /// The path with every link, `.` and `..` resolved (`realpath`), as its
    /// bytes; nil when it cannot be.
    package static func resolved(_ path: UnsafePointer<CChar>) -> [UInt8]? {
        guard let real = try? SystemCall.checked({ realpath(path, nil) }) else { return nil }
        defer { free(real) }
        return Array(UnsafeRawBufferPointer(start: real, count: strlen(real)))
    }
}
