import AgendaCore
import Foundation
@testable import ICalAdapter
import Synchronization
import Testing

/// A vdir collection's joined text framed on several cores, cut where its
/// files start (`FileStartSplit`), must frame exactly as one pass over the
/// whole does: every component, its lines, its calendar, every repair and
/// warning, and how the text ends.
@Suite struct FileStartSplitTests {
    /// Every fixture that a collection would join (`ItemFileScan.isJoinable`),
    /// and a few made to need framing's repairs, repeated under new names to
    /// pass `FileStartSplit.parallelFrom`.
    static let files: [CollectionFile] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter {
            $0.hasSuffix(".ics")
        }.sorted()
        var samples = names.compactMap { name -> [UInt8]? in
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(name).path) else {
                return nil
            }
            let bytes = [UInt8](data)
            return bytes.withUnsafeBufferPointer { ItemFileScan($0).isJoinable } ? bytes : nil
        }
        samples += made.map { Array($0.utf8) }.filter { $0.withUnsafeBufferPointer { ItemFileScan($0).isJoinable } }
        var files: [CollectionFile] = []
        var total = 0
        while total < 3 * FileStartSplit.parallelFrom / 2 {
            for sample in samples {
                files.append(CollectionFile(path: "vdir/\(files.count).ics", bytes: sample))
                total += sample.count
            }
        }
        return files
    }()

    /// Files a collection joins that framing must mend or tell about.
    static let made = [
        // A zone of its own, and its event.
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\n"
            + "DTSTART:19701025T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
            + "BEGIN:VEVENT\r\nUID:zone\r\nDTSTART;TZID=Europe/Berlin:20250301T100000\r\nSUMMARY:Z\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n",
        // An alarm that lost its END line, and a stray END.
        "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:lost\r\nDTSTART:20250302T100000Z\r\nBEGIN:VALARM\r\n"
            + "TRIGGER:-PT5M\r\nEND:VJOURNAL\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        // Two lines glued into one, a folded BEGIN line, LF line ends.
        "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:glued\nDUE:20250303T100000Z\nEND:VALARMEND:VTODO\nEND:VCALENDAR\n",
        "BEGIN:VCALENDAR\r\nBEGIN:VEV\r\n ENT\r\nUID:folded\r\nDTSTART:20250304T100000Z\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n",
        // An iTIP message: its METHOD reaches its own components only.
        "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:itip\r\nSUMMARY:no start\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n",
        // Ends on an indented BEGIN line that a framer opens (a file joins
        // it as a fold): the next file starts with a component open.
        "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:open\r\nDTSTART:20250305T100000Z\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n BEGIN:VEVENT\r\n",
        "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:after-open\r\nSUMMARY:no start either\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n",
        // An indented BEGIN line that, unfolded, opens nothing.
        "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:i\r\nDTSTART:20250306T100000Z\r\nEND:VEVENT\r\n BEGIN:VEVENT\r\n"
            + " X\r\nEND:VCALENDAR\r\n",
        // A first line that, unfolded, is no BEGIN:VCALENDAR; a name cut to one line.
        "BEGIN:VCALENDAR\r\n X-FOLDED\r\nBEGIN:VEVENT\r\nUID:v\r\nDTSTART:20250307T100000Z\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n",
        "BEGIN:VCALENDAR\r\nX-WR-CALNAME:\(String(repeating: "Long name ", count: 30))\r\nBEGIN:VEVENT\r\nUID:n\r\nDTSTART:20250308T100000Z\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n",
    ]

    /// The first few lines where two framings differ (each component a line, then the rest).
    static func differences(_ a: ComponentSplitter.Result, _ b: ComponentSplitter.Result) -> [String] {
        func lines(_ r: ComponentSplitter.Result) -> [String] {
            var rest = r
            rest.chunks = []
            return r.chunks.map { String(describing: $0) } + [String(describing: rest)]
        }
        let (x, y) = (lines(a), lines(b))
        let differing = zip(x, y).filter { $0 != $1 }.map { "\($0)\n  vs \($1)" }
        return Array((differing + (x.count == y.count ? [] : ["\(x.count) lines vs \(y.count)"])).prefix(3))
    }

    static func sequential(_ text: CollectionText) -> ComponentSplitter.Result {
        text.bytes.withUnsafeBufferPointer { ComponentSplitter.split(Stretch($0, 0..<$0.count)) }
    }

    /// Every file made here is one a collection joins: none is left out of the tests unseen.
    @Test func everyFileMadeIsJoinable() {
        for text in FileStartSplitTests.made {
            #expect(Array(text.utf8).withUnsafeBufferPointer { ItemFileScan($0).isJoinable }, "\(text)")
        }
    }

    @Test(arguments: [2, 3, 8])
    func partsFrameAsTheWholeDoes(_ workers: Int) throws {
        let text = CollectionText(FileStartSplitTests.files)
        let whole = FileStartSplitTests.sequential(text)
        let parts = try #require(text.bytes.withUnsafeBufferPointer { bytes in
            FileStartSplit(starts: text.fileStarts, workers: workers).split(Stretch(bytes, 0..<bytes.count),
                maxChunks: .max, calendarsSeen: 0)
        })
        #expect(whole.chunks.count > 100)
        // Some fixtures hold several calendars one after the other.
        #expect(Set(whole.chunks.map(\.calendar)).count >= FileStartSplitTests.files.count)
        #expect(whole.chunks.contains { $0.repairs != nil })
        #expect(FileStartSplitTests.differences(parts, whole) == [])
    }

    /// Cut at every file: every boundary between the files made here, each
    /// after each, is cut at or framed as one, and either way gives what
    /// one pass gives.
    @Test func everyBoundaryFramesAsOnePassDoes() {
        var files: [CollectionFile] = []
        for first in FileStartSplitTests.made {
            for second in FileStartSplitTests.made {
                for text in [first, second] {
                    files.append(CollectionFile(path: "vdir/\(files.count).ics", bytes: Array(text.utf8)))
                }
            }
        }
        let text = CollectionText(files)
        let whole = FileStartSplitTests.sequential(text)
        var cutsTaken = 0
        text.bytes.withUnsafeBufferPointer { bytes in
            // Two files a part: each pair of the made files meets at a cut.
            for offset in 0..<2 {
                var split = FileStartSplit(starts: text.fileStarts.enumerated().filter { $0.offset % 2 == offset }
                    .map(\.element), workers: files.count / 2)
                split.minimumBytes = 0
                let stretch = Stretch(bytes, 0..<bytes.count)
                if let parts = split.split(stretch, maxChunks: .max, calendarsSeen: 0) {
                    #expect(FileStartSplitTests.differences(parts, whole) == [])
                    cutsTaken += 1
                }
                // Pairs that must be framed as one are: the rest of the text still splits around them.
                for pair in stride(from: offset, to: files.count - 1, by: 2) {
                    let starts = [text.fileStarts[pair + 1]]
                    var one = FileStartSplit(starts: starts, workers: 2)
                    one.minimumBytes = 0
                    let range = text.fileStarts[pair].offset..<(pair + 2 < files.count
                        ? text.fileStarts[pair + 2].offset : bytes.count)
                    let piece = Stretch(bytes, range, linesBefore: text.fileStarts[pair].linesBefore)
                    let calendarsBefore = whole.chunks.first { $0.range.lowerBound >= range.lowerBound }.map(\.calendar)
                    guard let parts = one.split(piece, maxChunks: .max, calendarsSeen: calendarsBefore ?? 0) else {
                        continue
                    }
                    let alone = ComponentSplitter.split(piece, calendarsSeen: calendarsBefore ?? 0)
                    #expect(FileStartSplitTests.differences(parts, alone) == [], "files \(pair) and \(pair + 1)")
                    cutsTaken += 1
                }
            }
        }
        #expect(cutsTaken > 10)
    }

    /// A stretch that does not start the text: its lines and calendars
    /// before are counted on from where it starts.
    @Test func aLaterStretchCountsOnFromItsStart() throws {
        let text = CollectionText(FileStartSplitTests.files)
        let from = try #require(text.fileStarts.dropFirst(7).first)
        try text.bytes.withUnsafeBufferPointer { bytes in
            let stretch = Stretch(bytes, from.offset..<bytes.count, linesBefore: from.linesBefore)
            let whole = ComponentSplitter.split(stretch, calendarsSeen: 7)
            let parts = try #require(FileStartSplit(starts: text.fileStarts, workers: 2).split(stretch,
                maxChunks: .max, calendarsSeen: 7))
            #expect(FileStartSplitTests.differences(parts, whole) == [])
        }
    }

    /// Starts that are not where files begin are not cut at; past
    /// `maxChunks` the whole is framed as one, which says where to stop.
    @Test func startsThatDoNotFitAndTooManyComponentsFrameAsOne() {
        let text = CollectionText(FileStartSplitTests.files)
        text.bytes.withUnsafeBufferPointer { bytes in
            let stretch = Stretch(bytes, 0..<bytes.count)
            let shifted = text.fileStarts.map { FileStart(offset: $0.offset + 1, linesBefore: $0.linesBefore) }
            #expect(FileStartSplit(starts: shifted, workers: 2).split(stretch, maxChunks: .max, calendarsSeen: 0)
                == nil)
            #expect(FileStartSplit(starts: text.fileStarts, workers: 2).split(stretch, maxChunks: 10,
                calendarsSeen: 0) == nil)
            // Exactly `maxChunks`: one pass stops before the last END:VCALENDAR.
            let count = FileStartSplitTests.sequential(text).chunks.count
            #expect(FileStartSplit(starts: text.fileStarts, workers: 2).split(stretch, maxChunks: count,
                calendarsSeen: 0) == nil)
            #expect(FileStartSplit(starts: text.fileStarts, workers: 2).split(stretch, maxChunks: count + 1,
                calendarsSeen: 0) != nil)
            #expect(FileStartSplit(starts: text.fileStarts, workers: 1).split(stretch, maxChunks: .max,
                calendarsSeen: 0) == nil)
        }
    }

    /// The collection read on one thread and on several lists and says the same.
    @Test func aJoinedCollectionReadsTheSameOnEveryThreadCount() throws {
        let calendar = CalendarInfo(name: "vdir", source: ".", path: "vdir")
        let window = AgendaWindow.days(400, from: CivilDate(iso: "2025-01-01")!, clock: berlinClock)
        // The files made, each UID once, enough of them to be framed in parts
        // (not those that end with something open: one pass frames those).
        var files: [CollectionFile] = []
        var total = 0
        while total < FileStartSplit.parallelFrom + 1 {
            for text in FileStartSplitTests.made where text.hasSuffix("END:VCALENDAR\r\n")
                || text.hasSuffix("END:VCALENDAR\n") {
                let bytes = Array(text.replacingOccurrences(of: "UID:", with: "UID:\(files.count)-").utf8)
                files.append(CollectionFile(path: "vdir/\(files.count).ics", bytes: bytes))
                total += bytes.count
            }
        }
        let one = try CalendarLoader(window: window, threads: 1).load(joining: files, as: calendar)
        for threads in [2, 3] {
            let before = FileStartSplit.framedInParts.load(ordering: .relaxed)
            let several = try CalendarLoader(window: window, threads: threads).load(joining: files, as: calendar)
            #expect(FileStartSplit.framedInParts.load(ordering: .relaxed) > before)
            #expect(StretchedLoadTests.summary(several) == StretchedLoadTests.summary(one))
        }
        #expect(!one.diagnostics.isEmpty)
    }
}
