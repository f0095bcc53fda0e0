#if canImport(Glibc)
    import Glibc
#endif

/// A file's bytes mapped into memory for reading (`mmap`, private), its
/// pages given back as they are passed (`madvise`), unmapped when the
/// mapping's body returns (`munmap`): the one owner of every mapping.
package struct MappedFile {
    /// The file's bytes, valid while the body of `mapping` runs.
    package let bytes: UnsafeBufferPointer<UInt8>

    /// Runs `body` on the first `size` bytes of `file` mapped; `otherwise`
    /// when they cannot be mapped (a stream, a file system that does not map).
    package static func mapping<T>(
        _ file: FileDescriptor, size: Int, _ body: (MappedFile) throws -> T, otherwise: () throws -> T
    ) rethrows -> T {
        guard let base = map(at: nil, size, flags: MAP_PRIVATE, file.rawValue) else { return try otherwise() }
        defer { munmap(base, size) }
        return try body(MappedFile(bytes: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self),
            count: size)))
    }

    /// `mmap(address, length, PROT_READ, flags, fd, 0)`, again after a
    /// signal; nil when it fails. Also called in `MappedFileGuard`'s signal
    /// handler: it allocates nothing.
    static func map(at address: UnsafeMutableRawPointer?, _ length: Int, flags: Int32, _ fd: Int32)
        -> UnsafeMutableRawPointer?
    {
        let base = SystemCall.retrying({ mmap(address, length, PROT_READ, flags, fd, 0) },
            failed: { $0 == MAP_FAILED })
        return base == MAP_FAILED ? nil : base
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Gives back the whole pages inside `range` (`MADV_DONTNEED`): read,
    /// and not read again. A page that is read again is read from the file.
    package func release(_ range: Range<Int>) {
        let page = MappedFile.pageSize
        let start = (range.lowerBound + page - 1) / page * page
        let end = range.upperBound / page * page
        if end > start {
            let base = UnsafeMutableRawPointer(mutating: bytes.baseAddress!)
            SystemCall.retryingOnInterrupt { madvise(base + start, end - start, Int32(MADV_DONTNEED)) }
        }
    }

    /// Runs `body` with a fault past the file's end (it was cut short while
    /// it was read) mended to zero pages (`MappedFileGuard`); whether one was.
    package func guarded<T>(_ body: () throws -> T) rethrows -> (T, cutShort: Bool) {
        try MappedFileGuard.run(UnsafeRawBufferPointer(bytes), body)
    }
}
