import AgendaCore
import Foundation
import Testing

let work = CalendarInfo(name: "Work", source: "cal", path: "cal/work.ics")

func event(_ title: String, _ start: AgendaTime, _ end: AgendaTime? = nil, status: String? = nil) -> Occurrence {
    let e = Event(uid: title, title: title, location: nil, description: nil, status: status, calendar: work)
    return Occurrence(item: .event(e), start: start, end: end ?? start, recurrenceID: nil)
}

func reminder(_ title: String, due: AgendaTime?, completed: Bool = false) -> Occurrence {
    let r = Reminder(uid: title, title: title, location: nil, description: nil, status: completed ? "COMPLETED" : nil,
        isCompleted: completed, priority: nil, percentComplete: nil, categories: [], calendar: work)
    return Occurrence(item: .reminder(r), start: nil, end: nil, due: due, recurrenceID: nil)
}

func at(_ text: String) -> AgendaTime { .instant(instant(text)) }

func builder(_ first: String = "2025-03-01", days: Int = 30, clock: ZoneClock = berlin,
    selection: Selection = Selection()) -> AgendaBuilder {
    AgendaBuilder(window: .days(days, from: day(first), clock: clock), today: day(first), selection: selection)
}

func titles(_ sections: [AgendaSection]) -> [[String]] { sections.map { section in section.rows.map { section.occurrences[$0].title } } }

@Suite struct AgendaBuilderTests {
    @Test func sectionsAreDaysInOrderWithAllDayFirstThenTimeThenTitle() {
        let sections = builder().build([
            event("b late", at("2025-03-02T17:00:00Z")),
            event("a early", at("2025-03-02T08:00:00Z")),
            event("z all day", .date(year: 2025, month: 3, day: 2), .date(year: 2025, month: 3, day: 3)),
            event("same time b", at("2025-03-01T10:00:00Z")),
            event("same time a", at("2025-03-01T10:00:00Z")),
        ])
        #expect(sections.map { $0.day!.dayKey } == [20250301, 20250302])
        #expect(titles(sections) == [["same time a", "same time b"], ["z all day", "a early", "b late"]])
    }

    @Test func groupingUsesTheDisplayZone() {
        let late = [event("call", at("2025-03-05T23:00:00Z"))]
        #expect(builder(clock: berlin).build(late).first?.day == day("2025-03-06"))
        #expect(builder(clock: newYork).build(late).first?.day == day("2025-03-05"))
    }

    @Test func multiDayEventIsUnderEveryDayItTouches() {
        let sections = builder().build([event("trip", at("2025-03-07T21:00:00Z"), at("2025-03-09T07:15:00Z"))])
        #expect(sections.map { $0.day!.iso } == ["2025-03-07", "2025-03-08", "2025-03-09"])
        let rows = sections.flatMap(\.rows)
        #expect(rows.map(\.dayIndex) == [1, 2, 3])
        #expect(rows.map(\.isFirstListed) == [true, false, false])
        #expect(rows[1].timing == .allDay)
        #expect(rows[2].timing == .continues(until: instant("2025-03-09T07:15:00Z")))
    }

    @Test func eventEndingAtMidnightDoesNotTouchTheNextDay() {
        let sections = builder().build([event("evening", at("2025-03-02T19:00:00Z"), at("2025-03-02T23:00:00Z"))])
        #expect(sections.count == 1)
    }

    @Test func eventThatBeganBeforeTheWindowIsListedFromItsFirstDay() {
        let sections = builder("2025-03-10", days: 3).build([
            event("conference", .date(year: 2025, month: 3, day: 8), .date(year: 2025, month: 3, day: 12))
        ])
        #expect(sections.map { $0.day!.iso } == ["2025-03-10", "2025-03-11"])
        #expect(sections[0].rows[0].isFirstListed)
        #expect(sections[0].rows[0].dayIndex == 3)
    }

    @Test func cancelledOccurrencesOnlyWhenAskedFor() {
        let items = [event("gone", at("2025-03-02T08:00:00Z"), status: "CANCELLED")]
        #expect(builder().build(items).isEmpty)
        var selection = Selection()
        selection.showCancelled = true
        #expect(titles(builder(selection: selection).build(items)) == [["gone"]])
    }

    @Test func remindersOverdueUndatedAndCompleted() {
        let items = [
            reminder("overdue", due: .date(year: 2025, month: 2, day: 20)),
            reminder("due", due: at("2025-03-03T16:00:00Z")),
            reminder("someday", due: nil),
            reminder("done", due: .date(year: 2025, month: 3, day: 2), completed: true),
            reminder("done long ago", due: .date(year: 2025, month: 2, day: 2), completed: true),
        ]
        let sections = builder().build(items)
        #expect(sections.map { $0.day?.iso } == ["2025-03-01", "2025-03-03", nil])
        #expect(titles(sections) == [["overdue"], ["due"], ["someday"]])
        #expect(sections[0].rows[0].timing == .overdue(since: day("2025-02-20")))

        var selection = Selection()
        selection.showCompleted = true
        // A completed reminder is never overdue: it stays on its own day, here before the window.
        #expect(titles(builder(selection: selection).build(items)) == [["overdue"], ["done"], ["due"], ["someday"]])
    }

