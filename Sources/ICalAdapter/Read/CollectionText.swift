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

    /// `threads` copy the files and count their lines side by side (each
    /// file's place is known first: its length, less a byte-order mark,
    /// and a line break added when it ends without one).
    init(_ files: [CollectionFile], threads: Int = 1) {
        var places: [Int] = []
        places.reserveCapacity(files.count + 1)
        places.append(0)
        for file in files {
            let skip = file.bytes.withUnsafeBufferPointer { TextDecoding.hasUTF8BOM($0) ? 3 : 0 }
            places.append(places.last! + file.bytes.count - skip + (file.bytes.last == 0x0A ? 0 : 2))
        }
        let offsets = places
        let lineCounts = Slots<Int>(count: files.count, initial: 0)
        bytes = [UInt8](unsafeUninitializedCapacity: offsets.last!) { joined, count in
            let target = SendableBuffer(base: joined.baseAddress)
            @Sendable func work(_ worker: Int, _ workers: Int) {
                for i in (files.count * worker / workers)..<(files.count * (worker + 1) / workers) {
                    files[i].bytes.withUnsafeBufferPointer { all in
                        let text = UnsafeBufferPointer(rebasing: all[(TextDecoding.hasUTF8BOM(all) ? 3 : 0)...])
                        let at = target.base! + offsets[i]
                        if let from = text.baseAddress { at.initialize(from: from, count: text.count) }
                        var lines = InputSegments.lineFeeds(in: text, 0..<text.count)
                        if text.last != 0x0A {
                            (at + text.count).initialize(to: 0x0D)
                            (at + text.count + 1).initialize(to: 0x0A)
                            lines += 1
                        }
                        lineCounts[i] = lines
                    }
                }
            }
            let workers = files.count < 64 ? 1 : max(1, min(threads, 8))
            if workers == 1 { work(0, 1) } else {
                DispatchQueue.concurrentPerform(iterations: workers) { work($0, workers) }
            }
            count = offsets.last!
        }
        starts.reserveCapacity(files.count)
        fileStarts.reserveCapacity(files.count)
        for (i, file) in files.enumerated() {
            starts.append((lines + 1, file.path))
            fileStarts.append(FileStart(offset: offsets[i], linesBefore: lines))
            lines += lineCounts[i]
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

/// Where the threads joining a collection write (each its own files' places).
private struct SendableBuffer: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>?
}

/// Where a file of a joined text starts, and the lines before it.
struct FileStart: Sendable {
    let offset: Int
    let linesBefore: Int
}
