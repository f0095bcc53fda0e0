import AgendaCore
import Foundation
import Testing

@testable import ICalAdapter

/// Hostile input, round 4, as the loader meets it: runs of NUL bytes (a
/// zero-filled tail, a crash's zeros), libical's messages in our words,
/// signed SEQUENCE values, calendar names of one line.
@Suite struct HostileRound4LoaderTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/hostile4")

    static func fixture(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }

    static func load(_ data: Data,
        _ loader: CalendarLoader = CalendarLoader(window: StretchedLoadTests.window)) throws -> LoadedCalendar {
        try loader.load(data, path: "test.ics", defaultName: "test", source: ".")
    }

    static func nulWarnings(_ loaded: LoadedCalendar) -> [Diagnostic] { loaded.diagnostics.filter { $0.kind == NULRuns.kind } }

    // MARK: runs of NUL bytes

    @Test(arguments: ["nul_tail_after_calendar.ics", "nul_between_components.ics", "nul_run_in_text.ics",
        "nul_cut_inside_event.ics"])
    func aRunOfNULBytesIsToldOnceAndNothingBeforeItIsLost(_ name: String) throws {
        let data = try HostileRound4LoaderTests.fixture(name)
        let listed = try HostileRound4LoaderTests.load(data).occurrences.map(\.title)
        #expect(listed.count == 2, "\(name): \(listed)")
        #expect(listed.allSatisfy { $0.hasPrefix("Listed") })
        for loaded in [try HostileRound4LoaderTests.load(data),
            try StretchedLoadTests.stream(data, with: StretchedLoadTests.small(4096, 3), piece: 1000)] {
            let told = HostileRound4LoaderTests.nulWarnings(loaded)
            #expect(told.count == 1, "\(name): \(loaded.diagnostics)")
            // Where the NUL bytes start: the line after the last whole line before them.
            let before = data.prefix { $0 != 0 }
            #expect(told.first?.line == 1 + before.filter { $0 == 0x0A }.count)
            #expect(loaded.occurrences.map(\.title) == listed)
        }
    }

    @Test func aCalendarFollowedByMoreThanAStretchOfZerosIsListedWhole() throws {
        // Past the stretch (here 4 KB, 64 MB in use), where one "component" too large to read once took all.
        var data = try HostileRound4LoaderTests.fixture("nul_tail_after_calendar.ics")
        data.append(Data(repeating: 0, count: 100_000))
        for loaded in [try HostileRound4LoaderTests.load(data, StretchedLoadTests.small(4096, 3)),
            try StretchedLoadTests.stream(data, with: StretchedLoadTests.small(4096, 3), piece: 999)]
        {
            #expect(loaded.occurrences.count == 2)
            #expect(loaded.diagnostics.map(\.kind) == [NULRuns.kind], "\(loaded.diagnostics)")
        }
    }

    @Test func aStreamOfNothingButZerosIsStillNotICalendar() {
        let zeros = Data(repeating: 0, count: 50_000)
        #expect(throws: NotICalendar.self) { try StretchedLoadTests.stream(zeros,
            with: StretchedLoadTests.small(4096, 3), piece: 1000) }
        #expect(throws: NotICalendar.self) { try HostileRound4LoaderTests.load(zeros) }
    }

    @Test func utf16WithAZeroTailIsToldAsUTF8Is() throws {
        let text = String(decoding: try HostileRound4LoaderTests.fixture("nul_tail_after_calendar.ics")
            .prefix { $0 != 0 }, as: UTF8.self)
        var data = Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!
        data.append(Data(repeating: 0, count: 10_000))
        let loaded = try HostileRound4LoaderTests.load(data)
        #expect(loaded.occurrences.count == 2)
        #expect(HostileRound4LoaderTests.nulWarnings(loaded).count == 1)
    }

    @Test func aFewNULBytesAmongTextAreNoRun() throws {
        let loaded = try HostileRound4LoaderTests.load(try Data(contentsOf: HostileRound4LoaderTests.folder
            .deletingLastPathComponent().appendingPathComponent("broken_nul_bytes.ics")))
        #expect(HostileRound4LoaderTests.nulWarnings(loaded).isEmpty)
        #expect(loaded.occurrences.count == 3)
    }

    // MARK: libical's messages in our words

    static let rawPhrases = ["Parse error in", "No value for", "Can't parse", "Got a data line",
        "Removing entire property",
        "Invalid VALUE type", "Missing END tag", "could not find"]

    @Test func noLibicalMessageIsShownRaw() throws {
        let loaded = try HostileRound4LoaderTests.load(try HostileRound4LoaderTests.fixture("libical_messages.ics"))
        let text = loaded.diagnostics.map(\.description)
        #expect(loaded.occurrences.count == 2)
        #expect(text.count >= 10, "\(text)")
        for line in text { #expect(!HostileRound4LoaderTests.rawPhrases.contains { line.contains($0) }, "\(line)") }
        // The whole name as written, and what is wrong with it, on its own line.
        #expect(text.contains { $0.hasPrefix("test.ics:9: property name \"PERCENT_COMPLETE\": \"_\" is not allowed in a name") })
        #expect(text.contains { $0.hasPrefix("test.ics:10: property name \"PER CENT\": a blank is not allowed") })
        #expect(text.contains { $0.hasPrefix("test.ics:11: property name \"DESCRIPTIÖN\": \"Ö\" is not allowed") })
        #expect(text.contains { $0.hasPrefix("test.ics:12: CATEGORIES: parameter \"FOO\" has no \"=\"") })
        #expect(text.contains { $0.hasPrefix("test.ics:18: line \"just some text\" has no \":\"") })
        #expect(text.contains { $0.hasPrefix("test.ics:19: line \":novalue\" has no property name") })
    }

    /// Every shape libical's parser words, said again: none keeps libical's phrase.
    @Test(arguments: [
        "Parse error in property name: PERCENT_COMPLETE", "Parse error in component name: V_EVENT",
            "Can't parse parameter name: FOO",
        "Can't parse parameter name: =x", "Can't parse parameter name: ;",
            "Can't parse parameter value: PARTSTAT=MAYBE",
        "Invalid VALUE type for property DTEND: VALUE=TEXT",
            "Got a data line, but could not find a property name or component begin tag: x",
        "No value for TRANSP property. Removing entire property:",
            "Missing END tag for this component. Closing component at end of input.",
        "Can't parse as DATE-TIME value in DTEND property. Removing entire property: \u{1B}[31m"
            + String(repeating: "x", count: 500),
        "Can't parse as GEO value in GEO property. Removing entire property: abc", "Something libical says one day",
    ])
    func everyLibicalShapeIsReworded(_ message: String) {
        let words = LibicalMessages.describe(message, property: LibicalMessages.propertyName(in: message))
        #expect(!HostileRound4LoaderTests.rawPhrases.contains { words.contains($0) }, "\(words)")
        #expect(words.count < 300)
        #expect(!words.unicodeScalars.contains { $0.value < 0x20 })
    }

    // MARK: signed INTEGER values

    @Test func signedSequencesAreValidAndOrderRevisions() throws {
        let loaded = try HostileRound4LoaderTests.load(try HostileRound4LoaderTests.fixture("sequence_signed.ics"))
        #expect(loaded.occurrences.map(\.title).sorted() == [
            "Listed: SEQUENCE +5 and PRIORITY +5 are valid", "Listed: SEQUENCE -7 is valid, PRIORITY -1 is not",
            "Listed: SEQUENCE 0, the newer revision", "Listed: SEQUENCE past 32 bits is told",
        ])
        let told = loaded.diagnostics.map(\.description)
        #expect(told.count == 2, "\(told)")
        #expect(told.contains { $0.contains("SEQUENCE: \"4294967296\"") })
        #expect(told.contains { $0.contains("PRIORITY: \"-1\"") })
    }

    @Test(arguments: [("-1", -1), ("+5", 5), ("0", 0), ("-2147483648", -2147483648), ("2147483647", 2147483647)])
    func integersAreReadSigned(_ text: String, _ value: Int64) {
        #expect(WrittenValues.integer(text) == value)
    }

    @Test(arguments: ["", "-", "+", "1.5", "5abc", "٣", " 5"])
    func nonIntegersAreNone(_ text: String) {
        #expect(WrittenValues.integer(text) == nil)
    }

    // MARK: calendar names

    @Test func aLongCalendarNameIsCutWithOneWarning() throws {
        let loaded = try HostileRound4LoaderTests.load(try HostileRound4LoaderTests.fixture("calname_long.ics"))
        #expect(loaded.calendar.name == String(repeating: "Ü", count: 256))
        #expect(loaded.diagnostics.count == 1)
        #expect(loaded.diagnostics.first?.line == 4)
    }

    @Test(arguments: [("Work\nHome", "Work", true), ("  Work  ", "Work", false), ("Ä", "Ä", false), ("", "", false)])
    func aNameIsItsFirstLine(_ text: String, _ name: String, _ cut: Bool) {
        #expect(CalendarName.oneLine(text) == (name, cut))
    }
}
