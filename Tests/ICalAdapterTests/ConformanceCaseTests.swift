import AgendaCore
import Foundation
import ICalAdapter
import Testing

/// The subtle cases of docs/CONFORMANCE.md ("Where we are wrong"), one test
/// per reading, with the RFC 5545 section that decides it.
@Suite struct ConformanceCaseTests {
    let iso = ISOTime(clock: berlinClock)

    /// Start → end of every occurrence, as ISO text in Berlin, sorted.
    func spans(_ loaded: LoadedCalendar) -> [String] {
        loaded.occurrences.map { "\($0.start.map(iso.string) ?? "-") → \(($0.end ?? $0.due).map(iso.string) ?? "-")" }.sorted()
    }

    // MARK: W2: floating beside zoned

    @Test func floatingEndBesideZonedStartIsReadInTheStartsZone() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:w2a
            DTSTART;TZID=America/New_York:20250303T090000
            DTEND:20250303T100000
            END:VEVENT

            """)
        #expect(spans(loaded) == ["2025-03-03T15:00:00+01:00 → 2025-03-03T16:00:00+01:00"])
    }

    @Test func floatingStartBesideZonedEndIsReadInTheEndsZone() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:w2b
            DTSTART:20250304T180000
            DTEND;TZID=America/New_York:20250304T190000
            END:VEVENT

            """)
        #expect(spans(loaded) == ["2025-03-05T00:00:00+01:00 → 2025-03-05T01:00:00+01:00"])
        #expect(loaded.occurrences.first?.start?.kind == .instant)
    }

    @Test func floatingDueBesideUTCStart() throws {
        let loaded = try load("""
            BEGIN:VTODO
            UID:w2c
            DTSTART:20250305T080000Z
            DUE:20250305T100000
            END:VTODO

            """)
        #expect(loaded.occurrences.first?.due.map(iso.string) == "2025-03-05T11:00:00+01:00")
    }

    @Test func floatingExdateAndRecurrenceIDMatchAZonedSeries() throws {
        // The override comes first: matching must not depend on the order of the file.
        let loaded = try load("""
            BEGIN:VEVENT
            UID:w2d
            SUMMARY:Moved
            RECURRENCE-ID:20250312T110000
            DTSTART;TZID=Europe/Berlin:20250312T140000
            END:VEVENT
            BEGIN:VEVENT
            UID:w2d
            DTSTART;TZID=Europe/Berlin:20250310T110000
            RRULE:FREQ=DAILY;COUNT=3
            EXDATE:20250311T110000
            END:VEVENT

            """)
        #expect(starts(loaded) == ["2025-03-10T11:00:00+01:00", "2025-03-12T14:00:00+01:00"])
    }

    @Test func zonedExdateAndRecurrenceIDMatchAFloatingSeriesByTheirWallClock() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:w2e
            DTSTART:20250310T110000
            RRULE:FREQ=DAILY;COUNT=3
            EXDATE:20250311T110000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:w2e
            SUMMARY:Moved
            RECURRENCE-ID;TZID=America/New_York:20250312T110000
            DTSTART:20250312T150000
            END:VEVENT

            """)
        #expect(starts(loaded) == ["2025-03-10T11:00:00+01:00", "2025-03-12T15:00:00+01:00"])
    }

    // MARK: W4: Outlook's date-time RECURRENCE-ID and EXDATE on an all-day series

    @Test func dateTimeRecurrenceIDAndExdateNameTheirLocalDateInAnAllDaySeries() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:w4
            SUMMARY:Moved
            RECURRENCE-ID;TZID=America/New_York:20250318T000000
            DTSTART;VALUE=DATE:20250319
            END:VEVENT
            BEGIN:VEVENT
            UID:w4
            DTSTART;VALUE=DATE:20250304
            RRULE:FREQ=WEEKLY;COUNT=4
            EXDATE;TZID=Europe/Berlin:20250311T000000
            END:VEVENT

            """)
        #expect(starts(loaded) == ["2025-03-04", "2025-03-19", "2025-03-25"])
        #expect(loaded.occurrences.first { $0.title == "Moved" }?.recurrenceID?.kind == .instant)
    }
}
