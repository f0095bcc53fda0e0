#if canImport(Glibc)
    import Glibc
#endif

/// The names in a folder (`opendir`, `readdir`), wrapped once: each given
/// where it lies, its bytes as the folder holds them (not always UTF-8),
/// with its type as the folder tells it.
package enum FolderEntries {
    /// Where an entry's name starts in it: read in place, not copied (256 bytes) first.
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// Calls `body` with each name in the folder at `path` (its bytes, no
    /// NUL) and its type (`DT_REG`, `DT_DIR`, ...; `DT_UNKNOWN` when the
    /// folder does not tell), `.` and `..` left out, in the folder's order;
    /// false when the folder cannot be opened.
    package static func forEach(
        in path: UnsafePointer<CChar>, _ body: (_ name: UnsafeRawBufferPointer, _ type: UInt8) throws -> Void
    ) rethrows -> Bool {
        guard let folder = try? SystemCall.checked({ opendir(path) }) else { return false }
        defer { closedir(folder) }
        // nil ends the folder, with errno as it was: cleared first, so that an old EINTR is not read as this one's.
        while let entry = SystemCall.retrying({ errno = 0; return readdir(folder) }, failed: { $0 == nil }) {
            let start = UnsafeRawPointer(entry) + nameOffset
            let name = UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self)))
            let isDots = !name.isEmpty && name.count <= 2 && name.allSatisfy { $0 == 0x2E }
            if !isDots { try body(name, entry.pointee.d_type) }
        }
        return true
    }
}
