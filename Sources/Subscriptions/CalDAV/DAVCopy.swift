import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The offline copy of one CalDAV account, in the cache folder
/// (`$XDG_CACHE_HOME/ics-agenda/caldav-HOST-HASH/`, 0700): what discovery
/// found (`account.json`), and one vdir per calendar (`HASH/`, 0700: one
/// item a file, `HASH.ics`, each name a hash of the item's href, never a
/// path the server chose; `displayname` and `color` as vdirsyncer writes
/// them; `.state.json`: token, ctag and each item's href and etag). Every
/// file is 0600, written to a temporary file, synced and renamed; a sync
/// holds `.lock`, so two runs at once never mix their writes.
struct DAVCopy {
    let folder: String

    struct Item: Codable, Equatable {
        var href: String
        var etag: String?
        var file: String
    }

    /// One calendar's state, in its folder.
    struct CalendarState: Codable {
        var ctag: String?
        var syncToken: String?
        /// By `DAVHref.key`.
        var items: [String: Item] = [:]
    }

    /// One calendar as the account's listing gave it.
    struct CalendarEntry: Codable, Equatable {
        var href: String
        var name: String
        var color: String?
        var components: [String]
        /// Its folder's name (a hash of its href).
        var folder: String
    }

    /// What discovery found, kept so that a refresh asks the home at once.
    struct AccountState: Codable {
        var home: String
        var calendars: [CalendarEntry]
    }

    static let largestState = 64 << 20

    var accountPath: String { folder + "/account.json" }
    func calendarFolder(_ entry: CalendarEntry) -> String { folder + "/" + entry.folder }

    /// The account's state and when it was last confirmed by the server; nil when there is none.
    func account() -> (state: AccountState, confirmed: Date)? {
        guard let (bytes, modified) = DAVCopy.read(accountPath),
            let state = try? JSONDecoder().decode(AccountState.self, from: Data(bytes))
        else { return nil }
        return (state, modified)
    }

    func calendarState(_ entry: CalendarEntry) -> CalendarState? {
        guard let (bytes, _) = DAVCopy.read(calendarFolder(entry) + "/.state.json") else { return nil }
        return try? JSONDecoder().decode(CalendarState.self, from: Data(bytes))
    }

    /// A small regular file's bytes and modification time; nil when it is
    /// not there or not a regular file (a link, a FIFO: `RegularFile`).
    static func read(_ path: String) -> ([UInt8], Date)? {
        guard let file = try? RegularFile.open(path, limit: largestState) else { return nil }
        // As large as the file is (and a byte, to see it grew), not the bound: a
        // buffer of 64 MB zeroed for each state file cost a vdir read half again.
        return (file.read(upTo: min(file.size + 1, largestState)), file.modified)
    }

    /// Makes the folder (and the cache folder above it) 0700 (`CacheFiles`).
    static func makeFolder(_ path: String) throws { try CacheFiles.makeFolder(path) }

    /// Replaces a file of the copy whole (`CacheFiles`).
    static func write(_ bytes: [UInt8], to path: String) throws { try CacheFiles.write(bytes, to: path) }

    static func write<T: Encodable>(json value: T, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try write(Array(try encoder.encode(value)), to: path)
    }

    /// Holds the account's lock (`flock` on `.lock`) while `body` runs: a
    /// second run waits for the first to finish its sync.
    func locked(_ body: () throws -> Void) throws {
        try DAVCopy.makeFolder(folder)
        let fd = open(folder + "/.lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CacheError(path: folder + "/.lock", code: errno) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        try body()
    }

    /// Removes a calendar's folder (a hash name of ours, directly in the
    /// account's folder) and the regular files in it; anything else found
    /// there is left, and with it the folder.
    func remove(_ name: String) {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else { return }
        let path = folder + "/" + name
        guard let dir = opendir(path) else { return }
        var names: [String] = []
        while let entry = readdir(dir) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if entryName != "." && entryName != ".." { names.append(entryName) }
        }
        closedir(dir)
        for entryName in names {
            var info = stat()
            if lstat(path + "/" + entryName, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
                unlink(path + "/" + entryName)
            }
        }
        rmdir(path)
    }

    /// The account as last kept, calendar by calendar: each folder, its
    /// name and colour, and the item files its state names that are there.
    func calendars() -> [DAVCalendarCopy]? {
        guard let (account, _) = account() else { return nil }
        return account.calendars.compactMap { entry in
            guard let state = calendarState(entry) else { return nil }
            let path = calendarFolder(entry)
            // Each file looked at once, here: the reader takes its size and identity from this.
            let files = state.items.values.map { path + "/" + $0.file }.sorted()
                .compactMap { file -> DAVCalendarCopy.File? in
                var info = stat()
                guard lstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
                return DAVCalendarCopy.File(path: file, size: Int(info.st_size), device: UInt64(info.st_dev),
                    inode: UInt64(info.st_ino))
            }
            return DAVCalendarCopy(
                folder: path, name: entry.name, color: entry.color, files: files,
                remindersOnly: entry.components == ["VTODO"])
        }
    }
}

/// One calendar of an account, as its copy holds it: a vdir to read.
package struct DAVCalendarCopy: Sendable {
    /// The vdir folder in the cache.
    package let folder: String
    /// Its `displayname`, else its href's last segment.
    package let name: String
    /// Its `calendar-color`, as the server wrote it (`#RRGGBBAA` from Apple's servers).
    package let color: String?
    /// Its item files, in name order: each a regular file when it was listed.
    package let files: [File]

    package struct File: Sendable {
        package let path: String
        package let size: Int
        package let device: UInt64
        package let inode: UInt64
    }
    /// Its `supported-calendar-component-set` holds VTODO only.
    let remindersOnly: Bool
}
