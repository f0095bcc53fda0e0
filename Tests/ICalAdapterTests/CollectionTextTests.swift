import Foundation
@testable import ICalAdapter
import Testing

/// A collection's files joined into one text on several threads: the same
/// bytes, file starts and line places as one thread joining them in order.
@Suite struct CollectionTextTests {
    /// Files of every shape a join meets: a byte-order mark, no line break
    /// at the end, a bare LF, empty, a mark alone.
    static let files: [CollectionFile] = (0..<300).map { i in
        let body = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:\(i)\r\nEND:VEVENT\r\nEND:VCALENDAR"
        let text: [UInt8] = switch i % 6 {
        case 0: Array(body.utf8) + [0x0D, 0x0A]
        case 1: [0xEF, 0xBB, 0xBF] + Array(body.utf8) + [0x0D, 0x0A]
        case 2: Array(body.utf8)
        case 3: Array(body.replacingOccurrences(of: "\r\n", with: "\n").utf8) + [0x0A]
        case 4: []
        default: [0xEF, 0xBB, 0xBF]
        }
        return CollectionFile(path: "f\(i).ics", bytes: text)
    }

    @Test(arguments: [2, 3, 8]) func threadsJoinAsOneDoes(threads: Int) {
        let one = CollectionText(CollectionTextTests.files, threads: 1)
        let several = CollectionText(CollectionTextTests.files, threads: threads)
        // Each file without its mark, then a line break where it had none.
        var expected: [UInt8] = []
        for file in CollectionTextTests.files {
            let text = file.bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(file.bytes.dropFirst(3)) : file.bytes
            expected += text + (text.last == 0x0A ? [] : [0x0D, 0x0A])
        }
        #expect(one.bytes == expected)
        // Each file starts where the reference join put it, after the lines before it.
        var offset = 0, linesBefore = 0
        for (file, start) in zip(CollectionTextTests.files, several.fileStarts) {
            #expect(start.offset == offset && start.linesBefore == linesBefore, "\(file.path)")
            let text = file.bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(file.bytes.dropFirst(3)) : file.bytes
            let joined = text + (text.last == 0x0A ? [] : [0x0D, 0x0A])
            offset += joined.count
            linesBefore += joined.filter { $0 == 0x0A }.count
        }
        #expect(several.bytes == one.bytes)
        #expect(several.fileStarts.map(\.offset) == one.fileStarts.map(\.offset))
        #expect(several.fileStarts.map(\.linesBefore) == one.fileStarts.map(\.linesBefore))
        let lines = one.bytes.filter { $0 == 0x0A }.count
        for line in 1...lines { #expect(several.place(line: line)! == one.place(line: line)!, "line \(line)") }
    }

    /// Each file's own lines: its first line is line 1 of its path, and a
    /// file without a last line break gets one.
    @Test func eachLineIsPlacedInItsFile() {
        let text = CollectionText(CollectionTextTests.files, threads: 3)
        #expect(text.place(line: 1)! == ("f0.ics", 1))
        #expect(text.place(line: 6)! == ("f1.ics", 1))  // after f0's five lines; f1's mark is dropped
        #expect(text.place(line: 11)! == ("f2.ics", 1))
        #expect(text.place(line: 16)! == ("f3.ics", 1))  // f2 ended without a break: one was added
        #expect(text.place(line: 21)! == ("f4.ics", 1))  // f4 empty: a line break alone
        #expect(text.place(line: 22)! == ("f5.ics", 1))
        #expect(text.place(line: 23)! == ("f6.ics", 1))
        #expect(!text.bytes.starts(with: [0xEF]) && !text.bytes.contains(0xBB))
    }
}