    @Test func selectionLeavesOutKinds() {
        let items = [event("meeting", at("2025-03-02T08:00:00Z")), reminder("task", due: at("2025-03-02T09:00:00Z"))]
        var noEvents = Selection()
        noEvents.includeEvents = false
        var noReminders = Selection()
        noReminders.includeReminders = false
        #expect(titles(builder(selection: noEvents).build(items)) == [["task"]])
        #expect(titles(builder(selection: noReminders).build(items)) == [["meeting"]])
    }

    @Test func windowBoundsAreExclusiveAtTheEnd() {
        let items = [
            event("last day", .date(year: 2025, month: 3, day: 30), .date(year: 2025, month: 3, day: 31)),
            event("after", .date(year: 2025, month: 3, day: 31), .date(year: 2025, month: 4, day: 1)),
        ]
        #expect(titles(builder().build(items)) == [["last day"]])
    }
}

@Suite struct ParallelPlacementTests {
    /// Enough occurrences for several placing threads, with many exact ties
    /// (same title, time and UID in separate objects), spread over three calendars.
    static let parts: [[Occurrence]] = (0..<3).map { part in
        (0..<5000).map { i in
            let hour = (i * 7 + part) % 24
            return event("t\(i % 5)",
                at("2025-03-\(String(format: "%02d", 2 + i % 20))T\(String(format: "%02d", hour)):00:00Z"))
        }
    }

    static func order(_ sections: [AgendaSection]) -> [ObjectIdentifier] {
        sections.flatMap { section in section.rows.map { section.occurrences[$0].itemIdentity } }
    }

    @Test(arguments: [2, 3, 8])
    func agendaIsTheSameWhateverTheThreads(threads: Int) {
        let one = Self.order(builder().build(parts: Self.parts, threads: 1))
        #expect(one.count == 15000)
        #expect(Self.order(builder().build(parts: Self.parts, threads: threads)) == one)
    }

    /// Rows of one day and time are ordered through their items' ranks
    /// (`ItemRanks`, with a shortcut for ASCII titles): the order must be
    /// the agenda's, for titles that share long prefixes,
    /// differ only in case or in the ninth byte, are empty, are not ASCII,
    /// or are the same text in two Unicode forms (equal for Swift).
    @Test func tiedRowsFollowAgendaOrderWhateverTheTitles() {
        let titles = [
            "Budget review", "Budget reviews", "Budget r", "Budget", "budget", "Budget review", "", "Eclair",
            "\u{C9}clair", "E\u{301}clair", "Zebra", "\u{65E5}\u{672C}", "Budget r\u{E9}view", "Budget re\u{301}view",
                "~",
        ]
        var items: [Occurrence] = []
        for (i, title) in titles.enumerated() {
            let calendar = CalendarInfo(name: i % 3 == 0 ? "Home" : "Work", source: "cal", path: "cal/\(i % 2).ics")
            let e = Event(uid: "u\(i % 4)", title: title, location: nil, description: nil, status: nil,
                calendar: calendar)
            items.append(Occurrence(item: .event(e), start: at("2025-03-02T08:00:00Z"), end: at("2025-03-02T09:00:00Z"),
                recurrenceID: nil))
            let r = Reminder(uid: "u\(i % 4)", title: title, location: nil, description: nil, status: nil,
                isCompleted: false,
                priority: nil, percentComplete: nil, categories: [], calendar: calendar)
            items.append(Occurrence(item: .reminder(r), start: nil, end: nil, due: at("2025-03-02T08:00:00Z"),
                recurrenceID: nil))
        }
        // Title (Swift's String order), events before reminders, calendar
        // name, calendar path, UID; input order on ties.
        func key(_ o: Occurrence) -> (String, Int, String, String, String) {
            let kind: Int
            switch o.item {
            case .event: kind = 0
            case .reminder: kind = 1
            }
            return (o.title, kind, o.calendar.name, o.calendar.path, o.uid)
        }
        let expected = items.enumerated().sorted { a, b in
            let ka = key(a.element), kb = key(b.element)
            return ka < kb || (!(kb < ka) && a.offset < b.offset)
        }.map { $0.element.itemIdentity }
        let sections = builder().build(items)
        #expect(sections.count == 1)
        #expect(Self.order(sections) == expected)
    }

