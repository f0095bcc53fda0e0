import AgendaCore
import Foundation
import Testing

/// What keeps a large agenda small: occurrences as 32-byte values, the
/// overdue instances dropped in place, the JSON field cache within its budget.
@Suite struct CompactOccurrenceTests {
    @Test func anOccurrenceIsAValueOf32Bytes() {
        #expect(MemoryLayout<Occurrence>.stride == 32)
    }

    @Test func anEventKeepsItsEndAndAReminderItsDueInOneField() {
        let e = Event(uid: "e", title: "e", location: nil, description: nil, status: nil, calendar: work)
        let meeting = Occurrence(item: .event(e), start: at("2025-03-02T08:00:00Z"), end: at("2025-03-02T09:00:00Z"),
            recurrenceID: at("2025-03-02T07:00:00Z"))
        #expect(meeting.start == at("2025-03-02T08:00:00Z"))
        #expect(meeting.end == at("2025-03-02T09:00:00Z"))
        #expect(meeting.due == nil)
        #expect(meeting.recurrenceID == at("2025-03-02T07:00:00Z"))
        #expect(meeting.shownEnd == at("2025-03-02T09:00:00Z"))
        let r = Reminder(uid: "r", title: "r", location: nil, description: nil, status: nil, isCompleted: false,
            priority: nil, percentComplete: nil, categories: [], calendar: work)
        let task = Occurrence(item: .reminder(r), start: at("2025-03-02T08:00:00Z"), end: nil,
            due: .date(year: 2025, month: 3, day: 4), recurrenceID: nil)
        #expect(task.start == at("2025-03-02T08:00:00Z"))
        #expect(task.due == .date(year: 2025, month: 3, day: 4))
        #expect(task.end == nil)
        #expect(task.recurrenceID == nil)
        #expect(task.shownEnd == .date(year: 2025, month: 3, day: 4))
        let undated = Occurrence(item: .reminder(r), start: nil, end: nil, recurrenceID: nil)
        #expect(undated.due == nil && undated.start == nil && undated.shownEnd == nil)
    }

    /// Several series with several overdue instances, among other rows of
    /// today: each series keeps its latest, the rest keep their order.
    @Test func onlyTheLatestOverdueInstanceOfEachSeriesStays() {
        let items = [
            reminder("a", due: .date(year: 2025, month: 2, day: 10)),
            event("meeting", at("2025-03-01T09:00:00Z")),
            reminder("b", due: .date(year: 2025, month: 2, day: 26)),
            reminder("a", due: .date(year: 2025, month: 2, day: 24)),
            reminder("c", due: .date(year: 2025, month: 2, day: 5)),
            reminder("a", due: .date(year: 2025, month: 2, day: 17)),
            reminder("b", due: .date(year: 2025, month: 2, day: 12)),
            event("lunch", at("2025-03-01T11:00:00Z")),
            reminder("d", due: .date(year: 2025, month: 3, day: 2)),
        ]
        let sections = builder().build(items)
        #expect(titles(sections) == [["a", "b", "c", "meeting", "lunch"], ["d"]])
        #expect(sections[0].rows.prefix(3).map(\.timing) == [
            .overdue(since: day("2025-02-24")), .overdue(since: day("2025-02-26")), .overdue(since: day("2025-02-05")),
        ])
    }

    /// A thread's escaped fields stay within `keptBytes` (and one item):
    /// items met after it is full are escaped again, not kept beside the rest.
    @Test func theJSONFieldCacheStaysWithinItsBudget() {
        var fields = ItemFields()
        let text = String(repeating: "x", count: 2000)
        var largest = 0
        for i in 0..<5000 {
            let e = Event(uid: "u\(i)", title: text, location: nil, description: nil, status: nil, calendar: work)
            let o = Occurrence(item: .event(e), start: at("2025-03-02T08:00:00Z"), end: nil, recurrenceID: nil)
            let place = fields.index(of: Int32(i), o)
            largest = max(largest, fields.length(of: place))
            #expect(fields.heldBytes <= ItemFields.keptBytes + (64 << 10) + 2 * largest)
        }
        #expect(largest > 2000)
    }
}

