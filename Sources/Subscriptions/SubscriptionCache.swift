import AgendaCore
import AgendaSystem
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
        UserFolders.cache(environment: environment)
    }

    /// One URL's copy, as it is on disk.
    package struct Copy: Sendable {
        package let path: String
        /// When the server last gave or confirmed it.
        let confirmed: Date
        let validators: HTTPValidators

        /// How old it is at `now` (`RefreshPolicy.age`).
        package func age(at now: Date) -> TimeInterval? { RefreshPolicy.age(of: confirmed, at: now) }
    }

    /// What the cache holds for one URL: its copy, or nil; and what was
    /// found in its place that could not be read (a FIFO, a folder, a
    /// symbolic link, a file too large), told once.
    package struct Lookup: Sendable {
        package let copy: Copy?
        package let problem: String?
    }

    /// The copy's size bound: what a fetch may bring (64 MB), and a little.
    static let largestCopy = CurlTransfer.Limits().maxBytes + (1 << 20)
    /// The `.meta` file's: a size and two validators.
    static let largestMeta = 8 << 10

    func copyPath(_ url: SubscriptionURL) -> String { "\(folder)/\(url.cacheKey).ics" }
    private func metaPath(_ url: SubscriptionURL) -> String { "\(folder)/\(url.cacheKey).meta" }

    /// The copy kept for `url`, or nil: also when it cannot be read or is
    /// not iCalendar (a copy damaged on disk is no copy: it is fetched
    /// again). A copy that is not a regular file is no copy either, and
    /// its `.meta` that is not one is no validators: each is told.
    package func copy(of url: SubscriptionURL) -> Lookup {
        let path = copyPath(url)
        let file: RegularFile
        do throws(RegularFile.Refusal) {
            guard let opened = try RegularFile.open(path, limit: SubscriptionCache.largestCopy) else {
                return Lookup(copy: nil, problem: nil)
            }
            file = opened
        } catch {
            return Lookup(copy: nil, problem: "its copy \(error): not read")
        }
        let head = file.read(upTo: 1 << 16)
        guard !head.isEmpty, CalendarText.looksLikeCalendar(head) else { return Lookup(copy: nil, problem: nil) }
        // The validators are those of this copy only: written for another
        // (two runs at once), they would confirm a copy the server never sent.
        let (meta, problem) = readMeta(metaPath(url))
        let validators = meta.size == file.size ? meta.validators : .none
        return Lookup(copy: Copy(path: path, confirmed: file.modified, validators: validators), problem: problem)
    }

    /// The size and validators a `.meta` file holds (each dropped when it
    /// is not well formed: the file may be an older version's, or edited),
    /// and why it could not be read when it is there but not a small
    /// regular file.
    private func readMeta(_ path: String) -> (meta: (size: Int?, validators: HTTPValidators), problem: String?) {
        let nothing = (size: Int?.none, validators: HTTPValidators.none)
        let file: RegularFile
        do throws(RegularFile.Refusal) {
            guard let opened = try RegularFile.open(path, limit: SubscriptionCache.largestMeta) else {
                return (nothing, nil)
            }
            file = opened
        } catch {
            return (nothing, "its validators \(error): not read, the copy is fetched whole")
        }
        let text = String(decoding: file.read(upTo: SubscriptionCache.largestMeta), as: UTF8.self)
        var etag: String?
        var lastModified: String?
        var size: Int?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("etag: ") { etag = String(line.dropFirst(6)) }
            if line.hasPrefix("last-modified: ") { lastModified = String(line.dropFirst(15)) }
            if line.hasPrefix("size: ") { size = Int(line.dropFirst(6)) }
        }
        return ((size, HTTPValidators(etag: etag, lastModified: lastModified)), nil)
    }

    /// Why the folder cannot be used for the cache, or nil when it can (or
    /// is not there yet: it is made). A symbolic link is refused: the
    /// copies would go where it leads (a folder others write in, such as
    /// /tmp), and `chmod` through it would change that folder's mode.
    func folderProblem() -> String? {
        let info: Stat
        do throws(Errno) {
            info = try Stat(folder, followTargetSymlink: false)
        } catch {
            guard error != .noSuchFileOrDirectory else { return nil }
            return "the cache folder \(folder) cannot be read: \(String(cString: strerror(error.rawValue)))"
        }
        switch info.type {
        case .directory:
            return info.userID.rawValue == geteuid() ? nil : "the cache folder \(folder) belongs to another user"
        case .symbolicLink: return "the cache folder \(folder) is a symbolic link"
        default: return "the cache folder \(folder) is not a folder (\(RegularFile.kind(info.type)))"
        }
    }

    /// Keeps `body` as the copy of `url`, with its validators.
    func store(_ body: [UInt8], validators: HTTPValidators, for url: SubscriptionURL) throws {
        try CacheFiles.makeFolder(folder)
        var meta = "size: \(body.count)\n"
        if let etag = validators.etag { meta += "etag: \(etag)\n" }
        if let lastModified = validators.lastModified { meta += "last-modified: \(lastModified)\n" }
        // The copy first: validators newer than the copy would make the
        // server answer 304 to a copy that was never kept.
        try CacheFiles.write(body, to: copyPath(url))
        try CacheFiles.write(Array(meta.utf8), to: metaPath(url))
    }

    /// The server said the copy is still good (304): it is as young as now.
    /// Not through a symbolic link put in its place since.
    func confirm(_ url: SubscriptionURL) {
        try? FileNames.touch(copyPath(url))
    }
}

/// The cache could not be written.
struct CacheError: Error, CustomStringConvertible {
    let path: String
    let code: Int32
    var description: String { "cannot write the cache \(path): \(String(cString: strerror(code)))" }
}
