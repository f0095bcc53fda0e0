import AgendaSystem
import Foundation

/// The offline copy of one CalDAV account, in the cache folder
/// (`$XDG_CACHE_HOME/ics-agenda/caldav-HOST-HASH/`, 0700): what discovery
/// found (`account.json`), and one vdir per calendar (`HASH/`, 0700: one
/// item a file, `HASH.ics`, each name a hash of the item's href, never a
/// path the server chose; `displayname` and `color` as vdirsyncer writes
/// them; `.state.json`: token, ctag, when the calendar was last listed
/// whole, and each item's href and etag). Every file is 0600, written to a
/// temporary file, synced and renamed (a calendar's items synced together,
/// before its state); a sync holds `.lock`, so two runs at once never mix
/// their writes.
///
/// What the state files hold is data, never a path: a folder or file name
/// read from them is used only when it is the name this copy gives that
/// href (`DAVCopy.folderName`, `DAVCopy.itemFile`); a state that names
/// anything else is refused whole (`Kept.refused`).
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
        /// When its ETags were last listed whole and compared with the copy;
        /// nil: never (a copy written before this was kept).
        var listed: Date?
        /// By `DAVHref.key`.
        var items: [String: Item] = [:]

        /// Whether every item is named as this copy names it.
        var isOwn: Bool {
            items.allSatisfy { key, item in DAVHref.key(item.href) == key && item.file == DAVCopy.itemFile(key) }
        }
    }

    /// A state file read: none there, one that holds only the copy's own
    /// names, or one refused (it names a path, or cannot be decoded).
    enum Kept<State> {
        case none
        case kept(State)
        case refused

        var state: State? {
            if case .kept(let state) = self { return state }
            return nil
        }
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

        /// Whether every calendar's folder is the one this copy gives its href.
        var isOwn: Bool { calendars.allSatisfy { $0.folder == DAVCopy.folderName($0.href) } }
    }

    /// The folder a calendar's items are kept in: a hash of its href's key.
    static func folderName(_ href: String) -> String { DAVAccount.hash(DAVHref.key(href)) }

    /// The file an item is kept in: a hash of its href's key.
    static func itemFile(_ key: String) -> String { DAVAccount.hash(key) + ".ics" }

    /// Whether `name` is one this copy could have made (32 hex digits,
    /// `.ics` after them for an item): never a path.
    static func isHashName(_ name: String, suffix: String = "") -> Bool {
        guard name.hasSuffix(suffix) else { return false }
        let hash = name.utf8.dropLast(suffix.utf8.count)
        return hash.count == 32 && hash.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    static let largestState = 64 << 20

    var accountPath: String { folder + "/account.json" }
    func calendarFolder(_ entry: CalendarEntry) -> String { folder + "/" + entry.folder }

    /// The account's state and when it was last confirmed by the server.
    func account() -> Kept<(state: AccountState, confirmed: Date)> {
        guard let (bytes, modified) = DAVCopy.read(accountPath) else { return .none }
        guard let state = try? JSONDecoder().decode(AccountState.self, from: Data(bytes)), state.isOwn else {
            return .refused
        }
        return .kept((state, modified))
    }

    /// A calendar's state (`entry` holds the copy's own folder name: `AccountState.isOwn`).
    func calendarState(_ entry: CalendarEntry) -> Kept<CalendarState> {
        guard let (bytes, _) = DAVCopy.read(calendarFolder(entry) + "/.state.json") else { return .none }
        guard let state = try? JSONDecoder().decode(CalendarState.self, from: Data(bytes)), state.isOwn else {
            return .refused
        }
        return .kept(state)
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
    /// second run waits for the first to finish its sync. A lock that
    /// cannot be had (no such lock on this file system) throws: no sync
    /// ever runs unlocked.
    func locked<T>(_ body: () throws -> T) throws -> T {
        try DAVCopy.makeFolder(folder)
        let path = folder + "/.lock"
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.openLockFile(path)
        } catch {
            throw CacheError(path: path, code: error.rawValue)
        }
        defer { try? fd.close() }
        try DAVCopy.lock(fd, path: path)
        return try body()
    }

    /// `fd`'s exclusive lock (`lockExclusively`: a signal waited through);
    /// throws on any other failure.
    static func lock(_ fd: FileDescriptor, path: String) throws {
        do throws(Errno) {
            try fd.lockExclusively()
        } catch {
            throw CacheError(path: path, code: error.rawValue)
        }
    }

    /// Removes a calendar's folder (a hash name of ours, directly in the
    /// account's folder) and the regular files in it; anything else found
    /// there is left, and with it the folder.
    func remove(_ name: String) {
        guard DAVCopy.isHashName(name) else { return }
        let path = folder + "/" + name
        var names: [String] = []
        guard FolderEntries.forEach(in: path, { name, _ in names.append(String(decoding: name, as: UTF8.self)) })
        else { return }
        for entryName in names where (try? Stat(path + "/" + entryName, followTargetSymlink: false))?.type == .regular {
            try? FileNames.remove(path + "/" + entryName)
        }
        try? FileNames.removeFolder(path)
    }

    /// The account as last kept, calendar by calendar: each folder, its
    /// name and colour, and the item files its state names that are there;
    /// the names of the calendars whose state was refused (not read). Nil
    /// when there is no account state, or it was refused.
    func calendars() -> (calendars: [DAVCalendarCopy], refused: [String])? {
        guard let (account, _) = account().state else { return nil }
        var refused: [String] = []
        let calendars = account.calendars.compactMap { entry -> DAVCalendarCopy? in
            let kept = calendarState(entry)
            if case .refused = kept { refused.append(entry.name) }
            guard let state = kept.state else { return nil }
            let path = calendarFolder(entry)
            // Each file looked at once, here: the reader takes its size and identity from this.
            let files = state.items.values.map { path + "/" + $0.file }.sorted()
                .compactMap { file -> DAVCalendarCopy.File? in
                guard let info = try? Stat(file, followTargetSymlink: false), info.type == .regular else { return nil }
                return DAVCalendarCopy.File(path: file, size: Int(info.size), device: UInt64(info.deviceID.rawValue),
                    inode: UInt64(info.inode.rawValue))
            }
            return DAVCalendarCopy(
                folder: path, name: entry.name, color: entry.color, files: files,
                remindersOnly: entry.components == ["VTODO"])
        }
        return (calendars, refused)
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
