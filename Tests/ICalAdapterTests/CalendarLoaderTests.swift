import AgendaCore
import Foundation
import ICalAdapter
import Testing

let berlinClock = ZoneClock(TimeZone(identifier: "Europe/Berlin")!)
let march = AgendaWindow.days(31, from: CivilDate(iso: "2025-03-01")!, clock: berlinClock)

func calendar(_ body: String) -> Data {
    Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + body.replacingOccurrences(of: "\n", with: "\r\n")
        + "END:VCALENDAR\r\n").utf8)
}

func load(_ body: String, window: AgendaWindow = march) throws -> LoadedCalendar {
    try CalendarLoader(window: window).load(calendar(body), path: "test.ics", defaultName: "test", source: ".")
}

/// Starts as ISO text in Berlin, sorted.
func starts(_ loaded: LoadedCalendar) -> [String] {
    let iso = ISOTime(clock: berlinClock)
    return loaded.occurrences.compactMap { $0.start.map(iso.string) }.sorted()
}

@Suite struct CalendarLoaderTests {
    @Test func readsTitleTimesAndCalendarName() throws {
        let loaded = try load("""
            X-WR-CALNAME:Team
            BEGIN:VEVENT
            UID:a
            SUMMARY:Lunch\\, with Bob
            LOCATION:Café
            DTSTART;TZID=Europe/Berlin:20250303T120000
            DTEND;TZID=Europe/Berlin:20250303T130000
            END:VEVENT

            """)
        #expect(loaded.calendar.name == "Team")
        let occurrence = try #require(loaded.occurrences.first)
        #expect(occurrence.title == "Lunch, with Bob")
        #expect(occurrence.location == "Café")
        #expect(starts(loaded) == ["2025-03-03T12:00:00+01:00"])
        #expect(occurrence.end.map(ISOTime(clock: berlinClock).string) == "2025-03-03T13:00:00+01:00")
        #expect(loaded.diagnostics.isEmpty)
    }

    @Test func overrideReplacesItsInstanceAndExdateRemovesOne() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:s
            SUMMARY:Daily
            DTSTART;TZID=Europe/Berlin:20250303T100000
            RRULE:FREQ=DAILY;COUNT=4
            EXDATE:20250305T090000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:s
            SUMMARY:Moved
            RECURRENCE-ID;TZID=Europe/Berlin:20250304T100000
            DTSTART;TZID=Europe/Berlin:20250304T150000
            END:VEVENT

