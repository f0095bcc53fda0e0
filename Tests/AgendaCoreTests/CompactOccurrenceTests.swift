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
