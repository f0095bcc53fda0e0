import AgendaCore
import AgendaSystem
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
            do throws(Errno) {
                try FileNames.makeFolder(path, permissions: .ownerReadWriteExecute)
            } catch where error != .fileExists {
                throw CacheError(path: path, code: error.rawValue)
            } catch {}
        }
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.openFolder(folder, followingLinks: false)
        } catch {
            throw CacheError(path: folder, code: error.rawValue)
        }
        defer { try? fd.close() }
        guard let info = try? Stat(fd), info.userID.rawValue == geteuid() else {
            throw CacheError(path: folder, code: EPERM)
        }
        do throws(Errno) {
            try fd.setPermissions(.ownerReadWriteExecute)
        } catch {
            throw CacheError(path: folder, code: error.rawValue)
        }
    }

    /// `bytes` as the file at `path`, replaced whole (`AtomicFile`): a
    /// reader sees the old file or the new one.
    static func write(_ bytes: [UInt8], to path: String) throws {
        do { try AtomicFile.replace(path, with: bytes) } catch let failure as AtomicFile.Failure {
            throw CacheError(path: failure.path, code: failure.code)
        }
    }
}
