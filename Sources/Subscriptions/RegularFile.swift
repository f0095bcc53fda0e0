import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file of the cache, open for reading only when it is a regular file
/// of a bounded size. Whatever else stands at its path is refused without
/// waiting: a FIFO would block `open` (and `String(contentsOfFile:)`) for
/// ever, a device could give without end, a symbolic link could lead out
/// of the cache. The descriptor has one owner, this value, and is closed
/// with it.
struct RegularFile: ~Copyable {
    let descriptor: Int32
    /// Its size and modification time when opened (`fstat`).
    let info: stat

    /// Why what is at a path cannot be read as a file of the cache; nil
    /// from `open` when there is nothing there.
    struct Refusal: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path) \(reason)" }
    }

    /// Opens `path` (`O_NONBLOCK`, `O_NOFOLLOW`, `O_CLOEXEC`); nil when it
    /// is not there. Throws when it is there but is not a regular file of
    /// at most `limit` bytes, or cannot be opened.
    static func open(_ path: String, limit: Int) throws(Refusal) -> RegularFile? {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw Refusal(
                path: path,
                reason: code == ELOOP
                    ? "is a symbolic link, not a regular file" : "cannot be read: \(String(cString: strerror(code)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw Refusal(path: path, reason: "cannot be read: \(String(cString: strerror(code)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw Refusal(path: path, reason: "is not a regular file (\(RegularFile.kind(info.st_mode)))")
        }
        guard Int(info.st_size) <= limit else {
            close(fd)
            throw Refusal(
                path: path, reason: "is larger than \(RegularFile.describe(bytes: limit)), more than the cache keeps")
        }
        return RegularFile(descriptor: fd, info: info)
    }

    private init(descriptor: Int32, info: stat) {
        self.descriptor = descriptor
        self.info = info
    }

    deinit {
        close(descriptor)
    }

    /// When it was last written or confirmed.
    var modified: Date {
        Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
    }

    var size: Int { Int(info.st_size) }

    /// Its first `count` bytes at most (fewer when it is shorter, or when it
    /// shrank since it was opened).
    func read(upTo count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            filled += n
        }
        return Array(bytes[..<filled])
    }

    /// What a file of mode `mode` is, in a word a user knows.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a folder"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a file"
        }
    }

    static func describe(bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MB" : bytes >= 1 << 10 ? "\(bytes >> 10) KB" : "\(bytes) bytes"
    }
}
