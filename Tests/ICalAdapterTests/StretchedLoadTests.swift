import AgendaCore
import Foundation
import ICalAdapter
import Testing

/// A large input is framed and read a stretch at a time, and standard input
/// as it comes (`InputSegments`, `StretchReader`): here with stretches of a
/// few kilobytes and components, every fixture must give what reading it
/// whole gives.
@Suite struct StretchedLoadTests {
    static let fixtures: [URL] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = root.appendingPathComponent("Fixtures")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".ics") }.sorted().map { folder.appendingPathComponent($0) }
    }()

    static let window = AgendaWindow.days(400, from: CivilDate(iso: "2025-01-01")!, clock: berlinClock)

    /// What a reading lists and says, in a form to compare.
    static func summary(_ loaded: LoadedCalendar) -> [String] {
        let iso = ISOTime(clock: berlinClock)
        let rows = loaded.occurrences.map { o in
            [o.uid, o.title, o.start.map(iso.string) ?? "-", o.end.map(iso.string) ?? "-", o.due.map(iso.string) ?? "-",
                o.recurrenceID.map(iso.string) ?? "-", o.calendar.name].joined(separator: "|")
        }.sorted()
        return rows + ["events \(loaded.eventCount) reminders \(loaded.reminderCount)"]
            + loaded.diagnostics.map(\.description).sorted()
    }

    static func small(_ bytes: Int, _ components: Int) -> CalendarLoader {
        var loader = CalendarLoader(window: window)
        loader.stretchBytes = bytes
        loader.stretchComponents = components
        return loader
    }

    /// Feeds `data` to the streaming reader a few bytes at a time, as a pipe would.
    static func stream(_ data: Data, with loader: CalendarLoader, piece: Int = 7) throws -> LoadedCalendar {
        var offset = 0
        return try loader.load(streaming: { buffer in
            let n = min(piece, buffer.count, data.count - offset)
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<(offset + n))
            offset += n
            return n
        }, path: "test.ics", defaultName: "test", source: ".")
    }

    @Test(arguments: fixtures)
    func stretchesGiveWhatTheWholeFileGives(_ file: URL) throws {
        let data = try Data(contentsOf: file)
        let whole: LoadedCalendar
        do {
            whole = try CalendarLoader(window: StretchedLoadTests.window)
                .load(data, path: "test.ics", defaultName: "test", source: ".")
        } catch {
            // Not iCalendar: the stretched and streamed readings say so too.
            #expect(throws: NotICalendar.self) { try StretchedLoadTests.small(4096, 2)
                .load(data, path: "test.ics", defaultName: "test", source: ".") }
            #expect(throws: NotICalendar.self) { try StretchedLoadTests.stream(data,
                with: StretchedLoadTests.small(4096, 2)) }
            return
        }
        let expected = StretchedLoadTests.summary(whole)
        // A stretch holds at least the file's largest component (one larger is skipped, by design).
        let largest = String(decoding: data, as: UTF8.self).components(separatedBy: "\nBEGIN:").map(\.utf8.count).max()
            ?? 0
        let bytes = max(4096, 2 * largest)
        for components in [1, 2, 5] {
            let stretched = try StretchedLoadTests.small(bytes, components)
                .load(data, path: "test.ics", defaultName: "test", source: ".")
            #expect(StretchedLoadTests.summary(stretched) == expected,
                "\(file.lastPathComponent), \(components) a stretch")
        }
        // Standard input has no zone read ahead: a VTIMEZONE that follows its events is only for the stretches after
        // it.
        let zonesFirst = String(decoding: data, as: UTF8.self).range(of: "BEGIN:VTIMEZONE").map {
            !String(decoding: data, as: UTF8.self)[..<$0.lowerBound].contains("BEGIN:VEVENT")
        } ?? true
        if zonesFirst && data.count > bytes {
            let streamed = try StretchedLoadTests.stream(data, with: StretchedLoadTests.small(bytes, 3))
            #expect(StretchedLoadTests.summary(streamed) == expected, "\(file.lastPathComponent) streamed")
        }
    }

    static func event(_ n: Int, padding: Int = 0) -> String {
        "BEGIN:VEVENT\r\nUID:e\(n)\r\nSUMMARY:Event \(n)\r\nDESCRIPTION:x\(String(repeating: "x", count: padding))\r\nDTSTART:202503\(10 + n % 10)T090000Z\r\nEND:VEVENT\r\n"
    }

    @Test func aComponentLargerThanAStretchIsSkippedWithOneWarningAndTheOthersRead() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + (0..<6).map { StretchedLoadTests.event($0,
            padding: $0 == 3 ? 9000 : 0) }.joined()
            + "END:VCALENDAR\r\n"
        let data = Data(text.utf8)
        for loaded in [try StretchedLoadTests.small(4096, 100)
            .load(data, path: "test.ics", defaultName: "test", source: "."),
            try StretchedLoadTests.stream(data, with: StretchedLoadTests.small(4096, 100), piece: 1000)]
        {
            #expect(loaded.occurrences.map(\.uid).sorted() == ["e0", "e1", "e2", "e4", "e5"])
            #expect(loaded.diagnostics.map(\.description) == ["test.ics:21: VEVENT: larger than 4096 bytes, more than one component is read; skipped"])
        }
    }

    /// Components this program does not read (RFC 5545 x-comps) filling
    /// more than a stretch after an event: the events on both sides are
    /// read, and nothing is said (nothing listed is lost).
    @Test func moreThanAStretchOfUnknownComponentsLosesNoEvent() throws {
        let widgets = (0..<200).map { "BEGIN:X-WIDGET\r\nUID:w\($0)\r\nX-DATA:\(String(repeating: "z", count: 40))\r\nEND:X-WIDGET\r\n" }.joined()
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + StretchedLoadTests.event(0, padding: 0)
            + StretchedLoadTests.event(1, padding: 0)
            + widgets + StretchedLoadTests.event(2, padding: 0) + widgets + widgets
                + StretchedLoadTests.event(3, padding: 0) + "END:VCALENDAR\r\n"
        let data = Data(text.utf8)
        #expect(data.count > 3 * 4096)
        for loaded in [try StretchedLoadTests.small(4096, 100)
            .load(data, path: "test.ics", defaultName: "test", source: "."),
            try StretchedLoadTests.stream(data, with: StretchedLoadTests.small(4096, 100), piece: 1000)]
        {
            #expect(loaded.occurrences.map(\.uid).sorted() == ["e0", "e1", "e2", "e3"])
            #expect(loaded.diagnostics.isEmpty)
        }
    }

    /// UTF-16 longer than a stretch is read as UTF-8 a stretch at a time,
    /// from a file and from a stream fed in odd pieces (code units and
    /// surrogate pairs split between reads): everything the UTF-8 text
    /// lists, a lone surrogate as U+FFFD in both.
    @Test(arguments: [(bigEndian: false, mark: true), (bigEndian: true, mark: false)])
    func utf16LongerThanAStretchIsReadAsItComes(bigEndian: Bool, mark: Bool) throws {
        let events = (0..<60).map { n in
            StretchedLoadTests.event(n).replacingOccurrences(of: "SUMMARY:Event \(n)",
                with: "SUMMARY:Événement \(n) 😀 日本")
        }
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + events.joined() + "END:VCALENDAR\r\n"
        let utf8 = Data(text.utf8)
        var utf16 = Data(mark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : [])
        for unit in text.utf16 { utf16 += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF),
            UInt8(unit >> 8)] }
        #expect(utf16.count > 3 * 4096)
        let expected = StretchedLoadTests.summary(try StretchedLoadTests.small(4096, 3)
            .load(utf8, path: "test.ics", defaultName: "test", source: "."))
        #expect(expected.count == 61)
        let file = try StretchedLoadTests.small(4096, 3).load(utf16, path: "test.ics", defaultName: "test", source: ".")
        #expect(StretchedLoadTests.summary(file) == expected)
        for piece in [1, 3, 1000] {
            let streamed = try StretchedLoadTests.stream(utf16, with: StretchedLoadTests.small(4096, 3), piece: piece)
            #expect(StretchedLoadTests.summary(streamed) == expected, "pieces of \(piece)")
        }
        // A leading surrogate with no trailing one, and a trailing one alone.
        let broken = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + StretchedLoadTests.event(1)
            .replacingOccurrences(of: "Event 1", with: "A?B?C") + "END:VCALENDAR\r\n"
        var units = Array(broken.utf16)
        units[units.firstIndex(of: 0x3F)!] = 0xD83D
        units[units.firstIndex(of: 0x3F)!] = 0xDE00
        var data = Data()
        for unit in units { data += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF),
            UInt8(unit >> 8)] }
        let loaded = try StretchedLoadTests.stream(data, with: StretchedLoadTests.small(4096, 3), piece: 3)
        #expect(loaded.occurrences.map(\.title) == ["A\u{FFFD}B\u{FFFD}C"])
    }

    @Test func anEndlessRunOfBrokenComponentsKeepsAtMostTenThousandWarnings() throws {
        let data = Data(String(repeating: "BEGIN:VEVENT\n", count: 30_000).utf8)
        let loaded = try StretchedLoadTests.stream(data, with: StretchedLoadTests.small(4096, 100), piece: 1000)
        #expect(loaded.occurrences.isEmpty)
        // Past the 10,000 kept, each warning of a kind already told is counted on its first one.
        #expect(loaded.diagnostics.count == 10_000)
        #expect(loaded.diagnostics.reduce(0) { $0 + 1 + $1.morePlaces } == 60_000)
        #expect(Set(loaded.diagnostics.filter { $0.morePlaces > 0 }.map(\.kind)).count == 2)
    }

    @Test func aStreamOfBinaryDataIsNotICalendarAfterOneStretch() throws {
        let data = Data(repeating: 0, count: 20_000)
        #expect(throws: NotICalendar.self) { try StretchedLoadTests.stream(data,
            with: StretchedLoadTests.small(4096, 100), piece: 1000) }
        let text = Data(String(repeating: "no calendar here\n", count: 2000).utf8)
        #expect(throws: NotICalendar.self) { try StretchedLoadTests.stream(text,
            with: StretchedLoadTests.small(4096, 100), piece: 1000) }
        #expect(throws: NotICalendar.self) { try StretchedLoadTests.small(4096, 100)
            .load(text, path: "test.ics", defaultName: "test", source: ".") }
    }

    @Test func aSkippedOldRevisionStillSupersedesOrIsSupersededByTheListedOne() throws {
        // The old one (2001, skipped unread) has the higher SEQUENCE: the listed one is a stale revision.
        let older = calendar("""
            BEGIN:VEVENT
            UID:r
            SEQUENCE:2
            SUMMARY:Old, newer revision
            DTSTART:20010310T090000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:r
            SEQUENCE:1
            SUMMARY:Listed, older revision
            DTSTART:20250310T090000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:q
            SUMMARY:Old
            DTSTART:20010310T090000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:q
            SEQUENCE:1
            SUMMARY:Listed, newer
            DTSTART:20250311T090000Z
            END:VEVENT

            """)
        let loaded = try CalendarLoader(window: march).load(older, path: "test.ics", defaultName: "test", source: ".")
        #expect(loaded.occurrences.map(\.title) == ["Listed, newer"])
        #expect(loaded.eventCount == 2)
    }
}