/// The JSON lines are written in blocks of whole days, each split between
/// threads at the start of a day where it can: the bytes do not depend on it.
@Suite struct JSONBlockTests {
    /// Busy, overlapping occurrences on consecutive days, `counts[d]` on day d
    /// (a few series among them), and a multi-day one across the first three.
    private func agenda(_ counts: [Int]) -> [AgendaSection] {
        var occurrences: [Occurrence] = []
        let base = instant("2025-03-03T06:00:00Z")
        for (d, count) in counts.enumerated() {
            for i in 0..<count {
                let start = base + TimeInterval(d * 86_400 + (i * 37) % 43_200)
                let e = Event(uid: i % 5 == 0 ? "series-\(i % 20)" : "one-\(d)-\(i)", title: "t\(i % 7)",
                    location: nil, description: nil, status: nil, calendar: work)
                occurrences.append(Occurrence(item: .event(e), start: .instant(start),
                    end: .instant(start + TimeInterval(600 + (i % 4) * 900)), recurrenceID: nil))
            }
        }
        let long = Event(uid: "long", title: "long", location: nil, description: nil, status: nil, calendar: work)
        occurrences.append(Occurrence(item: .event(long), start: .instant(base + 3600),
            end: .instant(base + 2 * 86_400 + 7200), recurrenceID: nil))
        return builder("2025-03-03", days: counts.count).build(occurrences)
    }

    @Test func theLinesAreTheSameWhateverTheThreads() {
        let sections = agenda([700, 1_300, 90, 2_000, 5_000, 300])
        var one = ""
        JSONLinesFormatter(clock: berlin, threads: 1).write(sections, to: &one)
        #expect(one.split(separator: "\n").count == 9_391)
        for threads in [2, 3, 8] {
            var several = ""
            JSONLinesFormatter(clock: berlin, threads: threads).write(sections, to: &several)
            #expect(several == one, "\(threads) threads")
        }
        // The day of 5,000 lines is cut between blocks (of at most 4,096): its answers go on to the next block.
        let lines = one.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) }
        let rows = sections.flatMap { section in section.rows.filter(\.isFirstListed).map { (section, $0) } }
        for (line, (section, row)) in zip(lines, rows) {
            let listed = try! JSONSerialization.jsonObject(with: Data(section.json(of: row).utf8)) as! [String]
            #expect((line as! [String: Any])["overlaps"] as? [String] == listed)
        }
    }

    /// Text too, in day and in week sections (a section of several days, its
    /// header written by whichever thread writes its first row).
    @Test func theTextIsTheSameWhateverTheThreads() {
        let days = agenda([700, 1_300, 90, 2_000, 5_000, 300])
        for sections in [days, SectionGrouping.week(firstWeekday: 2).group(days)] {
            func text(_ threads: Int) -> String {
                var text = ""
                TextFormatter(formats: LocaleFormats(localeIdentifier: "en_US", clock: berlin),
                    style: TerminalStyle(enabled: false), threads: threads).write(sections, to: &text)
                return text
            }
            let one = text(1)
            #expect(one.split(separator: "\n").count > 9_391)
            for threads in [2, 3, 8] { #expect(text(threads) == one, "\(threads) threads") }
        }
    }

    @Test func aPartBeginsWhereADayBegins() {
        let rows = agenda([300, 500, 400]).flatMap { $0.rows.filter(\.isFirstListed) }
        let starts = Set(rows.indices.filter { $0 == 0 || rows[$0 - 1].day != rows[$0].day })
        #expect(starts.count == 3)
        for parts in 2...4 {
            let bounds = BlockWriter.partBounds(of: rows, parts: parts)
            #expect(bounds.count == parts + 1 && bounds.first == 0 && bounds.last == rows.count)
            #expect(zip(bounds, bounds.dropFirst()).allSatisfy { $0 <= $1 }, "\(bounds)")
            // Two and three parts: one a day, or days together; four: a day is shared.
            if parts <= 3 { #expect(bounds.dropLast().allSatisfy(starts.contains), "\(bounds)") }
        }
        // Many threads on two days: a part is less than a day, and none is
        // moved far from an equal share, nor left empty.
        let two = agenda([1_024, 1_024]).flatMap { $0.rows.filter(\.isFirstListed) }
        for parts in [3, 5, 8] {
            let bounds = BlockWriter.partBounds(of: two, parts: parts)
            let sizes = zip(bounds, bounds.dropFirst()).map { $1 - $0 }
            #expect(sizes.allSatisfy { $0 > 0 && $0 <= two.count / parts * 3 / 2 + 1 }, "\(parts): \(sizes)")
        }
        // More parts than rows: none is left out, nothing is read past the rows.
        let few = Array(two.prefix(3))
        #expect(BlockWriter.partBounds(of: few, parts: 8).last == 3)
        // One day: parts of about equal rows.
        let day = agenda([900]).flatMap { $0.rows.filter(\.isFirstListed) }
        #expect(BlockWriter.partBounds(of: day, parts: 2) == [0, day.count / 2, day.count])
    }
}
