import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file replaced whole or not at all, in one place for every file the
/// program writes (the copies of URL calendars and CalDAV accounts, the
/// alarms' state): a new file beside it (0600, made anew, never a link
/// followed), written, synced, renamed over the old, and the folder synced
/// so that the rename lasts through a crash. A reader sees the old file or
/// the new one, never a part.
package enum AtomicFile {
    package struct Failure: Error {
        /// The file that could not be written: the temporary one, or the target of the rename.
        package let path: String
        package let code: Int32
    }

    /// - Parameter beforeRename: run between the sync and the rename (the
    ///   alarm tests end a run there); an error it throws leaves the old file.
    package static func replace(_ path: String, with bytes: [UInt8], beforeRename: (() throws -> Void)? = nil) throws {
        let temporary = try written(bytes, beside: path, synced: true)
        do { try beforeRename?() } catch {
            unlink(temporary)
            throw error
        }
        try renamed(temporary, to: path)
        syncFolder(of: path)
    }

    /// Many files written at once and made durable together (a CalDAV
    /// copy's items): each is written unsynced (`add`); `commit` syncs the
    /// file system once (`syncfs`), then renames each replacement over its
    /// target, then syncs each folder once. A file that replaces one a
    /// reader may name is written beside it and renamed, so a crash leaves
    /// it old or new, never a part: no rename comes before the data it
    /// names is on the disk. A file no reader names yet (an item its
    /// calendar's state does not name until after `commit`) is written in
    /// place: half of it after a crash is a file nothing reads. What is not
    /// committed is removed with the batch.
    package final class Batch {
        private var staged: [(temporary: String, path: String)] = []
        /// The files written in place, for the fallback sync.
        private var placed: [String] = []
        private var folder: String?

        package init() {}

        /// `bytes` as the file at `path`, when `commit` returns; in place
        /// when `named` is false (nothing reads `path` until then).
        package func add(_ path: String, bytes: [UInt8], named: Bool = true) throws {
            folder = folder ?? AtomicFile.folder(of: path)
            if named {
                staged.append((try written(bytes, beside: path, synced: false), path))
            } else {
                try writtenInPlace(bytes, at: path)
                placed.append(path)
            }
        }

        /// Every file added, durable and in place; throws on the first that
        /// cannot be (those before it are in place, the rest removed).
        package func commit() throws {
            guard let folder else { return }
            try AtomicFile.syncFileSystem(holding: folder, files: staged.map(\.temporary) + placed)
            placed = []
            var folders: Set<String> = []
            while !staged.isEmpty {
                let next = staged.removeFirst()
                try renamed(next.temporary, to: next.path)
                folders.insert(AtomicFile.folder(of: next.path))
            }
            for folder in folders.sorted() { syncFolder(of: folder + "/.") }
        }

        deinit {
            for file in staged { unlink(file.temporary) }
            for file in placed { unlink(file) }
        }
    }

    /// `syncfs(2)`, which Glibc's module does not declare (it is a GNU
    /// extension): looked up once in the C library.
    private static let syncfsCall: (@convention(c) (Int32) -> Int32)? = dlsym(nil, "syncfs").map {
        unsafeBitCast($0, to: (@convention(c) (Int32) -> Int32).self)
    }

    /// Makes the data of `files` durable: one `syncfs` of the file system
    /// that holds `folder`, else (a C library without it) an `fsync` each.
    private static func syncFileSystem(holding folder: String, files: [String]) throws {
        if let syncfs = syncfsCall {
            let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { throw Failure(path: folder, code: errno) }
            defer { close(fd) }
            guard syncfs(fd) == 0 else { throw Failure(path: folder, code: errno) }
            return
        }
        for file in files {
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw Failure(path: file, code: errno) }
            defer { close(fd) }
            guard fsync(fd) == 0 else { throw Failure(path: file, code: errno) }
        }
    }

    /// `bytes` as the file at `path` (0600; never a link followed),
    /// written in place and not synced.
    private static func writtenInPlace(_ bytes: [UInt8], at path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(path: path, code: errno) }
        let ok = writeAll(bytes, to: fd) && fchmod(fd, 0o600) == 0
        let code = errno
        close(fd)
        guard ok else { throw Failure(path: path, code: code) }
    }

    /// Writes every byte, again after a signal; false on a failure (errno says which).
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var written = 0
        return bytes.withUnsafeBytes { raw -> Bool in
            while written < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                written += n
            }
            return true
        }
    }

    /// A new file (0600, made anew) beside `path` holding `bytes`, synced
    /// when asked; its path. Nothing is left when it fails.
    private static func written(_ bytes: [UInt8], beside path: String, synced: Bool) throws -> String {
        var template = Array("\(path).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure(path: path, code: errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // no command `alarms --exec` starts holds it
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let ok = writeAll(bytes, to: fd)
        var code = errno
        let done = ok && fchmod(fd, 0o600) == 0 && (!synced || fsync(fd) == 0)
        if ok && !done { code = errno }
        close(fd)
        guard done else {
            unlink(temporary)
            throw Failure(path: temporary, code: code)
        }
        return temporary
    }

    private static func renamed(_ temporary: String, to path: String) throws {
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(path: path, code: code)
        }
    }

    private static func folder(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// Syncs the folder that holds `path`, so that a rename in it lasts through a crash.
    private static func syncFolder(of path: String) {
        let folder = open(folder(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}
