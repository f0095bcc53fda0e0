import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The files of the cache, written once for the URL copies
/// (`SubscriptionCache`) and the CalDAV copies (`DAVCopy`): folders 0700,
/// files 0600, each file replaced whole.
enum CacheFiles {
    /// Makes the folder (its parents as needed) 0700; refuses one that is
    /// a symbolic link or another user's. The mode is set through a
    /// descriptor that is the folder itself, never a link's target: that
    /// may be a folder every user writes in, and the copies may be secrets.
    static func makeFolder(_ folder: String) throws {
        var path = ""
        for part in folder.split(separator: "/", omittingEmptySubsequences: false) {
            path += (path.isEmpty && part.isEmpty) ? "/" : (path.hasSuffix("/") || path.isEmpty ? "" : "/") + part
            if part.isEmpty { continue }
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw CacheError(path: path, code: errno) }
        }
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw CacheError(path: folder, code: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_uid == geteuid() else { throw CacheError(path: folder, code: EPERM) }
        guard fchmod(fd, 0o700) == 0 else { throw CacheError(path: folder, code: errno) }
    }

    /// Writes `bytes` to a new temporary file beside `path` (0600), syncs
    /// it and renames it there: a reader sees the old file or the new, whole.
    static func write(_ bytes: [UInt8], to path: String) throws {
        var template = Array("\(path).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw CacheError(path: path, code: errno) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var written = 0
        let ok = bytes.withUnsafeBytes { raw -> Bool in
            while written < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                written += n
            }
            return true
        }
        let code = errno
        let synced = ok && fchmod(fd, 0o600) == 0 && fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CacheError(path: path, code: ok ? errno : code)
        }
    }
}
