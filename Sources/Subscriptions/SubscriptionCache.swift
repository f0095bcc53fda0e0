import Foundation
import ICalAdapter

#if canImport(Glibc)
    import Glibc
#endif

/// The copies of subscribed calendars: `$XDG_CACHE_HOME/ics-agenda/`, else
/// `~/.cache/ics-agenda/` (folder 0700, files 0600). Each URL has its last
/// good copy (`KEY.ics`, its modification time when the server last gave
/// or confirmed it) and the validators to ask with (`KEY.meta`). Both are
/// written to a temporary file and renamed, so that a run that stops, or
/// two runs at once, never leave half a copy.
package struct SubscriptionCache: Sendable {
    package let folder: String

    package init(folder: String) {
        self.folder = folder
    }

    /// Where the cache is, as the environment says.
    package static func location(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/ics-agenda" }
        var home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        if home == nil, let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { home = String(cString: dir) }
        return (home ?? "/") + "/.cache/ics-agenda"
    }

    /// One URL's copy, as it is on disk.
    package struct Copy: Sendable {
        package let path: String
        /// When the server last gave or confirmed it.
        package let confirmed: Date
        let etag: String?
        let lastModified: String?
    }

    func copyPath(_ url: SubscriptionURL) -> String { "\(folder)/\(url.cacheKey).ics" }
    private func metaPath(_ url: SubscriptionURL) -> String { "\(folder)/\(url.cacheKey).meta" }

    /// The copy kept for `url`, or nil: also when it cannot be read or is
    /// not iCalendar (a copy damaged on disk is no copy: it is fetched again).
    package func copy(of url: SubscriptionURL) -> Copy? {
        let path = copyPath(url)
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var head = [UInt8](repeating: 0, count: 1 << 16)
        let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0, CalendarText.looksLikeCalendar(Array(head[..<n])) else { return nil }
        let confirmed = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
        // The validators are those of this copy only: written for another
        // (two runs at once), they would confirm a copy the server never sent.
        var etag: String?
        var lastModified: String?
        var size: Int?
        if let meta = try? String(contentsOfFile: metaPath(url), encoding: .utf8) {
            for line in meta.split(separator: "\n") {
                if line.hasPrefix("etag: ") { etag = String(line.dropFirst(6)) }
                if line.hasPrefix("last-modified: ") { lastModified = String(line.dropFirst(15)) }
                if line.hasPrefix("size: ") { size = Int(line.dropFirst(6)) }
            }
        }
        guard size == Int(info.st_size) else { return Copy(path: path, confirmed: confirmed, etag: nil, lastModified: nil) }
        return Copy(path: path, confirmed: confirmed, etag: etag, lastModified: lastModified)
    }

    /// Keeps `body` as the copy of `url`, with its validators.
    func store(_ body: [UInt8], etag: String?, lastModified: String?, for url: SubscriptionURL) throws {
        try makeFolder()
        var meta = "size: \(body.count)\n"
        if let etag { meta += "etag: \(etag)\n" }
        if let lastModified { meta += "last-modified: \(lastModified)\n" }
        // The copy first: validators newer than the copy would make the
        // server answer 304 to a copy that was never kept.
        try write(body, to: copyPath(url))
        try write(Array(meta.utf8), to: metaPath(url))
    }

    /// The server said the copy is still good (304): it is as young as now.
    func confirm(_ url: SubscriptionURL) {
        _ = utimes(copyPath(url), nil)
    }

    /// The folder, made 0700 when it is not there (its parents as needed).
    private func makeFolder() throws {
        var path = ""
        for part in folder.split(separator: "/", omittingEmptySubsequences: false) {
            path += (path.isEmpty && part.isEmpty) ? "/" : (path.hasSuffix("/") ? "" : "/") + part
            if part.isEmpty { continue }
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw CacheError(path: path, code: errno) }
        }
        // One made by another program keeps its mode: the copies may be secrets.
        chmod(folder, 0o700)
    }

    /// Writes to a new temporary file beside `path` (0600) and renames it there.
    private func write(_ bytes: [UInt8], to path: String) throws {
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
        fchmod(fd, 0o600)
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CacheError(path: path, code: ok ? errno : code)
        }
    }
}

/// The cache could not be written.
struct CacheError: Error, CustomStringConvertible {
    let path: String
    let code: Int32
    var description: String { "cannot write the cache \(path): \(String(cString: strerror(code)))" }
}
