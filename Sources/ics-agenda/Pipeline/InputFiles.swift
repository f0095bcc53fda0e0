import AgendaCore
import AgendaSystem
import Foundation
import Synchronization
import Subscriptions

/// One calendar input: a file, or standard input.
struct InputFile {
    let path: String
    /// Named on the command line (its errors are fatal) or found in a folder (its errors are warnings).
    let isExplicit: Bool
    /// Its size when it was found in a folder (nil: not known).
    var size: Int? = nil
    /// Its device and inode when it was found in a folder: the stat of the
    /// walk, not made again to read each file once.
    var identity: FileIdentity? = nil

    var isStdin: Bool { path == "-" }

    /// The file name without `.ics`/`.ical`; `stdin` for standard input.
    var defaultName: String {
        if isStdin { return "stdin" }
        let base = (path as NSString).lastPathComponent
        let ext = (base as NSString).pathExtension.lowercased()
        return ext == "ics" || ext == "ical" ? (base as NSString).deletingPathExtension : base
    }

    /// The folder that holds the file, as the user named it; `stdin` for standard input.
    var source: String {
        if isStdin { return "stdin" }
        let dir = (path as NSString).deletingLastPathComponent
        return dir.isEmpty ? "." : dir
    }
}

/// A file or folder is known by its device and inode: a symlink loop, or
/// two links to one folder, lead back to one already read.
struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    init(_ status: Stat) {
        self.init(device: UInt64(status.deviceID.rawValue), inode: UInt64(status.inode.rawValue))
    }
}

/// Why an input could not be read (exit status 66).
struct UnreadableInput: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "\(PrintableText.escaped(path)): \(reason)" }

    init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// An input that could not be opened or read, in the words for what `errno` said.
    init(path: String, error: Errno) {
        let reason = switch error {
        case .permissionDenied: "permission denied"
        case .isDirectory: "is a directory"
        default: "cannot be read"
        }
        self.init(path: path, reason: reason)
    }
}

/// What one INPUT argument, or a folder below one, gives to read.
enum InputSource {
    /// A file named, or standard input.
    case file(InputFile)
    /// The calendar files directly in one folder: one calendar when it is
    /// a vdir collection, else one each.
    case folder(InputFolder)
    /// A calendar by its address (`Subscriptions`).
    case url(SubscriptionURL)
    /// A CalDAV account (`davs://`, `dav://`): each of its calendars one vdir of the offline copy.
    case caldav(DAVAccount)
}

/// Turns the INPUT arguments into what to read: files as given, folders
/// searched recursively for `*.ics` and `*.ical` (sorted, symlink loops
/// broken), `-` for standard input, URLs.
enum InputFiles {
    /// - Parameter missing: an input named that does not exist: told by
    ///   the caller, and the others still read (the run ends with status 66).
    static func expand(_ arguments: [String], missing: (UnreadableInput) -> Void = { _ in },
        warn: (String) -> Void) throws -> [InputSource] {
        var sources: [InputSource] = []
        for argument in arguments {
            if argument == "-" {
                sources.append(.file(InputFile(path: "-", isExplicit: true)))
                continue
            }
            if DAVAccount.isMeant(argument) {
                // As a URL: one that cannot be read is a bad command line, told without the text of it.
                sources.append(.caldav(try DAVAccount(parsing: argument)))
                continue
            }
            if SubscriptionURL.isMeant(argument) {
                // One that cannot be fetched is a bad command line, told without the text of it (it may hold a secret).
                sources.append(.url(try SubscriptionURL(parsing: argument)))
                continue
            }
            guard let mode = fileMode(argument) else {
                // Only the first word of the command line is where a subcommand goes.
                let first = argument == CommandRunner.arguments.first
                let hint = (first
                    ? InputFiles.subcommand(misspelledAs: argument) : nil)
                    .map { "; did you mean the subcommand '\($0)'?" } ?? ""
                missing(UnreadableInput(path: argument, reason: "no such file or directory" + hint))
                continue
            }
            if mode == .directory {
                var visited = Set<FileIdentity>()
                sources += try walk(argument, visited: &visited, warn: warn)
            } else {
                sources.append(.file(InputFile(path: argument, isExplicit: true)))
            }
        }
        return readOnce(sources)
    }

    /// Whether a file found in a folder is read: `*.ics` or `*.ical`, in any case.
    static func isCalendarName(_ name: String) -> Bool {
        func endsWith(_ suffix: StaticString, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let n = suffix.utf8CodeUnitCount
            guard bytes.count >= n else { return false }
            for k in 0..<n where bytes[bytes.count - n + k] | 0x20 != suffix.utf8Start[k] { return false }
            return true
        }
        // A folder of 20,000 names asks for each: their bytes where they lie.
        return name.utf8.withContiguousStorageIfAvailable { endsWith(".ics", $0) || endsWith(".ical", $0) }
            ?? Array(name.utf8).withUnsafeBufferPointer { endsWith(".ics", $0) || endsWith(".ical", $0) }
    }

