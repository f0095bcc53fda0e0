import AgendaCore
import Foundation
@testable import ICalAdapter
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
        "BEGIN:VCALENDAR\r\nBEG\r\n IN:VEVENT\r\nUID:folded\r\nDTSTART:20250304T100000Z\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n",
        // An iTIP message: its METHOD reaches its own components only.
        "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:itip\r\nSUMMARY:no start\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n",
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
            #expect(FileStartSplit(starts: text.fileStarts, workers: 1).split(stretch, maxChunks: .max,
                calendarsSeen: 0) == nil)
        }
    }

    /// The collection read on one thread and on several lists and says the same.
    @Test func aJoinedCollectionReadsTheSameOnEveryThreadCount() throws {
        let calendar = CalendarInfo(name: "vdir", source: ".", path: "vdir")
        let window = AgendaWindow.days(400, from: CivilDate(iso: "2025-01-01")!, clock: berlinClock)
        // The files made, each UID once, enough of them to be framed in parts.
        var files: [CollectionFile] = []
        var total = 0
        while total < FileStartSplit.parallelFrom + 1 {
            for text in FileStartSplitTests.made {
                let bytes = Array(text.replacingOccurrences(of: "UID:", with: "UID:\(files.count)-").utf8)
                files.append(CollectionFile(path: "vdir/\(files.count).ics", bytes: bytes))
                total += bytes.count
            }
        }
        let one = try CalendarLoader(window: window, threads: 1).load(joining: files, as: calendar)
        for threads in [2, 3] {
            let several = try CalendarLoader(window: window, threads: threads).load(joining: files, as: calendar)
            #expect(StretchedLoadTests.summary(several) == StretchedLoadTests.summary(one))
        }
        #expect(!one.diagnostics.isEmpty)
    }
}