    @Test func tiesKeepInputOrder() {
        // One calendar, UID = title: start, then title, then input order.
        let expected = Self.parts.flatMap { $0 }.enumerated().sorted { a, b in
            let ka = (a.element.start!.wall, a.element.title), kb = (b.element.start!.wall, b.element.title)
            return ka < kb || (!(kb < ka) && a.offset < b.offset)
        }.map { $0.element.itemIdentity }
        #expect(Self.order(builder().build(parts: Self.parts, threads: 3)) == expected)
    }
}

@Suite struct FormatterTests {
    func render(_ occurrences: [Occurrence], locale: String = "en_US") -> (text: String, json: String) {
        let sections = builder().build(occurrences)
        var text = "", json = ""
        TextFormatter(formats: LocaleFormats(localeIdentifier: locale, clock: berlin),
            style: TerminalStyle(enabled: false))
            .write(sections, to: &text)
        JSONLinesFormatter(clock: berlin).write(sections, to: &json)
        return (text, json)
    }

    @Test func textAlignsTheTimeColumn() {
        let text = render([
            event("all-day thing", .date(year: 2025, month: 3, day: 2), .date(year: 2025, month: 3, day: 3)),
            event("morning", at("2025-03-02T08:00:00Z")),
            event("evening", at("2025-03-02T20:30:00Z")),
        ]).text
        #expect(text == """
            Sunday, March 2, 2025
              all day  all-day thing
              9:00 AM  morning
              9:30 PM  evening

            """)
    }

    @Test func emptyAgendaPrintsNothing() {
        let output = render([])
        #expect(output.text.isEmpty && output.json.isEmpty)
    }

    @Test func everyJSONLineHasEveryContractKey() throws {
        let keys = ["kind", "uid", "recurrence_id", "title", "start", "end", "all_day", "day", "location",
            "description",
            "status", "calendar", "source", "calendar_color", "due", "completed", "priority", "overlaps",
                "overlap_count",
            "meeting_url", "partstat"]
        let json = render([
            event("meeting \"quoted\"\nline", at("2025-03-02T08:00:00Z")),
            reminder("task", due: nil),
            reminder("dated", due: .date(year: 2025, month: 3, day: 4)),
        ]).json
        let lines = json.split(separator: "\n")
        #expect(lines.count == 3)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == Set(keys))
            #expect(object["overlaps"] as? [String] == [])
            #expect(object["overlap_count"] as? Int == 0)
            // In the contract's order.
            let places = keys.map { line.range(of: "\"\($0)\":")!.lowerBound }
            #expect(places == places.sorted())
        }
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["title"] as? String == "meeting \"quoted\"\nline")
        #expect(first["start"] as? String == "2025-03-02T09:00:00+01:00")
        #expect(first["day"] as? String == "2025-03-02")
    }
}

@Suite struct SelectionTests {
    func item(_ title: String, location: String? = nil, description: String? = nil,
        calendar: String = "Work") -> Occurrence {
        let info = CalendarInfo(name: calendar, source: "s", path: "s/\(calendar).ics")
        let e = Event(uid: title, title: title, location: location, description: description, status: nil,
            calendar: info)
        return Occurrence(item: .event(e), start: at("2025-03-02T08:00:00Z"), end: nil, recurrenceID: nil)
    }

    /// A word found in a text, with smart case: what the command line's RE2 pattern does for a plain word.
    struct Word: TextPattern {
        let word: String
        func matches(_ text: String) -> Bool {
            word.contains { $0.isUppercase } ? text.contains(word) : text.lowercased().contains(word)
        }
    }

    @Test func grepLooksAtTitleLocationAndDescriptionWithSmartCase() throws {
        let items = [item("Review"), item("Lunch", location: "review room"),
            item("Call", description: "after the REVIEW"), item("Other")]
        var selection = Selection()
        selection.text = TextMatcher(pattern: "review", compiled: Word(word: "review"))
        #expect(titles(builder(selection: selection).build(items)).flatMap { $0 }
            .sorted() == ["Call", "Lunch", "Review"])
        selection.text = TextMatcher(pattern: "Review", compiled: Word(word: "Review"))  // upper case: case matters
        #expect(titles(builder(selection: selection).build(items)).flatMap { $0 } == ["Review"])
    }

    @Test func calendarFilterAndKindFiltersCombine() throws {
        let r = Reminder(uid: "t", title: "review task", location: nil, description: nil, status: nil,
            isCompleted: false,
            priority: nil, percentComplete: nil, categories: [],
                calendar: CalendarInfo(name: "Work", source: "s", path: "p"))
        let items = [
            item("review meeting"), item("review at home", calendar: "Home"),
            Occurrence(item: .reminder(r), start: nil, end: nil, due: at("2025-03-03T08:00:00Z"), recurrenceID: nil),
        ]
        var selection = Selection()
        selection.calendars = ["Work"]
        selection.text = TextMatcher(pattern: "review", compiled: Word(word: "review"))
        selection.includeEvents = false
        #expect(titles(builder(selection: selection).build(items)) == [["review task"]])
    }
}
