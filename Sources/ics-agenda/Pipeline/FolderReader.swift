import AgendaCore
import AgendaSystem
import Foundation
import ICalAdapter

#if canImport(Glibc)
    import Glibc
#endif

/// Reads the calendar files directly in one folder: as one calendar when
/// the folder is a vdir collection (`InputFolder`), else each as its own.
///
/// A collection of thousands of one-event files is read as one: the small
/// files are read into memory side by side (on every core), looked at once
/// (`ItemFileScan`) to tell a collection and which files can be joined, and
/// joined into one text that the loader reads in one run, as it would one
/// file of the same events. Any other file is read alone, as before.
struct FolderReader {
    let reader: InputReader

    /// A file up to this size is read into memory and may be joined to the
    /// others; a larger one is mapped and read alone.
    static let joinedFileBytes = 1 << 20
    /// At most this much of a folder's files is held in memory at once, and
    /// joined into one text: the loader's own stretch.
    static let heldBytes = 64 << 20

    /// What was found in one file.
    private enum Content {
        /// Read into memory, and looked at.
        case held([UInt8], ItemFileScan)
        /// Too large to hold (or beyond what is held): looked at where it lies, when asked to.
        case mapped(ItemFileScan?)
        /// Could not be read: told when it is read alone.
        case unreadable
    }

    func read(_ folder: InputFolder) throws -> [LoadedCalendar] {
        let contents = FolderReader.contents(of: folder.files, classify: !folder.isMarked)
        let scans = contents.compactMap { content -> ItemFileScan? in
            switch content {
            case .held(_, let scan): scan
            case .mapped(let scan): scan
            case .unreadable: nil
            }
        }.filter(\.startsCalendar)
        let isCollection = folder.isMarked || (!scans.isEmpty
            && scans.allSatisfy { $0.holdsOneItem && !$0.namesCalendar })
        guard isCollection else {
            var calendars: [LoadedCalendar] = []
            for (file, content) in zip(folder.files, contents) {
                let loaded: LoadedCalendar?
                if case .held(let bytes, _) = content {
                    loaded = try reader.skippingWhenFound(file) {
                        try bytes.withUnsafeBufferPointer {
                            try reader.loader.load($0, path: file.path, defaultName: file.defaultName,
                                source: file.source)
                        }
                    }
                } else {
                    loaded = try reader.read(file)
                }
                if let loaded {
                    reader.tell(loaded)
                    calendars.append(loaded)
                }
            }
            return calendars
        }
        let calendar = folder.calendar
        var loader = reader.loader
        loader.calendarName = calendar.name
        loader.calendarColor = calendar.color
        var parts: [LoadedCalendar] = []
        var joined: [CollectionFile] = []
        var joinedBytes = 0
        func loadJoined() throws {
            guard !joined.isEmpty else { return }
            parts.append(try loader.load(joining: joined, as: calendar))
            joined = []
            joinedBytes = 0
        }
        for (file, content) in zip(folder.files, contents) {
            if case .held(let bytes, let scan) = content, scan.isJoinable {
                joined.append(CollectionFile(path: file.path, bytes: bytes))
                joinedBytes += bytes.count
                if joinedBytes >= FolderReader.heldBytes { try loadJoined() }
                continue
            }
            // Read alone, as one part of the collection: its warnings name the file.
            let alone = try reader.skippingWhenFound(file) {
                let loaded: LoadedCalendar
                if case .held(let bytes, _) = content {
                    loaded = try bytes.withUnsafeBufferPointer {
                        try loader.load($0, path: file.path, defaultName: calendar.name, source: calendar.source)
                    }
                } else {
                    loaded = try InputFiles.withContents(of: file) { bytes, release in
                        try loader.load(bytes, release: release, path: file.path, defaultName: calendar.name,
                            source: calendar.source)
                    } streaming: { read in
                        try loader.load(streaming: read, path: file.path, defaultName: calendar.name,
                            source: calendar.source)
                    }
                }
                return loaded
            }
            if let alone { parts.append(alone) }
        }
        try loadJoined()
        var merged = LoadedCalendar.merging(parts, as: calendar)
        // A `displayname` cut to one line is told with the collection's warnings.
        if let cut = folder.nameWarning { merged.diagnostics.insert(cut, at: 0) }
        reader.tell(merged)
        return [merged]
    }

    /// Reads the small files into memory, up to `heldBytes` in all, and
    /// looks at each (`classify`: the others too, where they lie), on every
    /// core when there are many.
    private static func contents(of files: [InputFile], classify: Bool) -> [Content] {
        var held = 0
        let holds = files.map { file -> Bool in
            guard let size = file.size, size <= joinedFileBytes, held + size <= heldBytes else { return false }
            held += size
            return true
        }
        let slots = Slots<Content>(count: files.count, initial: .unreadable)
        let workers = files.count < 64 ? 1 : min(ProcessInfo.processInfo.activeProcessorCount, 8)
        @Sendable func work(_ worker: Int) {
            for i in stride(from: worker, to: files.count, by: workers) {
                if holds[i] {
                    slots[i] = readWhole(files[i]).map { bytes in
                        .held(bytes, bytes.withUnsafeBufferPointer { ItemFileScan($0) })
                    } ?? .unreadable
                } else if classify {
                    let scan = try? InputFiles.withContents(of: files[i]) { bytes,
                        _ in ItemFileScan(bytes, stopsEarly: true) } streaming: { _ in
                        nil
                    }
                    slots[i] = .mapped(scan ?? nil)
                } else {
                    slots[i] = .mapped(nil)
                }
            }
        }
        if workers == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: work) }
        return slots.values
    }

    /// The whole file, or nil when it cannot be read (it is read again, alone, to tell why).
    private static func readWhole(_ file: InputFile) -> [UInt8]? {
        guard let fd = try? InputFiles.withFileSystemPath(file.path, FileDescriptor.openForReading) else { return nil }
        defer { try? fd.close() }
        return try? fd.readAll(sizeHint: file.size ?? 0, regularFile: true)
    }
}