    /// Each file once, where it is first named: the same file named twice,
    /// through a link or inside a folder also named, would list every row
    /// twice; standard input named twice is read once (the second would
    /// give nothing), a URL named twice fetched once.
    static func readOnce(_ sources: [InputSource]) -> [InputSource] {
        var seen = Set<FileIdentity>()
        var stdinSeen = false
        var urls = Set<String>()
        var accounts = Set<DAVAccount>()
        func isNew(_ file: InputFile) -> Bool {
            if file.isStdin {
                defer { stdinSeen = true }
                return !stdinSeen
            }
            if let identity = file.identity { return seen.insert(identity).inserted }
            // its error is told when it is read
            guard let status = withFileSystemPath(file.path, { try? Stat($0) }) else { return true }
            return seen.insert(FileIdentity(status)).inserted
        }
        return sources.compactMap { source -> InputSource? in
            switch source {
            case .file(let file): return isNew(file) ? source : nil
            case .url(let url): return urls.insert(url.address).inserted ? source : nil
            case .caldav(let account): return accounts.insert(account).inserted ? source : nil
            case .folder(var folder):
                folder.files = folder.files.filter(isNew)
                return folder.files.isEmpty ? nil : .folder(folder)
            }
        }
    }


    /// Runs `body` on the input's bytes when it is a regular file: it is
    /// mapped, with a `release` that gives passed pages back. Standard input
    /// and other streams go to `streaming`, which reads them as they come.
    /// A file that changes while it is read (cut short, rewritten) is read
    /// as far as it can be (`MappedFileGuard`), and `changed` says how.
    static func withContents<T>(
        of file: InputFile, _ body: (UnsafeBufferPointer<UInt8>, ((Range<Int>) -> Void)?) throws -> T,
        streaming: ((UnsafeMutableRawBufferPointer) throws -> Int) throws -> T,
        changed: (_ message: String, _ cut: CutPlace?) -> Void = { _, _ in }
    ) throws -> T {
        let fd: FileDescriptor
        do {
            fd = file.isStdin ? .standardInput : try withFileSystemPath(file.path, FileDescriptor.openForReading)
        } catch let error as Errno {
            throw UnreadableInput(path: file.path, error: error)
        }
        defer { if !file.isStdin { try? fd.close() } }
        func streamed() throws -> T {
            try streaming { buffer in
                do throws(Errno) { return try fd.readWaiting(into: buffer) } catch {
                    throw UnreadableInput(path: file.path, error: error)
                }
            }
        }
        guard let info = try? Stat(fd), info.type == .regular, info.size > 0 else { return try streamed() }
        return try MappedFile.mapping(fd, size: Int(info.size), { mapped in
            try readMapped(mapped, of: file, fd, opened: info, body, changed: changed)
        }, otherwise: streamed)
    }

    /// `body` over a file's mapped bytes, with a `release` that gives passed
    /// pages back; the file told as `changed` when it was cut short or
    /// rewritten while it was read.
    private static func readMapped<T>(
        _ mapped: MappedFile, of file: InputFile, _ fd: FileDescriptor, opened info: Stat,
        _ body: (UnsafeBufferPointer<UInt8>, ((Range<Int>) -> Void)?) throws -> T,
        changed: (_ message: String, _ cut: CutPlace?) -> Void
    ) throws -> T {
        let bytes = mapped.bytes, size = bytes.count
        let result: T, cutShort: Bool
        do {
            (result, cutShort) = try mapped.guarded { try body(bytes, mapped.release) }
        } catch {
            // Cut before anything could be read (to nothing, or to zeros the
            // reader took for binary data): the cut is the reason, not the zeros.
            if let after = try? Stat(fd), Int(after.size) < size {
                throw UnreadableInput(path: file.path, reason: "the file was cut from \(size) to " +
                    "\(after.size) bytes while it was read")
            }
            throw error
        }
        let after = try? Stat(fd)
        let now = after.map { Int($0.size) } ?? size
        if cutShort || now != size || after?.st_mtim.tv_sec != info.st_mtim.tv_sec
            || after?.st_mtim.tv_nsec != info.st_mtim.tv_nsec {
            if now < size {
                // What lay past the new end read as zeros: the lines up to it are the file's.
                let kept = max(0, now)
                let lines = 1 + bytes[..<kept].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                changed("the file was cut from \(size) to \(kept) bytes while it was read; read as far as " +
                    "it could be",
                    CutPlace(line: lines,
                        componentLine: CutPlace.lastBeginLine(in: UnsafeBufferPointer(rebasing: bytes[..<kept]),
                        lines: lines)))
            } else {
                changed("the file changed while it was read; what was read may mix its old and new text", nil)
            }
        }
        return result
    }

