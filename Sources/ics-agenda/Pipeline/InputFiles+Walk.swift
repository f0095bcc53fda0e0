import AgendaCore
import AgendaSystem
import Foundation

/// The walk down a folder named: its calendar files in name order, then the folders below it.
extension InputFiles {
    /// How deep below a folder named the walk goes: each level is a call of
    /// `walk`, and 15,000 of them ran out of stack (SIGSEGV). No calendar
    /// tree comes near; a deeper folder is told once and not read.
    static let maxFolderDepth = 1000

    /// The folder's own calendar files, as one `InputFolder`, then those
    /// of the folders below it, each folder in name order.
    static func walk(
        _ directory: String, depth: Int = 0, visited: inout Set<FileIdentity>, warn: (String) -> Void
    ) throws -> [InputSource] {
        guard depth <= maxFolderDepth else {
            warn("\(PrintableText.escaped(directory)): more than \(maxFolderDepth) folders deep below the folder " +
                "named; not read")
            return []
        }
        if let status = withFileSystemPath(directory, { try? Stat($0) }) {
            guard visited.insert(FileIdentity(status)).inserted else { return [] }
        }
        guard let found = entries(of: directory) else {
            warn("\(PrintableText.escaped(directory)): cannot read this folder; skipped")
            return []
        }
        var folder = InputFolder(path: directory)
        var below: [InputSource] = []
        // Name order; a plain file that is neither a calendar nor a marker needs no look (the folder said what it is).
        let named = found.filter { entry in
            !entry.name.hasPrefix(".")
                && (entry.type != UInt8(DT_REG) || InputFiles.isCalendarName(entry.name)
                    || InputFolder.markers.contains(entry.name))
        }.map(\.name)
        let looked = InputFiles.sortedNames(named)
        let stem = directory.hasSuffix("/") ? directory : directory + "/"
        let paths = looked.map { stem + $0 }
        for (name, (path, status)) in zip(looked, zip(paths, ParallelStat.statuses(paths))) {
            let isCalendar = InputFiles.isCalendarName(name)
            let isMarker = InputFolder.markers.contains(name)
            guard let found = status else {
                if isCalendar {
                    warn("\(PrintableText.escaped(path)): a broken symbolic link, or a file that went away; skipped")
                }
                continue
            }
            let mode = found.type
            if isMarker && mode == .regular {
                folder.mark(name, path: path)
                continue
            }
            if mode == .directory {
                below += try walk(path, depth: depth + 1, visited: &visited, warn: warn)
            } else if isCalendar {
                // A pipe would block the run, a device never end: only regular files are read from folders.
                guard mode == .regular else {
                    warn("\(PrintableText.escaped(path)): not a regular file (a pipe, socket or device); skipped")
                    continue
                }
                folder.files.append(InputFile(path: path, isExplicit: false, size: Int(found.size),
                    identity: FileIdentity(found)))
            }
        }
        return (folder.files.isEmpty ? [] : [.folder(folder)]) + below
    }

    /// The names in a folder, each with its bytes, and its type as the
    /// folder tells it (`DT_REG`, `DT_DIR`, ...; `DT_UNKNOWN` when it does
    /// not); `.` and `..` left out; nil when it cannot be read.
    static func entries(of directory: String) -> [(name: String, type: UInt8)]? {
        var names: [(name: String, type: UInt8)] = []
        let opened = withFileSystemPath(directory) { path in
            FolderEntries.forEach(in: path) { name, type in
                names.append((PrintableText.decodingFileSystemBytes(name), type))
            }
        }
        return opened ? names : nil
    }

    /// Names in the order `<` gives them. ASCII names (nearly all: a vdir's
    /// are UIDs) are compared 8 bytes at a time first, which is the same
    /// order: sorting 20,000 file names was a tenth of a `next` run's walk.
    static func sortedNames(_ names: [String]) -> [String] {
        guard names.count > 64, names.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) else { return names.sorted() }
        let keyed = names.map { name -> (key: UInt64, name: String) in
            var key: UInt64 = 0
            var shift: UInt64 = 56
            for byte in name.utf8.prefix(8) {
                key |= UInt64(byte) << shift
                shift &-= 8
            }
            return (key, name)
        }
        return keyed.sorted { $0.key != $1.key ? $0.key < $1.key : $0.name < $1.name }.map(\.name)
    }
}
