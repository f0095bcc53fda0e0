import AgendaCore
import Foundation
import Testing

/// A template's strftime formats: each conversion as C's strftime writes it
/// for the same wall-clock time, in the locale's words; a conversion it does
/// not know, or a `%` at the end, refused with the placeholder named.
@Suite struct TimeFormatTests {
    static let wall = Date(timeIntervalSince1970: 1_735_787_096)  // 2025-01-02T03:04:56, a Thursday

    static func written(_ format: String, offset: Int? = 3600, locale: String = "en_US") throws -> String {
        let formats = LocaleFormats(localeIdentifier: locale, clock: berlin)
        return try TimeFormat(format, placeholder: "start").string(wall: wall, offset: offset, formats: formats)
    }

    @Test(arguments: [
        ("%Y-%m-%d %H:%M:%S", "2025-01-02 03:04:56"), ("%F %T", "2025-01-02 03:04:56"), ("%R", "03:04"),
        ("%D", "01/02/25"), ("%e|%d", " 2|02"), ("%I %p", "03 AM"), ("%r", "03:04:56 AM"), ("%j", "002"),
        ("%u %w", "4 4"), ("%y %C", "25 20"), ("%V %G %g", "01 2025 25"), ("%a %A", "Thu Thursday"),
        ("%b %B %h", "Jan January Jan"), ("%z", "+0100"), ("100%%", "100%"), ("%t|%n", "\t|\n"),
        ("%s", "1735783496"),
    ])
    func conversionsWriteWhatStrftimeWrites(_ format: String, _ expected: String) throws {
        #expect(try TimeFormatTests.written(format) == expected)
    }

    @Test func wordsAreTheLocalesAndAFloatingTimeHasNoOffset() throws {
        #expect(try TimeFormatTests.written("%A %B", locale: "de_DE") == "Donnerstag Januar")
        #expect(try TimeFormatTests.written("%H:%M%z", offset: nil) == "03:04")
        // ISO weeks: 2024-12-30 is in week 1 of 2025.
        let formats = LocaleFormats(localeIdentifier: "en_US", clock: berlin)
        let monday = Date(timeIntervalSince1970: 1_735_516_800)
        #expect(try TimeFormat("%G-W%V-%u", placeholder: "start").string(wall: monday, offset: nil, formats: formats)
            == "2025-W01-1")
    }

    /// `%c %x %X` in the locale's own styles, the same each time a formatter is reused.
    @Test func stylesAreTheLocales() throws {
        for _ in 0..<2 {
            #expect(try TimeFormatTests.written("%c|%x|%X") == "Jan 2, 2025 at 3:04 AM|1/2/25|3:04:56 AM")
            #expect(try TimeFormatTests.written("%c|%x|%X", locale: "de_DE") == "02.01.2025, 03:04|02.01.25|03:04:56")
        }
        let formats = LocaleFormats(localeIdentifier: "de_DE", clock: berlin)
        let format = try TimeFormat("%x %X", placeholder: "start")
        let later = TimeFormatTests.wall + 86_400 + 3600
        #expect(format.string(wall: TimeFormatTests.wall, offset: nil, formats: formats) == "02.01.25 03:04:56")
        #expect(format.string(wall: later, offset: nil, formats: formats) == "03.01.25 04:04:56")
    }

    @Test(arguments: [("%Q", "no strftime conversion %Q"), ("%H:%", "a % at its end"), ("%E", "no strftime conversion %E")])
    func aFormatItCannotReadIsRefused(_ format: String, _ why: String) {
        #expect {
            _ = try TimeFormat(format, placeholder: "end")
        } throws: { error in
            "\(error)".hasPrefix("{end:\(format)}: \(why)")
        }
    }
}
