import AgendaCore
import Foundation
import Testing

private func upcoming(_ occurrences: [Occurrence], now: String, within: TimeInterval = 86400, allDay: Bool = false,
    count: Int = 5)
    -> [String]
{
    let start = instant(now)
    let window = AgendaWindow(from: start, to: start + within, clock: berlin)
    var selection = Selection()
    selection.includeReminders = false
    let sections = AgendaBuilder(window: window, today: berlin.civilDate(of: start), selection: selection)
        .build(occurrences)
    let found = Upcoming(sections: sections, now: start, end: start + within, clock: berlin, includeAllDay: allDay,
        count: count)
    let wording = UpcomingWording(formats: LocaleFormats(localeIdentifier: "en_US", clock: berlin), now: start)
    return found.entries.map { "\(wording.line($0)) [\($0.minutesUntil)]" }
}

@Suite struct UpcomingTests {
    @Test func whatHasBegunComesFirstTheLatestBegunFirst() {
        let found = upcoming([
            event("Block", at("2025-03-03T07:00:00Z"), at("2025-03-03T11:00:00Z")),
            event("Standup", at("2025-03-03T08:00:00Z"), at("2025-03-03T08:15:00Z")),
            event("Review", at("2025-03-03T08:24:30Z"), at("2025-03-03T09:00:00Z")),
            event("Lunch", at("2025-03-03T11:00:00Z"), at("2025-03-03T12:00:00Z")),
            event("Over", at("2025-03-03T07:00:00Z"), at("2025-03-03T08:00:00Z")),
            event("Cancelled", at("2025-03-03T08:30:00Z"), at("2025-03-03T09:00:00Z"), status: "CANCELLED"),
            event("Day after", at("2025-03-05T08:00:00Z"), at("2025-03-05T09:00:00Z")),
        ], now: "2025-03-03T08:00:00Z", within: 3 * 86400)
        #expect(found == [
            "now: Standup (until 9:15 AM) [0]", "now: Block (until 12:00 PM) [0]", "in 25 min: Review [25]",
            "today 12:00 PM: Lunch [180]", "Wed 5 9:00 AM: Day after [2880]",
        ])
    }

    @Test func nothingWithinReachIsNothing() {
        #expect(upcoming([event("Later", at("2025-03-04T09:00:00Z"), at("2025-03-04T10:00:00Z"))],
            now: "2025-03-03T08:00:00Z").isEmpty)
        #expect(upcoming([event("Past", at("2025-03-02T09:00:00Z"), at("2025-03-02T10:00:00Z"))],
            now: "2025-03-03T08:00:00Z").isEmpty)
    }

    @Test func allDayOccurrencesCountOnlyWhenAsked() {
        let holiday = event("Holiday", .date(year: 2025, month: 3, day: 4), .date(year: 2025, month: 3, day: 5))
        let meeting = event("Review", at("2025-03-04T08:00:00Z"), at("2025-03-04T09:00:00Z"))
        #expect(upcoming([holiday, meeting], now: "2025-03-03T20:00:00Z") == ["tomorrow 9:00 AM: Review [720]"])
        #expect(upcoming([holiday, meeting], now: "2025-03-03T20:00:00Z", allDay: true)
            == ["tomorrow: Holiday [180]", "tomorrow 9:00 AM: Review [720]"])
    }
}
