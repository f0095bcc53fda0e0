import AgendaCore
import AgendaSystem
import Foundation
import ICalAdapter

/// The calendar files directly in one folder, and what says whether the
/// folder is a vdir collection (one folder per calendar, one item per file,
/// as vdirsyncer writes it and khal reads it): a `displayname` or `color`
/// file, or files that each hold one item and name no calendar.
struct InputFolder {
    /// The files that mark a collection, as vdirsyncer writes them.
    static let markers: Set<String> = ["displayname", "color"]

    let path: String
    var files: [InputFile] = []
    /// Whether it holds a `displayname` or `color` file.
    private(set) var isMarked = false
    /// The text of its `displayname`, when it has one that says something.
    private(set) var displayName: String?
    /// Its `color` file's colour (`#rrggbb`), when it holds one.
    private(set) var color: String?

    init(path: String) {
        self.path = path
    }

    mutating func mark(_ name: String, path: String) {
        guard InputFiles.fileMode(path) == .regular else { return }
        isMarked = true
        if name == "color", let bytes = InputFolder.head(of: path) {
            // vdirsyncer writes `#RRGGBB` (or with an alpha, as CalDAV's calendar-color) on one line.
            color = CalendarColor.normalized(String(decoding: bytes.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self))
            return
        }
        guard name == "displayname", let bytes = InputFolder.head(of: path) else { return }
        // UTF-8 (a byte-order mark left out), else Latin-1, as iCalendar text is read;
        // a cut in the middle of a character (at `maxFileBytes`) is no reason for Latin-1.
        var valid = bytes[...]
        while String(validating: valid, as: UTF8.self) == nil, bytes.count - valid.count < 4, !valid.isEmpty {
            valid = valid.dropLast()
        }
        let text = (String(validating: valid, as: UTF8.self)
            ?? String(bytes.map { Character(Unicode.Scalar($0)) })).drop { $0 == "\u{FEFF}" }
        let (shown, cut) = CalendarName.oneLine(String(text))
        if !shown.isEmpty { displayName = shown }
        if cut || bytes.count >= CalendarName.maxFileBytes {
            nameWarning = Diagnostic(path: path, line: 1, message: CalendarName.cutWords(shown, from: "displayname"),
                kind: "displayname cut")
        }
    }

    /// What the name's file said that was left out, told with the collection's warnings.
    private(set) var nameWarning: Diagnostic?

    /// The first `CalendarName.maxFileBytes` of a file: opened without
    /// waiting (a FIFO named `displayname` must not stop the run) and
    /// without following a link, and read only when it is a regular file.
    /// A name is one line: a file of 768 MB was read whole, 7 s and 1.5 GB.
    static func head(of path: String) -> [UInt8]? {
        guard let fd = try? InputFiles.withFileSystemPath(path, { try FileDescriptor.openWithoutWaiting($0) }) else {
            return nil
        }
        defer { try? fd.close() }
        guard (try? Stat(fd))?.type == .regular else { return nil }
        return fd.read(upTo: CalendarName.maxFileBytes)
    }

    /// The collection as a calendar: its `displayname`, else the folder's
    /// name; its source the folder that holds it; its path the folder.
    var calendar: CalendarInfo {
        var (parent, name) = InputFolder.split(path)
        if name == "." || name == ".." || name.isEmpty {
            // `ics-agenda .` inside the collection: named by where it is.
            if let real = InputFiles.withFileSystemPath(path, FileNames.resolved) {
                (parent, name) = InputFolder.split(PrintableText.decodingFileSystemBytes(real))
            }
        }
        return CalendarInfo(name: displayName ?? (name.isEmpty ? "/" : name), source: parent, path: path, color: color)
    }

    /// The folder that holds a path, and its last part (`a/b/` is `a`, `b`;
    /// `b` is `.`, `b`; `/` is `/`, ``), as written: no lookup.
    static func split(_ path: String) -> (parent: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
        let parent = trimmed[..<slash]
        return (parent.isEmpty ? "/" : String(parent), String(trimmed[trimmed.index(after: slash)...]))
    }
}
