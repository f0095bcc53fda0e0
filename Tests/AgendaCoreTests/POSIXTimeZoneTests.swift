import AgendaCore
import Foundation
import Testing

/// POSIX TZ strings as the display zone: the sign is POSIX's (west of UTC
/// is positive), and rules give the same offsets as the IANA zone that
/// follows them, in both hemispheres, with half hours and negative times.
@Suite struct POSIXTimeZoneTests {
    @Test(arguments: [
        ("CET-1CEST,M3.5.0,M10.5.0/3", "Europe/Berlin"),
        ("EST5EDT,M3.2.0,M11.1.0", "America/New_York"),
        ("EST5EDT", "America/New_York"),  // no rules: the US rules, as glibc reads it
        ("AEST-10AEDT,M10.1.0,M4.1.0/3", "Australia/Sydney"),
        ("NZST-12NZDT,M9.5.0,M4.1.0/3", "Pacific/Auckland"),
        ("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", "Australia/Lord_Howe"),
        ("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", "America/Nuuk"),
    ])
    func rulesGiveTheZonesOffsets(rule: String, identifier: String) throws {
        let posix = try #require(POSIXTimeZone(rule))
        let zone = try #require(TimeZone(identifier: identifier))
        let clock = ZoneClock(posix: posix)
        // From 2025 (Nuuk's rules are those since 2024), every change a second either side and on it.
        var t = Date(timeIntervalSince1970: 1_735_689_600)
        var changes = 0
        while let next = zone.nextDaylightSavingTimeTransition(after: t), next.timeIntervalSince1970 < 2_114_380_800 {
            for instant in [next - 1, next, next + 1, next + 86400 * 40] {
                #expect(clock.offset(at: instant) == zone.secondsFromGMT(for: instant), "\(rule) at \(instant)")
            }
            changes += 1
            t = next
        }
        #expect(changes > 20)
    }

    @Test(arguments: [("UTC+3", -3 * 3600), ("UTC-3", 3 * 3600), ("GMT+5", -5 * 3600), ("JST-9", 9 * 3600),
        ("<+0530>-5:30", 5 * 3600 + 1800), ("UTC0", 0), ("ABC+12:45", -(12 * 3600 + 45 * 60))])
    func fixedOffsetsReadWestOfUTC(rule: String, east: Int) throws {
        let posix = try #require(POSIXTimeZone(rule))
        #expect(posix.standardOffset == east)
        #expect(posix.daylightOffset == nil)
        #expect(ZoneClock(posix: posix).offset(at: Date(timeIntervalSince1970: 1_740_000_000)) == east)
    }

    @Test func julianAndZeroBasedDays() throws {
        // J60 is March 1 in every year; 59 (zero-based) is February 29 in a leap year, else March 1.
        let julian = try #require(POSIXTimeZone("AAA0BBB,J60/0,J300/0"))
        let clock = ZoneClock(posix: julian)
        for year in [2023, 2024] {
            let march1 = CivilDate(year: year, month: 3, day: 1).midnightUTC
            #expect(clock.offset(at: march1 - 1) == 0)
            #expect(clock.offset(at: march1) == 3600)
        }
        let zeroBased = ZoneClock(posix: try #require(POSIXTimeZone("AAA0BBB,59/0,300/0")))
        #expect(zeroBased.offset(at: CivilDate(year: 2024, month: 2, day: 29).midnightUTC) == 3600)
        #expect(zeroBased.offset(at: CivilDate(year: 2024, month: 2, day: 29).midnightUTC - 1) == 0)
        #expect(zeroBased.offset(at: CivilDate(year: 2023, month: 3, day: 1).midnightUTC) == 3600)
        #expect(zeroBased.offset(at: CivilDate(year: 2023, month: 3, day: 1).midnightUTC - 1) == 0)
    }

    @Test(arguments: ["", "U", "UT+3", "UTC", "UTC+", "UTC+25", "UTC+3:60", "CET-1CEST,M13.5.0,M10.5.0",
        "CET-1CEST,M3.6.0,M10.5.0",
        "CET-1CEST,M3.5.7,M10.5.0", "CET-1CEST,M3.5.0", "CET-1CEST,J0,J100", "CET-1CEST,366,100",
            "CET-1CEST,M3.5.0/168,M10.5.0",
        "CET-1CEST,M3.5.0,M10.5.0 ", "<+03", "Europe/Berlin", "CET-1CEST;M3.5.0,M10.5.0"])
    func notATZString(text: String) {
        #expect(POSIXTimeZone(text) == nil, "\(text)")
    }
}
