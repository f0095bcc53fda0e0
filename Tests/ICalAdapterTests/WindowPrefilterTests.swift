import Foundation
import AgendaCore
@testable import ICalAdapter
import Testing

/// Which events the prefilter lets the loader skip unread.
@Suite struct WindowPrefilterTests {
    /// The verdict on the only component of `body` (window: March 2025).
    func verdict(_ body: String, skipsRules: Bool = true) -> (uid: String, sequence: Int, recurs: Bool)? {
        let bytes = Array(calendar(body))
        return bytes.withUnsafeBufferPointer { buffer in
            let split = ComponentSplitter.split(buffer)
            return WindowPrefilter(window: march, skipsRules: skipsRules).skippableEvent(split.chunks[0], buffer)
        }
    }

    /// A rule whose name is cut from its value by a blank line and a fold
    /// (read joined, as the repairs hand it to libical) is a rule: the event,
    /// which started before the window, lists its March instances.
    @Test func aRuleFoldedAfterABlankLineIsNoOneOff() throws {
        let body = "BEGIN:VEVENT\nUID:b\nDTSTART:20250110T090000Z\nRRULE\n\n :FREQ=WEEKLY\nSUMMARY:b\nEND:VEVENT\n"
        #expect(verdict(body) == nil)
        let starts = try load(body).occurrences.compactMap { $0.start?.instant(in: berlinClock) }
        let fridays = ["07", "14", "21", "28"].map { ISO8601DateFormatter().date(from: "2025-03-\($0)T09:00:00Z")! }
        #expect(fridays.allSatisfy(starts.contains), "\(starts)")
    }

    @Test func aSeriesThatStartsAfterTheWindowIsSkipped() throws {
        let series = "BEGIN:VEVENT\nUID:s\nSEQUENCE:2\nDTSTART:20250410T090000Z\nRRULE:FREQ=WEEKLY\nEND:VEVENT\n"
        let skipped = try #require(verdict(series))
        #expect(skipped.uid == "s" && skipped.sequence == 2 && skipped.recurs)
        // Not when a RANGE=THISANDFUTURE override could move its instances.
        #expect(verdict(series, skipsRules: false) == nil)
    }

    @Test(arguments: [
        // Starts in the window, or within two days of it (another zone may put it inside).
        "DTSTART:20250315T090000Z\nRRULE:FREQ=WEEKLY",
        "DTSTART;TZID=Pacific/Kiritimati:20250402T010000\nRRULE:FREQ=DAILY",
        // Started before the window: its rule reaches into it.
        "DTSTART:20240110T090000Z\nRRULE:FREQ=WEEKLY",
        // RDATE may add an instance before DTSTART; an override is one instance.
        "DTSTART:20250410T090000Z\nRRULE:FREQ=WEEKLY\nRDATE:20250305T090000Z",
        "DTSTART:20250410T090000Z\nRECURRENCE-ID:20250410T090000Z",
        // A one-off event that ends in the window, after a long DURATION.
        "DTSTART:20250210T090000Z\nDURATION:P30D",
        // A property given twice: the reader takes the first, in the window.
        "DTSTART:20250303T090000Z\nDTSTART:20200101T080000Z",
        "DTSTART:20200101T080000Z\nDTEND:20250303T090000Z\nDTEND:20200101T090000Z",
        "DTSTART:20240110T090000Z\nSEQUENCE:1\nSEQUENCE:2",
        "DTSTART:20240110T090000Z\nUID:another",
        // A fold inside a property's name (valid): the line-by-line look cannot see it.
        "DTSTART;VALUE=DATE:20250220\nDT\n END;VALUE=DATE:20250306",
        "DTSTART:20250203T090000Z\nRR\n ULE:FREQ=WEEKLY",
    ])
    func eventsTheWindowMayHoldAreParsed(_ lines: String) {
        #expect(verdict("BEGIN:VEVENT\nUID:p\n\(lines)\nEND:VEVENT\n") == nil)
    }

    @Test func oneOffEventsFarFromTheWindowAreSkipped() {
        #expect(verdict("BEGIN:VEVENT\nUID:a\nDTSTART:20250410T090000Z\nDURATION:PT1H\nEND:VEVENT\n")?.recurs == false)
        // A fold inside a long parameter, as Outlook writes them, hides no name.
        #expect(verdict("BEGIN:VEVENT\nUID:c\nDTSTART:20250410T090000Z\nATTENDEE;CN=\"A long\n  name\":mailto:a@example.com\nEND:VEVENT\n")?.recurs == false)
        #expect(verdict("BEGIN:VEVENT\nUID:b\nDTSTART:20240110T090000Z\nDTEND:20240110T100000Z\nEND:VEVENT\n")?.recurs == false)
    }

    @Test(arguments: [
        ("RECURRENCE-ID;RANGE=THISANDFUTURE:20250410T090000Z", true),
        ("recurrence-id;range=ThisAndFuture:20250410T090000Z", true),
        // Folded, or with NUL bytes the loader drops: libical still reads the word.
        ("RECURRENCE-ID;RANGE=THISAND\r\n FUTURE:20250410T090000Z", true),
        ("RECURRENCE-ID;RANGE=THIS\u{0}ANDFUTURE:20250410T090000Z", true),
        ("RECURRENCE-ID:20250410T090000Z\r\nSUMMARY:this and that, in future", false),
        ("RECURRENCE-ID;RANGE=THISANDPRIOR:20250410T090000Z", false),
    ])
    func overridesThatMayMoveASeriesAreFound(_ line: String, _ found: Bool) {
        let text = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\n\(line)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        #expect(text.withUnsafeBufferPointer(WindowPrefilter.mayMoveSeries) == found)
    }
}
