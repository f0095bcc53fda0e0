import AgendaCore
import Foundation
import Testing

/// What reaches a terminal or a line-based consumer from outside: names and
/// values are escaped, `--now` offsets are real ones, every shipped
/// language has its row words.
@Suite struct HostileTextTests {
    @Test(arguments: [("a\nb", "a\\nb"), ("esc\u{1B}[31m", "esc\\x1B[31m"), ("csi\u{9B}2J", "csi\\x9B2J"),
        ("tab\tok", "tab\tok"),
        ("del\u{7F}", "del\\x7F"), ("plain é 日本", "plain é 日本"), ("cr\r", "cr\\r")])
    func controlCharactersAreEscaped(text: String, shown: String) {
        #expect(PrintableText.escaped(text) == shown)
        #expect(CalendarInfo(name: text, source: text, path: text).name == shown)
    }

    @Test(arguments: [[0x62, 0x61, 0x64, 0xFF, 0x2E, 0x69, 0x63, 0x73], [0xC3, 0x28], [0xE2, 0x82],
        [0x61, 0xC3, 0xA9, 0x80, 0x62]])
    func fileNameBytesSurviveAndPrintEscaped(bytes: [UInt8]) {
        let name = PrintableText.decodingFileSystemBytes(bytes)
        #expect(PrintableText.fileSystemBytes(name) == bytes)
        let shown = PrintableText.escaped(name)
        #expect(shown.contains("\\x"))
        #expect(shown.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F || $0.value > 0xFF
            && $0.value < 0x10000 || $0 == "é" })
    }

    @Test func utf8NamesAreUnchanged() {
        let bytes = Array("Kalender-Ä-日本.ics".utf8)
        #expect(PrintableText.decodingFileSystemBytes(bytes) == "Kalender-Ä-日本.ics")
        #expect(PrintableText.fileSystemBytes("Kalender-Ä-日本.ics") == bytes)
    }

    @Test(arguments: ["2025-03-01T08:00:00+25:00", "2025-03-01T08:00:00-18:01", "2025-03-01T08:00:00+01:60",
        "2025-03-01T08:00:00+1",
        "2025-03-01T08:00:00+0100:", "2025-03-01T08:00:00+01:00:00", "2025-03-01T8:00:00Z", "2025-03-01T08:00:nanZ",
        "+025-03-01T08:00:00Z", "2025-03-01T08:00:00+9999"])
    func impossibleClockReadingsAreRefused(text: String) {
        #expect(throws: ClockReading.Invalid.self) { try ClockReading.parse(text,
            zone: ZoneClock(TimeZone(identifier: "UTC")!)) }
    }

    @Test(arguments: [("2025-03-01T08:00:00+18:00", -18 * 3600), ("2025-03-01T08:00:00-18:00", 18 * 3600),
        ("2025-03-01T08:00:00+0530", -(5 * 3600 + 1800)), ("2025-03-01T08:00:00-03", 3 * 3600),
            ("2025-03-01T08:00:00Z", 0)])
    func realOffsetsAreRead(text: String, shift: Int) throws {
        let date = try ClockReading.parse(text, zone: ZoneClock(TimeZone(identifier: "UTC")!))
        #expect(date == CivilDate(year: 2025, month: 3, day: 1).midnightUTC + TimeInterval(8 * 3600 + shift))
    }

    @Test(arguments: [Int.max, Int.max - 1, Int.min, 3_652_426])
    func aWindowOfAnyLengthDoesNotOverflow(days: Int) {
        let window = AgendaWindow.days(days, from: CivilDate(year: 2025, month: 3, day: 1),
            clock: ZoneClock(TimeZone(identifier: "UTC")!))
        #expect(window.endDay.daysSinceEpoch - window.firstDay.daysSinceEpoch <= AgendaWindow.maxDays)
    }

    @Test(arguments: ["+9999999d", "-1000000d", "+-1d", "+ 1d", "2025-3-01", "+2025-01-01"])
    func dayExpressionsOutOfRangeAreRefused(text: String) {
        #expect(throws: DayExpression.Invalid.self) { try DayExpression.resolve(text,
            today: CivilDate(year: 2025, month: 3, day: 1)) }
    }

    @Test(arguments: ["de", "fr", "es", "it", "nl", "pt", "ja", "zh", "ru", "ar", "fa", "th", "sv", "pl"])
    func shippedLanguagesHaveTheirOwnWords(language: String) {
        let words = RowWords.forLanguage(language)
        let english = RowWords.english
        #expect(words.allDay != english.allDay && words.overdue != english.overdue && words.noDate != english.noDate)
        #expect(words.until("9:00").contains("9:00") && words.due("9:00").contains("9:00"))
        #expect(words.dayOf(2, 3).contains("2") && words.dayOf(2, 3).contains("3"))
        #expect(words.overdueNote("X").contains("X"))
        let formats = LocaleFormats(localeIdentifier: language, clock: ZoneClock(TimeZone(identifier: "UTC")!))
        #expect(formats.words == words)
    }

    @Test func unknownLanguagesAreEnglish() {
        #expect(RowWords.forLanguage("tlh") == RowWords.english)
        #expect(LocaleFormats(localeIdentifier: "xx_YY", clock: ZoneClock(TimeZone(identifier: "UTC")!))
            .words == RowWords.english)
    }

    @Test(arguments: [("ar_SA", Calendar.Identifier.gregorian), ("fa_IR", .gregorian), ("th_TH", .gregorian),
        ("th_TH@calendar=gregorian", .gregorian), ("th_TH@calendar=buddhist", .buddhist),
            ("fa_IR@calendar=persian", .persian)])
    func datesAreGregorianUnlessTheLocaleNamesACalendar(id: String, calendar: Calendar.Identifier) {
        let formats = LocaleFormats(localeIdentifier: id, clock: ZoneClock(TimeZone(identifier: "UTC")!))
        #expect(formats.calendar.identifier == calendar)
        #expect((formats.monthGrouping == .month) == (calendar == .gregorian))
    }

    @Test func monthsOfTheLocalesCalendarStartOnItsFirstDays() throws {
        var persian = Calendar(identifier: .persian)
        persian.timeZone = TimeZone(identifier: "UTC")!
        // Esfand 1403 runs from 2025-02-19 to 2025-03-20, Farvardin 1404 starts 2025-03-21.
        let grouping = SectionGrouping.calendarMonth(persian)
        let days = [CivilDate(year: 2025, month: 2, day: 19), CivilDate(year: 2025, month: 3, day: 20),
            CivilDate(year: 2025, month: 3, day: 21)]
        let periods = days.map(grouping.period(of:))
        #expect(periods[0] == .calendarMonth(firstDay: days[0]))
        #expect(periods[1] == .calendarMonth(firstDay: days[0]))
        #expect(periods[2] == .calendarMonth(firstDay: days[2]))
    }

    @Test(arguments: [("th_TH.UTF-8@calendar=buddhist", "th_TH@calendar=buddhist"), ("de_DE.UTF-8@euro", "de_DE"),
        ("fa-IR@calendar=Persian", "fa_IR@calendar=persian"), ("C", nil), ("en_US@currency=EUR", "en_US")])
    func localeKeepsOnlyTheCalendarKeyword(value: String, id: String?) {
        #expect(LocaleChoice.identifier(explicit: value, environment: [:]) == (id ?? "en_US"))
    }
}
