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
        var template = Array("\(path).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure(path: path, code: errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // no command `alarms --exec` starts holds it
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
        var code = errno
        let synced = ok && fchmod(fd, 0o600) == 0 && fsync(fd) == 0
        if ok && !synced { code = errno }
        close(fd)
        guard synced else {
            unlink(temporary)
            throw Failure(path: temporary, code: code)
        }
        do { try beforeRename?() } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(path: path, code: code)
        }
        let parent = (path as NSString).deletingLastPathComponent
        let folder = open(parent.isEmpty ? "." : parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}
