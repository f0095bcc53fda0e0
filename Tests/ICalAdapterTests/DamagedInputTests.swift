import AgendaCore
import Foundation
import ICalAdapter
import Testing

/// CPU time this thread spends in `body`: unlike wall time, it does not
/// grow when the machine is busy with other work.
func cpuTime(_ body: () throws -> Void) rethrows -> Duration {
    func now() -> Duration {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return .seconds(t.tv_sec) + .nanoseconds(t.tv_nsec)
    }
    let start = now()
    try body()
    return now() - start
}

/// One test per class of damage: the damaged part is repaired or skipped
/// with one warning, and every good component of the file is still listed.
@Suite struct DamagedInputTests {
    /// Loads raw bytes (no CRLF rewriting) over March 2025.
    func loadBytes(_ bytes: [UInt8]) throws -> LoadedCalendar {
        try CalendarLoader(window: march).load(bytes, path: "test.ics", defaultName: "test", source: ".")
    }

    func event(_ uid: String, _ summary: [UInt8], day: Int) -> [UInt8] {
        Array("BEGIN:VEVENT\r\nUID:\(uid)\r\nSUMMARY:".utf8) + summary
            + Array("\r\nDTSTART:202503\(String(format: "%02d", day))T100000Z\r\nEND:VEVENT\r\n".utf8)
    }

    func wrap(_ body: [UInt8]) -> [UInt8] {
        Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n".utf8) + body + Array("END:VCALENDAR\r\n".utf8)
    }

    func titles(_ loaded: LoadedCalendar) -> [String: String] {
        Dictionary(loaded.occurrences.map { ($0.uid, $0.title) }, uniquingKeysWith: { a, _ in a })
    }

    /// A rule with only slips of syntax lists what the same rule written
    /// cleanly lists; a rule with a truly bad part keeps only DTSTART.
    @Test(arguments: [
        ("FREQ=DAILY\\;COUNT=4", "FREQ=DAILY;COUNT=4"),
        ("FREQ=WEEKLY\\;BYDAY=MO\\,TH\\;COUNT=5", "FREQ=WEEKLY;BYDAY=MO,TH;COUNT=5"),
        ("RRULE:FREQ=DAILY;INTERVAL=3", "FREQ=DAILY;INTERVAL=3"),
        ("RRULE:RRULE:Whatever;FREQ=DAILY;COUNT=2", "FREQ=DAILY;COUNT=2"),
        ("FREQ=DAILY;UNTIL=20250310T000000Z;COUNT=0", "FREQ=DAILY;UNTIL=20250310T000000Z"),
    ])
    func ruleWithSlipsOfSyntaxIsReadAsMeant(written: String, meant: String) throws {
        func starts(_ rule: String) throws -> (starts: [AgendaTime?], warnings: [String]) {
            let loaded = try loadBytes(wrap(Array("BEGIN:VEVENT\r\nUID:r\r\nSUMMARY:R\r\nDTSTART:20250303T100000Z\r\nRRULE:\(rule)\r\nEND:VEVENT\r\n".utf8)))
            return (loaded.occurrences.map(\.start), loaded.diagnostics.map(\.description))
        }
        let mended = try starts(written), clean = try starts(meant)
        #expect(mended.starts == clean.starts)
        #expect(mended.starts.count > 1)
        #expect(clean.warnings.isEmpty)
        #expect(mended.warnings.count == 1)
        #expect(mended.warnings.first?.contains("read as \"\(meant)\"") == true)
    }

    @Test(arguments: ["FREQ=WEEKLY;BYDAY=XX", "FREQ=FORTNIGHTLY;COUNT=3", "FREQ=DAILY\\;BYDAY=XX",
        "COUNT=-1;UNTIL=20250310T000000Z",
        "FREQ=DAILY;INTERVAL=2;C€"])
    func ruleWithABadPartIsNotGuessedAt(written: String) throws {
        let loaded = try loadBytes(wrap(Array("BEGIN:VEVENT\r\nUID:r\r\nSUMMARY:R\r\nDTSTART:20250303T100000Z\r\nRRULE:\(written)\r\nEND:VEVENT\r\n".utf8)))
        #expect(loaded.occurrences.count == 1)
        #expect(loaded.diagnostics.count == 1)
        #expect(loaded.diagnostics.first?.description.contains("the rule is ignored") == true)
    }