    /// Where a file was cut while it was read: the line the cut fell on (its
    /// rest, and all after it, read as zeros), and the line of the last
    /// `BEGIN:` before the cut (the component the cut went through).
    struct CutPlace {
        let line: Int
        let componentLine: Int

        /// The line number of the last line that starts with `BEGIN:` in
        /// `text`, whose last line is `lines`; 1 when there is none.
        static func lastBeginLine(in text: UnsafeBufferPointer<UInt8>, lines: Int) -> Int {
            var line = lines
            var end = text.count
            while end > 0 {
                let start = (text[..<end].lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
                if end - start >= 6, zip(text[start..<start + 6], "BEGIN:".utf8)
                    .allSatisfy({ $0 & 0xDF == $1 & 0xDF }) {
                    return line
                }
                guard start > 0 else { break }
                end = start - 1
                line -= 1
            }
            return 1
        }
    }

    /// Runs `body` on the path as the system knows it: a name read from the
    /// command line or a folder keeps its bytes that are not UTF-8
    /// (`PrintableText.decodingFileSystemBytes`).
    ///
    /// A path longer than the system takes (PATH_MAX, 4096 bytes: a calendar
    /// deep in a synced tree) is reached one folder at a time (`openat`),
    /// and `body` gets `/proc/self/fd/N/NAME`, its last name under the
    /// folder opened: it was skipped without a word before.
    static func withFileSystemPath<T>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        // Most paths: short, and no raw byte in them (a scalar of plane 16, whose UTF-8 starts with 0xF4).
        if path.utf8.count < Int(PATH_MAX), !path.utf8.contains(where: { $0 >= 0xF4 }) {
            return try path.withCString(body)
        }
        let bytes = PrintableText.fileSystemBytes(path)
        if bytes.count >= Int(PATH_MAX), let slash = bytes.lastIndex(of: 0x2F),
            let folder = openFolder(Array(bytes[..<slash]), absolute: bytes.first == 0x2F) {
            defer { try? folder.close() }
            let short = Array("/proc/self/fd/\(folder.rawValue)/".utf8) + bytes[(slash + 1)...]
            return try (short.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { try body($0.baseAddress!) }
        }
        return try (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The folder last opened by `openFolder`, and its path (with `/` or
    /// `./` first): a walk down a deep tree opens each folder from its
    /// parent, not from `/` again, which took time that grew with the square
    /// of the depth. Owned here; a caller gets its own duplicate.
    private static let lastFolder = Mutex<(path: [UInt8], fd: FileDescriptor)?>(nil)

    /// The folder at `path`, opened one name at a time from `/` or the
    /// working folder (or from the last folder opened, when it holds
    /// `path`); nil when one of them cannot be opened. The caller closes it.
    private static func openFolder(_ path: [UInt8], absolute: Bool) -> FileDescriptor? {
        let key = Array((absolute ? "/" : "./").utf8) + path
        var fd: FileDescriptor?
        var rest = key[(absolute ? 1 : 2)...]
        lastFolder.withLock { last in
            guard let last, key.count >= last.path.count, key.count == last.path.count || key[last.path.count] == 0x2F,
                key.withUnsafeBytes({ k in
                    last.path.withUnsafeBytes { memcmp(k.baseAddress!, $0.baseAddress!, $0.count) == 0 }
                })
            else { return }
            fd = try? last.fd.duplicateClosingOnExec()
            rest = key[last.path.count...]
        }
        if fd == nil {
            fd = try? FileDescriptor.openFolder(absolute ? "/" : ".")
            rest = key[(absolute ? 1 : 2)...]
        }
        guard var folder = fd else { return nil }
        for name in rest.split(separator: 0x2F) {
            let next = (Array(name).map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
                try? folder.openFolder(named: $0.baseAddress!)
            }
            try? folder.close()
            guard let next else { return nil }
            folder = next
        }
        if let kept = try? folder.duplicateClosingOnExec() {
            lastFolder.withLock { last in
                if let old = last { try? old.fd.close() }
                last = (key, kept)
            }
        }
        return folder
    }

    /// A folder, a regular file, ... : what the path leads to (symbolic
    /// links followed); nil when nothing is there.
    static func fileMode(_ path: String) -> FileType? {
        withFileSystemPath(path, { try? Stat($0) })?.type
    }

}