            """)
        #expect(starts(loaded) == ["2025-03-03T10:00:00+01:00", "2025-03-04T15:00:00+01:00",
            "2025-03-06T10:00:00+01:00"])
        let moved = try #require(loaded.occurrences.first { $0.title == "Moved" })
        #expect(moved.recurrenceID.map(ISOTime(clock: berlinClock).string) == "2025-03-04T10:00:00+01:00")
    }

    @Test func dtstartIsAlwaysTheFirstInstance() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:m
            DTSTART:20250303T080000Z
            RRULE:FREQ=WEEKLY;BYDAY=TH;COUNT=1
            END:VEVENT

            """)
        #expect(starts(loaded) == ["2025-03-03T09:00:00+01:00", "2025-03-06T09:00:00+01:00"])
    }

    @Test func rdateWithTZIDIsReadInItsZone() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:r
            DTSTART;TZID=America/New_York:20250303T090000
            RDATE;TZID=America/New_York:20250310T090000
            END:VEVENT

            """)
        // New York moved to daylight time on March 9: 09:00 EDT is 14:00 in Berlin.
        #expect(starts(loaded) == ["2025-03-03T15:00:00+01:00", "2025-03-10T14:00:00+01:00"])
    }

    @Test func vtimezoneInTheFileIsUsedAsDefined() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:z
            DTSTART;TZID=Fixed Plus Three:20250303T120000
            END:VEVENT
            BEGIN:VTIMEZONE
            TZID:Fixed Plus Three
            BEGIN:STANDARD
            DTSTART:19700101T000000
            TZOFFSETFROM:+0300
            TZOFFSETTO:+0300
            END:STANDARD
            END:VTIMEZONE

            """)
        #expect(starts(loaded) == ["2025-03-03T10:00:00+01:00"])
    }

    @Test func unknownTZIDWarnsAndKeepsTheEventAsFloating() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:u
            DTSTART;TZID=Nowhere/Special:20250303T120000
            END:VEVENT

            """)
        #expect(starts(loaded) == ["2025-03-03T12:00:00+01:00"])
        #expect(loaded.occurrences.first?.start?.kind == .floating)
        #expect(loaded.diagnostics.map(\.description) == [
            "test.ics:5: DTSTART: unknown time zone \"Nowhere/Special\"; read as floating time"
        ])
    }

    @Test func durationsAndDefaults() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:d1
            DTSTART;VALUE=DATE:20250303
            END:VEVENT
            BEGIN:VEVENT
            UID:d2
            DTSTART:20250304T100000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:d3
            DTSTART;TZID=Europe/Berlin:20250329T090000
            DURATION:P1DT1H
            END:VEVENT

            """)
        let iso = ISOTime(clock: berlinClock)
        let ends = Dictionary(uniqueKeysWithValues: loaded.occurrences.map { ($0.uid, $0.end.map(iso.string) ?? "") })
        #expect(ends["d1"] == "2025-03-04")  // a date lasts one day
        #expect(ends["d2"] == "2025-03-04T11:00:00+01:00")  // a date-time lasts zero
        // P1D is a nominal day (09:00 again, across the DST change), then one exact hour.
        #expect(ends["d3"] == "2025-03-30T10:00:00+02:00")
    }

    @Test func damagedComponentIsSkippedWithItsLineAndTheRestKept() throws {
        let loaded = try load("""
            BEGIN:VEVENT
            UID:good1
            DTSTART:20250303T100000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:bad
            SUMMARY:Bad
            DTSTART:20251301T100000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:good2
            DTSTART:20250304T100000Z

            """)
        #expect(Set(loaded.occurrences.map(\.uid)) == ["good1", "good2"])
        let messages = loaded.diagnostics.map(\.description)
        #expect(messages.contains { $0.hasPrefix("test.ics:10: DTSTART: cannot read \"20251301T100000Z\"") })
        #expect(messages.contains { $0.hasPrefix("test.ics:12: VEVENT is not closed") })
    }

    @Test(arguments: [
        ("", "it is empty"), ("<html><body>Sign in</body></html>", "HTML"), ("{\"a\": 1}", "JSON"),
        ("\u{0}\u{1}\u{2}garbage", "binary"), ("BEGIN:VCARD\nEND:VCARD\n", "vCard"),
    ])
    func notICalendarSaysWhatItLooksLike(_ text: String, _ expected: String) {
        #expect {
            try CalendarLoader(window: march).load(Data(text.utf8), path: "x", defaultName: "x", source: ".")
        } throws: { error in
            (error as? NotICalendar)?.reason.contains(expected) == true
        }
    }

    @Test func remindersGetDueAndCompletion() throws {
        let loaded = try load("""
            BEGIN:VTODO
            UID:t1
            SUMMARY:Task
            DTSTART;VALUE=DATE:20250303
            DUE;VALUE=DATE:20250305
            PRIORITY:2
            END:VTODO
            BEGIN:VTODO
            UID:t2
            STATUS:COMPLETED
            END:VTODO

            """)
        #expect(loaded.reminderCount == 2)
        let task = try #require(loaded.occurrences.first { $0.uid == "t1" })
        #expect(task.due == .date(year: 2025, month: 3, day: 5))
        guard case .reminder(let r) = task.item else { Issue.record("not a reminder"); return }
        #expect(r.priority == 2 && !r.isCompleted)
        guard case .reminder(let done) = try #require(loaded.occurrences.first { $0.uid == "t2" }).item else { return }
        #expect(done.isCompleted)
    }

    @Test func utf16AndByteOrderMarkAreRead() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:b\r\nSUMMARY:Grüße\r\nDTSTART:20250303T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        for data in [Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8), text.data(using: .utf16)!] {
            let loaded = try CalendarLoader(window: march).load(data, path: "x", defaultName: "x", source: ".")
            #expect(loaded.occurrences.map(\.title) == ["Grüße"])
        }
    }
}