    /// Many absurd rules share the file's budget of rows beyond one a day,
    /// in file order: the first ones are cut at the per-series cap, later
    /// ones at one row a day, and a good series after them loses nothing.
    /// The same whatever the number of threads.
    @Test(arguments: [1, 3])
    func absurdRulesShareTheFilesBudget(threads: Int) throws {
        var body: [UInt8] = []
        for i in 0..<12 {
            body += Array("BEGIN:VEVENT\r\nUID:m\(i)\r\nSUMMARY:M\(i)\r\nDTSTART:20250301T000000Z\r\nRRULE:FREQ=MINUTELY\r\nEND:VEVENT\r\n".utf8)
        }
        body += Array("BEGIN:VEVENT\r\nUID:good\r\nSUMMARY:Weekly\r\nDTSTART:20250303T090000Z\r\nRRULE:FREQ=WEEKLY\r\nEND:VEVENT\r\n".utf8)
        let loaded = try CalendarLoader(window: march, threads: threads, rowBudget: 100_000)
            .load(wrap(body), path: "test.ics", defaultName: "test", source: ".")
        let perSeries = Dictionary(grouping: loaded.occurrences, by: \.uid).mapValues(\.count)
        // March has 31 days: 32 rows a series without the budget. A minute
        // rule from 01:00 on March 1 (Berlin) has 44,520 in the month (the
        // first hour is before it, March 30 has 23 hours). 100,000 more rows:
        // two whole series, and the third gets what is left.
        let whole = 44_520
        #expect(perSeries["m0"] == whole)
        #expect(perSeries["m1"] == whole)
        #expect(perSeries["m2"] == 32 + (100_000 - 2 * (whole - 32)))
        for i in 3..<12 { #expect(perSeries["m\(i)"] == 32) }
        #expect(perSeries["good"] == 5)
        #expect(loaded.diagnostics.count == 10)
        #expect(loaded.diagnostics.allSatisfy { $0.description.contains("the file's budget of 100000 rows beyond one a day is spent") })
    }

    @Test func nulBytesAreDroppedWithOneWarning() throws {
        let loaded = try loadBytes(wrap(
            event("a", Array("Good".utf8), day: 3) + event("n", Array("Nu\u{0}ll\u{0}".utf8), day: 4)
                + event("b", Array("Also \u{0}good".utf8), day: 5)))
        #expect(titles(loaded) == ["a": "Good", "n": "Null", "b": "Also good"])
        #expect(loaded.diagnostics.map(\.description) == [
            "test.ics:10: SUMMARY: NUL bytes or control characters in the text; removed (here and anywhere else in this file)"
        ])
    }

    @Test func latin1LinesAreReadAsWindows1252AndUTF8LinesAsTheyAre() throws {
        let loaded = try loadBytes(wrap(
            event("u", Array("Köln".utf8), day: 3) + event("l", [0x4B, 0xF6, 0x6C, 0x6E, 0x20, 0x80], day: 4)))
        #expect(titles(loaded) == ["u": "Köln", "l": "Köln €"])
        #expect(loaded.diagnostics.count == 1)
        #expect(loaded.diagnostics.first?.description.hasPrefix("test.ics:10: SUMMARY: text is not UTF-8") == true)
    }

    @Test func aFoldInsideAUTF8SequenceIsJoined() throws {
        // "ü" is C3 BC; the fold falls between the two bytes.
        let loaded = try loadBytes(wrap(event("f", [0x47, 0x72, 0xC3, 0x0D, 0x0A, 0x20, 0xBC, 0x6E], day: 4)
            + event("g", Array("Next".utf8), day: 5)))
        #expect(titles(loaded) == ["f": "Grün", "g": "Next"])
        #expect(loaded.diagnostics.isEmpty)
    }

    @Test func lineFeedsOnlyAndAByteOrderMark() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nSUMMARY:LF\n  only\nDTSTART:20250304T100000Z\nEND:VEVENT\nEND:VCALENDAR\n"
        for bytes in [Array(text.utf8), [0xEF, 0xBB, 0xBF] + Array(text.utf8)] {
            let loaded = try loadBytes(bytes)
            #expect(titles(loaded) == ["a": "LF only"])
            #expect(loaded.diagnostics.isEmpty)
        }
    }

    /// A byte-order mark with control characters before or inside it, at
    /// the start of a BEGIN line: the framing and libical both read the
    /// line as BEGIN (libical used to see an unknown property, then an END
    /// without its BEGIN, and lost the event).
    @Test(arguments: [[0xEF, 0xBB, 0x0B, 0x00, 0xBF], [0x00, 0xEF, 0xBB, 0xBF], [0xEF, 0x01, 0xBB, 0xBF]] as [[UInt8]])
    func aByteOrderMarkBrokenByControlCharactersStillStartsALine(_ mark: [UInt8]) throws {
        let loaded = try loadBytes(text(["BEGIN:VCALENDAR"]) + event("a", Array("First".utf8), day: 3) + mark
            + event("b", Array("Second".utf8), day: 4) + text(["END:VCALENDAR"]))
        #expect(titles(loaded) == ["a": "First", "b": "Second"])
        #expect(loaded.diagnostics.map(\.message) == ["BEGIN: NUL bytes or control characters in the text; removed (here and anywhere else in this file)"])
    }

    /// A year mistyped thousands of years ahead: the zone's yearly rules
    /// give its offset (summer time in July), read as for the same day 400·k
    /// years earlier, instead of libical expanding the rules year by year up
    /// to it (a second a zone; found by the fuzzer).
    @Test func aTimeThousandsOfYearsAheadTakesItsZonesRules() throws {
        let window = AgendaWindow.days(365, from: CivilDate(iso: "4050-01-01")!, clock: berlinClock)
        let loaded = try load("""
            BEGIN:VTIMEZONE
            TZID:Custom/Pacific
            BEGIN:STANDARD
            DTSTART:19671029T020000
            RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
            TZOFFSETFROM:-0700
            TZOFFSETTO:-0800
            END:STANDARD
            BEGIN:DAYLIGHT
            DTSTART:19870405T020000
            RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=4
            TZOFFSETFROM:-0800
            TZOFFSETTO:-0700
            END:DAYLIGHT
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:summer
            DTSTART;TZID=Custom/Pacific:40500715T100000
            END:VEVENT
            BEGIN:VEVENT
            UID:winter
            DTSTART;TZID=Custom/Pacific:40501215T100000
            END:VEVENT
            BEGIN:VEVENT
            UID:berlin
            DTSTART;TZID=Europe/Berlin:40500715T100000
            END:VEVENT

            """, window: window)
        let utc = ISOTime(clock: ZoneClock(TimeZone(identifier: "UTC")!))
        let starts = Dictionary(uniqueKeysWithValues: loaded.occurrences.map { ($0.uid,
            $0.start.map(utc.string) ?? "") })
        #expect(starts == ["summer": "4050-07-15T17:00:00+00:00", "winter": "4050-12-15T18:00:00+00:00",
            "berlin": "4050-07-15T08:00:00+00:00"])
    }

    @Test func utf16WithoutAByteOrderMarkIsRead() throws {
        let text = String(decoding: wrap(event("a", Array("Grüße".utf8), day: 4)), as: UTF8.self)
        for data in [text.data(using: .utf16LittleEndian)!, text.data(using: .utf16BigEndian)!] {
            #expect(titles(try loadBytes(Array(data))) == ["a": "Grüße"])
        }
    }

    /// Found by fuzzing: a UTF-16 byte-order mark before invalid UTF-16 made the loader call itself forever.
    @Test func invalidUTF16IsNotICalendarAndEnds() throws {
        #expect(throws: NotICalendar.self) {
            try loadBytes([0xFE, 0xFF, 0xFF, 0xFD, 0xDF, 0x19, 0xFF, 0xFF, 0x59, 0x68, 0x74, 0x6D, 0x7C, 0xFE])
        }
    }

    // MARK: Framing

    func text(_ lines: [String]) -> [UInt8] { Array((lines.joined(separator: "\r\n") + "\r\n").utf8) }

    @Test func missingENDLinesAreAddedWhereTheNextComponentStarts() throws {
        let loaded = try loadBytes(text([
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "DTSTART:20250303T100000Z",
            "BEGIN:VEVENT", "UID:b", "DTSTART:20250304T100000Z", "END:VEVENT",
            "BEGIN:VTODO", "UID:t", "DUE;VALUE=DATE:20250305",
            "BEGIN:VEVENT", "UID:c", "DTSTART:20250306T100000Z", "END:VEVENT", "END:VCALENDAR",
        ]))
        #expect(Set(loaded.occurrences.map(\.uid)) == ["a", "b", "t", "c"])
        #expect(loaded.diagnostics.map(\.description) == [
            "test.ics:2: VEVENT is not closed (missing END:VEVENT); read up to where it stops",
            "test.ics:9: VTODO is not closed (missing END:VTODO); read up to where it stops",
        ])
    }

    @Test func anInnerComponentWithoutENDDoesNotCostItsEvent() throws {
        let loaded = try loadBytes(text([
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "SUMMARY:Alarm left open", "DTSTART:20250303T100000Z",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "END:VEVENT",
            "BEGIN:VEVENT", "UID:b", "DTSTART:20250304T100000Z", "END:VALARM", "END:X-NONE", "END:VEVENT",
                "END:VCALENDAR",
        ]))
        #expect(titles(loaded) == ["a": "Alarm left open", "b": ""])
        #expect(loaded.diagnostics.map(\.description) == [
            "test.ics:2: VEVENT holds a component that is not closed (missing END:VALARM); closed with the component around it",
            "test.ics:13: VEVENT: END:VALARM without a BEGIN:VALARM; ignored (and 1 more END line without a BEGIN in this component)",
        ])
    }

    /// libical trims blanks from a property name, so `END :x` closes the
    /// component it is in (as `END;x` without a colon does)
    /// and `BEGIN :VALARM` opens one: framing must read
    /// them the same way, or the rest of the event is lost (found by fuzzing).
    @Test func beginAndEndWithABlankBeforeTheColonAreFramedAsLibicalReadsThem() throws {
        let loaded = try loadBytes(text([
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "DTSTART:20250303T100000Z", "END :MAILTO:nobody@nowhere",
            "SUMMARY:Kept", "LOCATION:Room 1", "END:VEVENT",
            "BEGIN:VEVENT", "UID:b", "DTSTART:20250304T100000Z", "SUMMARY:Alarm", "BEGIN\t:VALARM", "ACTION:DISPLAY",
            "TRIGGER:-PT1H", "END:VALARM", "END \t;X-A=1:VEVENT",
            // Without a colon libical still reads BEGIN and END, the name after the ';'.
            "BEGIN:VEVENT", "UID:c", "DTSTART:20250305T100000Z", "END;STANDARD", "SUMMARY:No colon",
            "BEGIN;VALARM", "ACTION:DISPLAY", "TRIGGER:-PT1H", "END;VALARM", "END:VEVENT", "END:VCALENDAR",
        ]))
        #expect(titles(loaded) == ["a": "Kept", "b": "Alarm", "c": "No colon"])
        #expect(loaded.occurrences.first { $0.uid == "a" }?.location == "Room 1")
        #expect(loaded.diagnostics.map(\.description) == [
            "test.ics:5: VEVENT: END:MAILTO:NOBODY@NOWHERE without a BEGIN:MAILTO:NOBODY@NOWHERE; ignored",
            "test.ics:21: VEVENT: END:STANDARD without a BEGIN:STANDARD; ignored",
        ])
    }

    /// A warning that quotes a title or value with line breaks is still one
    /// line (found by fuzzing: grep and cron mail read warnings line by line).
    @Test func aWarningIsOneLineWhateverItQuotes() throws {
        let loaded = try loadBytes(text([
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "SUMMARY:Two\\nlines", "DTSTART:20250303T100000Z",
            "DTEND:nonsense", "END:VEVENT", "END:VCALENDAR",
        ]))
        #expect(titles(loaded) == ["a": "Two\nlines"])
        let warnings = loaded.diagnostics.map(\.description)
        #expect(!warnings.isEmpty)
        #expect(warnings.allSatisfy { !$0.contains("\n") })
        #expect(warnings.contains { $0.contains("VEVENT \"Two\\nlines\"") })
    }

    @Test func componentsNestedTooDeepAreLeftOut() throws {
        let depth = 100_000
        var lines = ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:deep", "SUMMARY:Deep", "DTSTART:20250303T100000Z"]
        lines += Array(repeating: "BEGIN:X-LEVEL", count: depth) + Array(repeating: "END:X-LEVEL", count: depth)
        lines += ["END:VEVENT", "BEGIN:VEVENT", "UID:next", "DTSTART:20250304T100000Z", "END:VEVENT", "END:VCALENDAR"]
        let loaded = try loadBytes(text(lines))
        #expect(titles(loaded) == ["deep": "Deep", "next": ""])
        #expect(loaded.diagnostics.map(\.description) == ["test.ics:37: VEVENT: components nested more than 32 deep (BEGIN:X-LEVEL); left out"])
    }

    /// A line of several megabytes, generated here rather than committed.
    @Test func linesOfMegabytesAreReadQuickly() throws {
        let size = 6 << 20
        let long = String(repeating: "x", count: size)
        let bytes = text([
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "DTSTART:20250303T100000Z", "DESCRIPTION:" + long, "END:VEVENT",
            "BEGIN:VEVENT", "UID:junk", "DTSTART:20250304T100000Z", long, "END:VEVENT",
            "BEGIN:VEVENT", "UID:c", "DTSTART:20250305T100000Z", "END:VEVENT", "END:VCALENDAR",
        ])
        var loaded: LoadedCalendar? = nil
        let took = try cpuTime { loaded = try loadBytes(bytes) }
        let calendar = try #require(loaded)
        #expect(Set(calendar.occurrences.map(\.uid)) == ["a", "junk", "c"])
        #expect(calendar.occurrences.first { $0.uid == "a" }?.description?.count == size)
        // The junk line is named, but not quoted whole.
        #expect(calendar.diagnostics.count == 1)
        #expect(calendar.diagnostics.allSatisfy { $0.message.count < 300 })
        #expect(took < .seconds(3), "took \(took)")
    }

    // MARK: Bounded recurrence

    /// Rules that would make absurd amounts of work: each finishes quickly,
    /// the good events beside it are listed, and a warning says what was cut.
    @Test(arguments: [
        ("FREQ=SECONDLY", "only the first 100000 are listed"),
        ("FREQ=MINUTELY;BYSECOND=0,20,40", "only the first 100000 are listed"),
        ("FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30", "matches no date"),
        ("FREQ=MINUTELY;BYMONTH=4;BYMONTHDAY=31", "matches no date"),
        ("FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30", "matches no date"),
        ("FREQ=HOURLY;BYDAY=1MO", "matches no date"),
        ("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", "matches no date"),
        ("FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30", "matches no date"),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "libical cannot expand"),
        ("FREQ=SECONDLY;BYDAY=MO", "the rule is not expanded"),
        ("FREQ=SECONDLY;INTERVAL=120;BYMINUTE=1", "the rule is not expanded"),
        ("FREQ=SECONDLY;BYMONTH=12", "the rule is not expanded"),
        ("FREQ=DAILY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;BYMINUTE=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59;BYMONTH=2;BYMONTHDAY=29", "not expanded"),
        ("FREQ=MINUTELY;BYHOUR=9;COUNT=2000000000", ""),
    ])
    func absurdRecurrenceFinishesQuickly(_ rule: String, _ warning: String) throws {
        let start = rule.contains("COUNT") ? "19000101T090000Z" : "20250301T000000Z"
        let bytes = text([
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:good1", "DTSTART:20250303T100000Z", "END:VEVENT",
            "BEGIN:VEVENT", "UID:absurd", "DTSTART:\(start)", "RRULE:\(rule)", "END:VEVENT",
            "BEGIN:VEVENT", "UID:good2", "DTSTART:20250304T100000Z", "END:VEVENT", "END:VCALENDAR",
        ])
        var loaded: LoadedCalendar? = nil
        let took = try cpuTime { loaded = try loadBytes(bytes) }
        let calendar = try #require(loaded)
        #expect(Set(calendar.occurrences.map(\.uid)).isSuperset(of: ["good1", "good2"]))
        // A guard against hangs, not a speed test (the benchmark measures
        // speed): the bounds are counts, so this holds on any machine.
        #expect(took < .seconds(30), "\(rule) took \(took)")
        let warnings = calendar.diagnostics.map(\.description)
        if warning.isEmpty {
            // Cut by a count (steps, occurrences or candidates), with one warning.
            #expect(warnings.count == 1 && warnings.allSatisfy { $0.hasPrefix("test.ics:9: RRULE: ") }, "\(warnings)")
        } else {
            #expect(warnings.count == 1 && warnings[0].hasPrefix("test.ics:9: RRULE: ")
                && warnings[0].contains(warning), "\(warnings)")
        }
    }

    /// A plain rule with a COUNT of billions from 1900 is not walked from
    /// 1900: it restarts near the window with the COUNT reduced, and lists
    /// exactly what it should.
    @Test func countOfBillionsFrom1900RestartsNearTheWindow() throws {
        let oneDay = AgendaWindow.days(1, from: CivilDate(iso: "2025-03-03")!, clock: berlinClock)
        let loaded = try CalendarLoader(window: oneDay).load(text([
            "BEGIN:VCALENDAR",
            "BEGIN:VEVENT", "UID:minutely", "DTSTART:19000101T000000Z", "RRULE:FREQ=MINUTELY;COUNT=2000000000",
                "END:VEVENT",
            "BEGIN:VEVENT", "UID:ended", "DTSTART:19000101T000000Z", "RRULE:FREQ=SECONDLY;COUNT=2000000000",
                "END:VEVENT",
            "BEGIN:VEVENT", "UID:short", "DTSTART:20250302T230000Z", "RRULE:FREQ=HOURLY;COUNT=3", "END:VEVENT",
            "END:VCALENDAR",
        ]), path: "test.ics", defaultName: "test", source: ".")
        #expect(loaded.diagnostics.isEmpty)
        let iso = ISOTime(clock: berlinClock)
        let minutely = loaded.occurrences.filter { $0.uid == "minutely" }.compactMap { $0.start }
            .filter { $0.instant(in: berlinClock) >= oneDay.start }
            .map(iso.string).sorted()
        #expect(minutely.count == 1440)
        #expect(minutely.first == "2025-03-03T00:00:00+01:00")
        #expect(!loaded.occurrences.contains { $0.uid == "ended"
            && $0.start.map { $0.instant(in: berlinClock) >= oneDay.start } == true })
        #expect(loaded.occurrences.filter { $0.uid == "short" }.count == 3)
    }

    // MARK: Bad values

    @Test(arguments: [
        ("FREQ=FORTNIGHTLY;COUNT=3", "FREQ=FORTNIGHTLY is not valid"),
            ("FREQ=WEEKLY;BYDAY=MO,XX", "BYDAY=MO,XX is not valid"),
        ("FREQ=DAILY;UNTIL=soon", "UNTIL=soon is not valid"), ("FREQ=DAILY;COUNT=-3", "COUNT=-3 is not valid"),
        ("FREQ=DAILY;BYMONTHDAY=40", "BYMONTHDAY=40 is not valid"), ("COUNT=3", "it has no FREQ"),
        ("FREQ=DAILY;UNTIL=20250401T000000Z;COUNT=3", "both UNTIL and COUNT"),
    ])
    func aBadRulePartIsNamedAndTheEventKeptAtItsStart(_ rule: String, _ why: String) throws {
        let loaded = try loadBytes(text([
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:good", "DTSTART:20250303T100000Z", "END:VEVENT",
            "BEGIN:VEVENT", "UID:bad", "DTSTART:20250304T100000Z", "RRULE:FREQ=DAILY;COUNT=2", "RRULE:\(rule)",
                "END:VEVENT", "END:VCALENDAR",
        ]))
        // The good rule of the same event still counts.
        #expect(starts(loaded) == ["2025-03-03T11:00:00+01:00", "2025-03-04T11:00:00+01:00",
            "2025-03-05T11:00:00+01:00"])
        #expect(loaded.diagnostics.count == 1)
        let warning = try #require(loaded.diagnostics.first).description
        #expect(warning.hasPrefix("test.ics:10: RRULE: ") && warning.contains(why)
            && warning.contains("the rule is ignored"), "\(warning)")
    }

    @Test func anUnreadableRecurrenceIDDoesNotReplaceItsSeries() throws {
        let loaded = try loadBytes(text([
            "BEGIN:VCALENDAR",
            "BEGIN:VEVENT", "UID:s", "SUMMARY:Series", "DTSTART:20250303T100000Z", "RRULE:FREQ=DAILY;COUNT=3",
                "END:VEVENT",
            "BEGIN:VEVENT", "UID:s", "SUMMARY:Moved", "SEQUENCE:4", "RECURRENCE-ID:2025030", "DTSTART:20250304T150000Z",
                "END:VEVENT",
            "BEGIN:VEVENT", "UID:s", "SUMMARY:Moved too", "SEQUENCE:4", "RECURRENCE-ID:20250231T100000Z",
                "DTSTART:20250304T160000Z", "END:VEVENT",
            "END:VCALENDAR",
        ]))
        #expect(loaded.occurrences.map(\.title) == ["Series", "Series", "Series"])
        #expect(loaded.diagnostics.count == 2)
        #expect(loaded.diagnostics.allSatisfy { $0.message.hasPrefix("RECURRENCE-ID: cannot read")
            && $0.message.hasSuffix("so it is skipped") })
    }

    /// Blank lines between a line and its folded continuation (an old
    /// Mozilla export writes every property so) are left out, so the fold
    /// joins the line before them; lines after them keep their numbers.
    @Test(arguments: ["\r\n", "\n"])
    func blankLinesInsideAFoldAreLeftOut(newline: String) throws {
        let body = ["BEGIN:VEVENT", "UID", "", " :folded", "SUMMARY", "", "", " :Folded", "DTSTART", "",
            " :20250303T100000Z", "END:VEVENT",
            "", "BEGIN:VEVENT", "UID:next", "SUMMARY:Next", "", "DTSTART:20250304T100000Z", "DTEND:20251304T100000Z",
                "END:VEVENT"]
        let loaded = try loadBytes(wrap(Array((body.joined(separator: newline) + newline).utf8)))
        #expect(titles(loaded) == ["folded": "Folded", "next": "Next"])
        #expect(loaded.diagnostics.map(\.description).count == 1)
        #expect(loaded.diagnostics.first?.description.hasPrefix("test.ics:21: DTEND") == true)
    }
}
