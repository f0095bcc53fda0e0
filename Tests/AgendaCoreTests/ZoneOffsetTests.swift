import AgendaCore
import Foundation
import Testing

/// The display zone's offsets come from a table built once; they must be
/// the zone's own, at every instant, including the changes themselves.
@Suite struct ZoneOffsetTests {
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Pacific/Auckland", "Australia/Lord_Howe",
        "Asia/Kolkata", "America/Sao_Paulo", "Africa/Casablanca", "Pacific/Apia", "UTC"])
    func offsetsAreTheZonesOwn(identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        let clock = ZoneClock(zone)
        // Every change from 1900 to 2100, a second either side and on it.
        var t = Date(timeIntervalSince1970: -2_208_988_800)
        var changes = 0
        while let next = zone.nextDaylightSavingTimeTransition(after: t), next.timeIntervalSince1970 < 4_102_444_800 {
            for instant in [next - 1, next, next + 1] {
                #expect(clock.offset(at: instant) == zone.secondsFromGMT(for: instant), "\(identifier) at \(instant)")
            }
            changes += 1
            t = next
        }
        // And a spread of ordinary instants, outside the table's span too.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let instant = Date(timeIntervalSince1970: Double(Int64.random(in: -3_000_000_000...5_000_000_000,
                using: &generator)))
            #expect(clock.offset(at: instant) == zone.secondsFromGMT(for: instant), "\(identifier) at \(instant)")
        }
        if identifier != "UTC" && identifier != "Asia/Kolkata" { #expect(changes > 10) }
    }
}
