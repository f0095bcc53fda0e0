import AgendaCore
import Foundation
import Testing

/// Rows of a day sort by the time elapsed since local midnight, not by the
/// wall clock: in the hour a fall-back repeats, the second 02:15 comes
/// after the first 02:45.
@Suite struct ElapsedTimeTests {
    let berlin = ZoneClock(TimeZone(identifier: "Europe/Berlin")!)

    @Test(arguments: [
        // 2025-10-26, Berlin falls back from 03:00 CEST to 02:00 CET.
        (1_761_439_500, 9900),  // 00:45Z = 02:45 CEST: 2 h 45 min after midnight
        (1_761_441_300, 11_700),  // 01:15Z = 02:15 CET: 3 h 15 min after midnight
        (1_761_444_000, 14_400),  // 02:00Z = 03:00 CET
        // 2025-03-30, Berlin springs forward from 02:00 CET to 03:00 CEST.
        (1_743_298_200, 9000),  // 01:30Z = 03:30 CEST: 2 h 30 min after midnight
        // An ordinary day: the wall clock.
        (1_741_165_200, 36_000),  // 2025-03-05T09:00Z = 10:00 CET
    ])
    func elapsedSecondsFollowTheInstant(_ seconds: Int, _ elapsed: Int) {
        #expect(berlin.elapsedSecondsIntoDay(of: Date(timeIntervalSince1970: TimeInterval(seconds))) == elapsed)
    }

    @Test func theFallBackHourIsListedInTheOrderOfItsInstants() {
        let first = Date(timeIntervalSince1970: 1_761_439_500)  // 02:45 CEST
        let second = Date(timeIntervalSince1970: 1_761_441_300)  // 02:15 CET
        #expect(berlin.secondsIntoDay(of: second) < berlin.secondsIntoDay(of: first))
        #expect(berlin.elapsedSecondsIntoDay(of: second) > berlin.elapsedSecondsIntoDay(of: first))
    }
}
