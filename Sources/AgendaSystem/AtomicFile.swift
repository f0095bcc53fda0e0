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
            try? FileNames.remove(temporary)
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
            for file in staged { try? FileNames.remove(file.temporary) }
            for file in placed { try? FileNames.remove(file) }
        }
    }

    /// Makes the data of `files` durable: one `syncfs` of the file system
    /// that holds `folder`, else (a C library without it) an `fsync` each.
    private static func syncFileSystem(holding folder: String, files: [String]) throws {
        if FileDescriptor.canSynchronizeFileSystem {
            try failing(at: folder) { () throws(Errno) in
                let fd = try FileDescriptor.openFolder(folder)
                defer { try? fd.close() }
                try fd.synchronizeFileSystem()
            }
            return
        }
        for file in files {
            try failing(at: file) { () throws(Errno) in
                let fd = try SystemCall.typed { try FileDescriptor.open(file, .readOnly, options: .closeOnExec) }
                defer { try? fd.close() }
                try fd.synchronize()
            }
        }
    }

    /// `body`, its `errno` thrown as a `Failure` at `path`.
    private static func failing<T>(at path: String, _ body: () throws(Errno) -> T) throws(Failure) -> T {
        do { return try body() } catch { throw Failure(path: path, code: error.rawValue) }
    }

    /// `bytes` as the file at `path` (0600; never a link followed),
    /// written in place and not synced.
    private static func writtenInPlace(_ bytes: [UInt8], at path: String) throws {
        let fd = try failing(at: path) { () throws(Errno) in try FileDescriptor.openForReplacing(path) }
        defer { try? fd.close() }
        try failing(at: path) { () throws(Errno) in
            try SystemCall.typed { try fd.writeAll(bytes) }
            try fd.setPermissions(.ownerReadWrite)
        }
    }

    /// A new file (0600, made anew) beside `path` holding `bytes`, synced
    /// when asked; its path. Nothing is left when it fails.
    private static func written(_ bytes: [UInt8], beside path: String, synced: Bool) throws -> String {
        var template: [CChar] = []
        let fd = try failing(at: path) { () throws(Errno) in
            FileDescriptor(rawValue: try SystemCall.checked {
                template = Array("\(path).XXXXXX".utf8CString)  // each try from the template: mkstemp writes in it
                return template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            })
        }
        fd.setCloseOnExec()  // no command `alarms --exec` starts holds it
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            defer { try? fd.close() }
            try failing(at: temporary) { () throws(Errno) in
                try SystemCall.typed { try fd.writeAll(bytes) }
                try fd.setPermissions(.ownerReadWrite)
                if synced { try fd.synchronize() }
            }
        } catch {
            try? FileNames.remove(temporary)
            throw error
        }
        return temporary
    }

    private static func renamed(_ temporary: String, to path: String) throws {
        do { try FileNames.rename(temporary, to: path) } catch {
            try? FileNames.remove(temporary)
            throw Failure(path: path, code: error.rawValue)
        }
    }

    private static func folder(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// Syncs the folder that holds `path`, so that a rename in it lasts through a crash.
    private static func syncFolder(of path: String) {
        guard let folder = try? FileDescriptor.openFolder(folder(of: path)) else { return }
        try? folder.synchronize()
        try? folder.close()
    }
}
