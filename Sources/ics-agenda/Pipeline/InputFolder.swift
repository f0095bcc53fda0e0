import AgendaCore
import Foundation
import ICalAdapter

#if canImport(Glibc)
    import Glibc
#endif

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

    init(path: String) {
        self.path = path
    }

    mutating func mark(_ name: String, path: String) {
        guard InputFiles.fileMode(path) == S_IFREG else { return }
        isMarked = true
        if name == "displayname", let bytes = ConfigFile.contents(of: path), bytes.count <= 4096 {
            // UTF-8 (a byte-order mark left out), else Latin-1, as iCalendar text is read.
            let text = (String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(Unicode.Scalar($0)) }))
                .drop { $0 == "\u{FEFF}" }.trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { displayName = text }
        }
    }

    /// The collection as a calendar: its `displayname`, else the folder's
    /// name; its source the folder that holds it; its path the folder.
    var calendar: CalendarInfo {
        var (parent, name) = InputFolder.split(path)
        if name == "." || name == ".." || name.isEmpty {
            // `ics-agenda .` inside the collection: named by where it is.
            if let real = InputFiles.withFileSystemPath(path, { realpath($0, nil) }) {
                (parent, name) = InputFolder.split(PrintableText.decodingFileSystemBytes(UnsafeRawBufferPointer(start: real, count: strlen(real))))
                free(real)
            }
        }
        return CalendarInfo(name: displayName ?? (name.isEmpty ? "/" : name), source: parent, path: path)
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
