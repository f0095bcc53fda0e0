import AgendaCore
import Foundation
import ICalAdapter
import Testing

/// Which revision of a UID is listed, and whether two components of one
/// UID are two items, does not depend on the window: a component far from
/// it (skipped unread by the prefilter, read and listing nothing, or a
/// series that ended) weighs as it would inside a wider one.
@Suite struct RevisionWindowTests {
    enum Shape: CaseIterable {
        /// A one-off event two years before the window, which the prefilter skips unread.
        case farOneOff
        /// The same with DURATION, which the prefilter leaves to be read.
        case farOneOffRead
        /// A one-off event in the window.
        case nearOneOff
        /// A weekly series that ended two years before the window.
        case endedSeries
        /// A weekly series with instances in the window.
        case runningSeries
    }

    static func component(uid: String, _ shape: Shape, sequence: Int, title: String) -> String {
        let times: [String] = switch shape {
        case .farOneOff: ["DTSTART;TZID=Europe/Berlin:20230510T090000", "DTEND;TZID=Europe/Berlin:20230510T100000"]
        case .farOneOffRead: ["DTSTART;TZID=Europe/Berlin:20230511T090000", "DURATION:PT1H"]
        case .nearOneOff: ["DTSTART;TZID=Europe/Berlin:20250312T090000", "DTEND;TZID=Europe/Berlin:20250312T100000"]
        case .endedSeries: ["DTSTART;TZID=Europe/Berlin:20230102T100000", "DURATION:PT30M", "RRULE:FREQ=WEEKLY;COUNT=4"]
        case .runningSeries: ["DTSTART;TZID=Europe/Berlin:20250203T100000", "DURATION:PT30M",
            "RRULE:FREQ=WEEKLY;COUNT=10"]
        }
        return (["BEGIN:VEVENT", "UID:\(uid)", "SEQUENCE:\(sequence)", "SUMMARY:\(title)"] + times + ["END:VEVENT"])
            .joined(separator: "\n") + "\n"
    }

    /// Every pair of shapes and SEQUENCEs under one UID each, in both orders.
    static let file: String = {
        var body = ""
        var n = 0
        for first in Shape.allCases {
            for second in Shape.allCases {
                for (s1, s2) in [(0, 0), (0, 1), (1, 0)] {
                    n += 1
                    body += component(uid: "u\(n)", first, sequence: s1, title: "u\(n) first \(first) seq \(s1)")
                    body += component(uid: "u\(n)", second, sequence: s2, title: "u\(n) second \(second) seq \(s2)")
                }
            }
        }
        return body
    }()

    /// Occurrences starting in March 2025, as title and start.
    static func march2025(_ loaded: LoadedCalendar) -> [String] {
        let iso = ISOTime(clock: berlinClock)
        return loaded.occurrences.compactMap { o in
            guard let start = o.start.map(iso.string), start.hasPrefix("2025-03") else { return nil }
            return "\(start) \(o.title)"
        }.sorted()
    }

