import AgendaCore
import Foundation
@testable import ICalAdapter
import Testing

/// What a file's VTIMEZONEs may cost: a bounded number of distinct zones,
/// and a definition repeated as it was is not read again.
@Suite struct ZoneCountTests {
    static func tinyZone(_ n: Int) -> String {
        "BEGIN:VTIMEZONE\nTZID:Z-\(n)\nBEGIN:STANDARD\nDTSTART:19700101T000000\nTZOFFSETFROM:+0300\nTZOFFSETTO:+0300\nEND:STANDARD\nEND:VTIMEZONE\n"
    }

    @Test func zonesPastTheLimitAreIgnoredWithOneWarning() throws {
        let zones = (0...ZoneTable.maxZones).map(ZoneCountTests.tinyZone).joined()
        let events = """
            BEGIN:VEVENT
            UID:first
            DTSTART;TZID=Z-0:20250303T090000
            SUMMARY:In the first zone
            END:VEVENT
            BEGIN:VEVENT
            UID:last
            DTSTART;TZID=Z-\(ZoneTable.maxZones):20250303T090000
            SUMMARY:In the zone past the limit
            END:VEVENT

            """
        let loaded = try load(zones + events)
        #expect(starts(loaded) == ["2025-03-03T07:00:00+01:00", "2025-03-03T09:00:00+01:00"])
        let words = loaded.diagnostics.map(\.message)
        #expect(words.filter { $0.contains("more than \(ZoneTable.maxZones) time zones") }.count == 1)
        #expect(words.contains { $0.contains("unknown time zone \"Z-\(ZoneTable.maxZones)\"") })
    }

    @Test func aZoneRepeatedBeforeEveryEventIsReadOnce() throws {
        let body = (0..<50).map { n in
            ZoneCountTests.tinyZone(1)
                + "BEGIN:VEVENT\nUID:e\(n)\nDTSTART;TZID=Z-1:202503\(String(format: "%02d", n % 28 + 1))T090000\nSUMMARY:e\nEND:VEVENT\n"
        }.joined()
        let loaded = try load(body)
        #expect(loaded.occurrences.count == 50)
        #expect(starts(loaded).allSatisfy { $0.hasSuffix("T07:00:00+01:00") })
        #expect(loaded.diagnostics.isEmpty)
    }
}
