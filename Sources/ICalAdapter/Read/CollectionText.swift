import AgendaCore
import Foundation

/// The files of a vdir collection joined into one text, so that thousands
/// of one-event files are framed, parsed and resolved as one calendar, in
/// one run of the loader (read one by one, each file costs a run of its
/// own). Each file is a closed VCALENDAR (`ItemFileScan.isJoinable`), so
/// that what one says cannot reach into the next; `place(line:)` tells
/// which file and line a line of the joined text came from.
struct CollectionText {
    private(set) var bytes: [UInt8] = []
    /// Each file's path and the joined line its first line became, in order.
    private var starts: [(line: Int, path: String)] = []
    private var lines = 0
    /// Where each file starts in `bytes`, for framing on every core (`FileStartSplit`).
    private(set) var fileStarts: [FileStart] = []

    init(_ files: [CollectionFile]) {
        bytes.reserveCapacity(files.reduce(0) { $0 + $1.bytes.count + 2 })
        starts.reserveCapacity(files.count)
        fileStarts.reserveCapacity(files.count)
        for file in files {
            file.bytes.withUnsafeBufferPointer { all in
                let text = UnsafeBufferPointer(rebasing: all[(TextDecoding.hasUTF8BOM(all) ? 3 : 0)...])
                starts.append((lines + 1, file.path))
                fileStarts.append(FileStart(offset: bytes.count, linesBefore: lines))
                bytes.append(contentsOf: text)
                lines += InputSegments.lineFeeds(in: text, 0..<text.count)
                if text.last != 0x0A {
                    bytes += [0x0D, 0x0A]
                    lines += 1
                }
            }
        }
    }

    /// The file and its own line number of a line of the joined text.
    func place(line: Int) -> (path: String, line: Int)? {
        var low = 0
        var high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid].line <= line { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let start = starts[low - 1]
        return (start.path, line - start.line + 1)
    }

    /// The warning as it reads of the file it is about.
    func placed(_ diagnostic: Diagnostic) -> Diagnostic {
        guard let line = diagnostic.line, let place = place(line: line) else { return diagnostic }
        var placed = Diagnostic(path: place.path, line: place.line, message: diagnostic.message, kind: diagnostic.kind,
            damage: diagnostic.damage)
        placed.morePlaces = diagnostic.morePlaces
        placed.morePlacesFrom = diagnostic.morePlacesFrom
        placed.standsFor = diagnostic.standsFor
        return placed
    }
}

/// One file of a collection, read into memory.
package struct CollectionFile: Sendable {
    package let path: String
    package let bytes: [UInt8]

    package init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }
}

/// Where a file of a joined text starts, and the lines before it.
struct FileStart: Sendable {
    let offset: Int
    let linesBefore: Int
}