    @Test func theListedRevisionsOfADayDoNotDependOnTheWindow() throws {
        let wide = AgendaWindow.days(900, from: CivilDate(iso: "2023-01-01")!, clock: berlinClock)
        let inMarch = RevisionWindowTests.march2025(try load(RevisionWindowTests.file, window: march))
        let inWide = RevisionWindowTests.march2025(try load(RevisionWindowTests.file, window: wide))
        #expect(!inMarch.isEmpty)
        #expect(inMarch == inWide,
            "listed in March only: \(Set(inMarch).subtracting(inWide).sorted()); in the wide window only: \(Set(inWide).subtracting(inMarch).sorted())")
    }

    /// Two one-off events of one UID and SEQUENCE are two items (a
    /// conference feed's talks), also when the first is far from the window.
    @Test func aTalkIsNotHiddenByAnEarlierOneOfItsUID() throws {
        let body = RevisionWindowTests.component(uid: "talk", .farOneOff, sequence: 0, title: "Last year")
            + RevisionWindowTests.component(uid: "talk", .nearOneOff, sequence: 0, title: "This year")
        #expect(try load(body).occurrences.map(\.title) == ["This year"])
    }

    /// An override far from the window (kept only as the instance it
    /// replaces) replaces it as one near it does, and its revisions weigh
    /// against those near it by SEQUENCE.
    @Test func overridesFarFromTheWindowReplaceTheirInstances() throws {
        func override(_ rid: String, to start: String, sequence: Int, _ title: String) -> String {
            """
            BEGIN:VEVENT
            UID:weekly
            SEQUENCE:\(sequence)
            RECURRENCE-ID;TZID=Europe/Berlin:\(rid)
            DTSTART;TZID=Europe/Berlin:\(start)
            DURATION:PT1H
            SUMMARY:\(title)
            END:VEVENT

            """
        }
        let body = """
            BEGIN:VEVENT
            UID:weekly
            DTSTART;TZID=Europe/Berlin:20250203T100000
            DURATION:PT1H
            RRULE:FREQ=WEEKLY;COUNT=10
            SUMMARY:Weekly
            END:VEVENT

            """
            + override("20250310T100000", to: "20230601T100000", sequence: 0, "moved two years back")
            + override("20250317T100000", to: "20230701T100000", sequence: 1, "moved back, the newer")
            + override("20250317T100000", to: "20250318T100000", sequence: 0, "moved a day on, the older")
            + override("20250324T100000", to: "20230801T100000", sequence: 0, "moved back, the older")
            + override("20250324T100000", to: "20250325T100000", sequence: 1, "moved a day on, the newer")
            + override("20250331T100000", to: "20250330T100000", sequence: 0, "moved a day back, the first")
            + override("20250331T100000", to: "20230901T100000", sequence: 0,
                "moved back, a second of the same SEQUENCE")
        let wide = AgendaWindow.days(900, from: CivilDate(iso: "2023-01-01")!, clock: berlinClock)
        let inMarch = RevisionWindowTests.march2025(try load(body, window: march))
        #expect(inMarch == [
            "2025-03-03T10:00:00+01:00 Weekly", "2025-03-25T10:00:00+01:00 moved a day on, the newer",
            "2025-03-30T10:00:00+02:00 moved a day back, the first",
        ])
        #expect(inMarch == RevisionWindowTests.march2025(try load(body, window: wide)))
    }
}

extension RevisionWindowTests {
    /// A reminder done before the window lists nothing and is remembered by
    /// a fingerprint, yet its revisions weigh as before: reopened later in the
    /// window it is listed; an older revision in the window stays hidden.
    @Test func remindersDoneBeforeTheWindowKeepTheirRevisions() throws {
        func todo(_ uid: String, sequence: Int, due: String, done: Bool, _ title: String) -> String {
            "BEGIN:VTODO\nUID:\(uid)\nSEQUENCE:\(sequence)\nDUE:\(due)T100000Z\n" + (done ? "STATUS:COMPLETED\n" : "")
                + "SUMMARY:\(title)\nEND:VTODO\n"
        }
        let body = todo("a", sequence: 0, due: "20230301", done: true, "a done in 2023")
            + todo("a", sequence: 1, due: "20250305", done: false, "a reopened for March")
            + todo("b", sequence: 1, due: "20230302", done: true, "b done in 2023, the newer")
            + todo("b", sequence: 0, due: "20250306", done: false, "b due in March, the older")
            + todo("c", sequence: 0, due: "20230303", done: false, "c never done")
        let wide = AgendaWindow.days(900, from: CivilDate(iso: "2023-01-01")!, clock: berlinClock)
        let titles = { (loaded: LoadedCalendar) in loaded.occurrences.map(\.title).filter { !$0.contains("2023") }
            .sorted() }
        let inMarch = titles(try load(body, window: march))
        #expect(inMarch == ["a reopened for March", "c never done"])
        #expect(inMarch == titles(try load(body, window: wide)))
    }
}
