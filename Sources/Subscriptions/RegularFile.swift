import AgendaSystem
import Foundation

/// A file of the cache, open for reading only when it is a regular file
/// of a bounded size. Whatever else stands at its path is refused without
/// waiting: a FIFO would block `open` (and `String(contentsOfFile:)`) for
/// ever, a device could give without end, a symbolic link could lead out
/// of the cache. The descriptor has one owner, this value, and is closed
/// with it.
struct RegularFile: ~Copyable {
    let descriptor: FileDescriptor
    /// Its size and modification time when opened (`fstat`).
    let info: Stat

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
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.openWithoutWaiting(path)
        } catch {
            let code = error.rawValue
            if code == ENOENT || code == ENOTDIR { return nil }
            throw Refusal(
                path: path,
                reason: code == ELOOP
                    ? "is a symbolic link, not a regular file" : "cannot be read: \(String(cString: strerror(code)))")
        }
        let info: Stat
        do throws(Errno) {
            info = try Stat(fd)
        } catch {
            try? fd.close()
            throw Refusal(path: path, reason: "cannot be read: \(String(cString: strerror(error.rawValue)))")
        }
        guard info.type == .regular else {
            try? fd.close()
            throw Refusal(path: path, reason: "is not a regular file (\(RegularFile.kind(info.type)))")
        }
        guard Int(info.size) <= limit else {
            try? fd.close()
            throw Refusal(
                path: path, reason: "is larger than \(RegularFile.describe(bytes: limit)), more than the cache keeps")
        }
        return RegularFile(descriptor: fd, info: info)
    }

    private init(descriptor: FileDescriptor, info: Stat) {
        self.descriptor = descriptor
        self.info = info
    }

    deinit {
        try? descriptor.close()
    }

    /// When it was last written or confirmed.
    var modified: Date {
        Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
    }

    var size: Int { Int(info.size) }

    /// Its first `count` bytes at most (fewer when it is shorter, or when it
    /// shrank since it was opened).
    func read(upTo count: Int) -> [UInt8] { descriptor.read(upTo: count) }

    /// What a file of type `type` is, in a word a user knows.
    static func kind(_ type: FileType) -> String {
        switch type {
        case .fifo: "a FIFO"
        case .directory: "a folder"
        case .characterSpecial: "a character device"
        case .blockSpecial: "a block device"
        case .socket: "a socket"
        case .symbolicLink: "a symbolic link"
        default: "not a file"
        }
    }

    static func describe(bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MB" : bytes >= 1 << 10 ? "\(bytes >> 10) KB" : "\(bytes) bytes"
    }
}
