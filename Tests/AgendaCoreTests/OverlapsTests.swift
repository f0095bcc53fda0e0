@testable import AgendaCore
import Foundation
import Testing

private func busy(
    _ uid: String, _ start: AgendaTime, _ end: AgendaTime?, title: String? = nil, location: String? = nil,
    transparency: Event.Transparency = .unspecified, status: String? = nil
) -> Occurrence {
    let e = Event(uid: uid, title: title ?? uid, location: location, description: nil, status: status, calendar: work,
        transparency: transparency)
    return Occurrence(item: .event(e), start: start, end: end, recurrenceID: nil)
}

/// Ways of answering (`NamedOverlaps.Ways`): a span's first names found by bits or in the tree of its day's
/// sweep (`swept`: a million or 0); a multi-day occurrence's from each span of its days or from a window's sweep
/// (`stepsPerSpan`: a million or 0).
private func answering(swept: Int = 256, stepsPerSpan: Int = 256) -> NamedOverlaps.Ways {
    NamedOverlaps.Ways(byBits: swept, multiDayStepsPerSpan: stepsPerSpan)
}

/// A row's answers asked alone: its day's made for it.
extension AgendaSection {
    /// The row's JSON `overlaps` value, as text.
    func json(of row: AgendaRow, _ ways: NamedOverlaps.Ways = answering()) -> String {
        let day = overlaps.named(.uids, ways: ways).day(of: row)
        let uids = row.overlap >= 0 ? day.answer(row).names : []
        var bytes = [UInt8](repeating: 0, count: day.jsonLength(of: uids))
        let written = bytes.withUnsafeMutableBufferPointer { day.writeUIDs(uids, at: $0.baseAddress!) }
        return String(decoding: bytes[..<written], as: UTF8.self)
    }

    /// How many distinct UIDs the row's occurrence overlaps (JSON `overlap_count`).
    func count(of row: AgendaRow, _ ways: NamedOverlaps.Ways = answering()) -> Int {
        row.overlap >= 0 ? overlaps.named(.uids, ways: ways).day(of: row).answer(row).count : 0
    }

    /// The row's mark in the text formats.
    func mark(_ row: AgendaRow, _ ways: NamedOverlaps.Ways = answering()) -> String {
        overlaps.named(.titles, ways: ways).day(of: row).mark(row)
    }
}

/// The overlaps of each listed occurrence, by UID: what the JSON key says.
private func overlaps(_ occurrences: [Occurrence], showCancelled: Bool = false, clock: ZoneClock = berlin,
    ways: NamedOverlaps.Ways = answering()) -> [String: [String]] {
    var selection = Selection()
    selection.showCancelled = showCancelled
    let sections = builder("2025-03-01", days: 10, clock: clock, selection: selection).build(occurrences)
    var result: [String: [String]] = [:]
    for section in sections {
        for row in section.rows where row.isFirstListed {
            let json = section.json(of: row, ways)
            result[section.occurrences[row].uid] = try! JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
        }
    }
    return result
}

@Suite struct OverlapsTests {
    @Test func anEndAtAnotherStartIsNoOverlap() {
        let found = overlaps([
            busy("a", at("2025-03-03T09:00:00Z"), at("2025-03-03T10:00:00Z")),
            busy("b", at("2025-03-03T10:00:00Z"), at("2025-03-03T11:00:00Z")),
            busy("c", at("2025-03-03T10:30:00Z"), at("2025-03-03T10:45:00Z")),
        ])
        #expect(found == ["a": [], "b": ["c"], "c": ["b"]])
    }

    /// An event without a UID lists what it overlaps (JSON writes its own
    /// `uid` as null) and is counted by nothing, its first names found by bits or in the tree.
    @Test(arguments: [1_000_000, 0]) func anEventWithoutAUIDStillListsItsOverlaps(swept: Int) {
        let found = overlaps([
            busy("", at("2025-03-03T09:00:00Z"), at("2025-03-03T10:00:00Z")),
            busy("b", at("2025-03-03T09:30:00Z"), at("2025-03-03T09:45:00Z")),
            busy("c", at("2025-03-03T09:40:00Z"), at("2025-03-03T09:40:00Z")),
        ], ways: answering(swept: swept))
        #expect(found == ["": ["b", "c"], "b": ["c"], "c": ["b"]])
    }

    @Test func onlyBusyTimedOccurrencesOverlap() {
        let found = overlaps([
            busy("meeting", at("2025-03-03T09:00:00Z"), at("2025-03-03T10:00:00Z")),
            busy("focus", at("2025-03-03T08:00:00Z"), at("2025-03-03T12:00:00Z"), transparency: .transparent),
            busy("cancelled", at("2025-03-03T09:00:00Z"), at("2025-03-03T10:00:00Z"), status: "CANCELLED"),
            busy("holiday", .date(year: 2025, month: 3, day: 3), .date(year: 2025, month: 3, day: 4),
                transparency: .opaque),
            busy("opaque", at("2025-03-03T09:30:00Z"), at("2025-03-03T09:45:00Z"), transparency: .opaque),
        ], showCancelled: true)
        #expect(found == ["meeting": ["opaque"], "opaque": ["meeting"], "focus": [], "cancelled": [], "holiday": []])
    }

    @Test func aMultiDayOccurrenceListsWhatItOverlapsOnEveryDay() {
        let found = overlaps([
            busy("night", at("2025-03-03T21:00:00Z"), at("2025-03-04T03:00:00Z")),
            busy("late", at("2025-03-03T22:00:00Z"), at("2025-03-03T22:30:00Z")),
            busy("early", at("2025-03-04T01:00:00Z"), at("2025-03-04T01:30:00Z")),
        ])
        #expect(found == ["night": ["early", "late"], "late": ["night"], "early": ["night"]])
    }

    /// An occurrence is not listed on a day it takes less than a minute of
    /// (it ends at 00:00:30), nor is one that ends there: what a multi-day
    /// occurrence overlaps in that minute still counts, either way of
    /// asking (its days' spans, the window's component sweep). Berlin times in comments.
    @Test(arguments: [1_000_000, 0]) func aMinuteIntoAnotherDayStillOverlaps(stepsPerSpan: Int) {
        let found = overlaps([
            busy("M", at("2025-03-01T09:00:00Z"), at("2025-03-02T23:00:30Z")),  // Mar 1 10:00 to Mar 3 00:00:30
            busy("Y", at("2025-03-01T10:00:00Z"), at("2025-03-01T11:00:00Z")),
            busy("X", at("2025-03-02T23:00:00Z"), at("2025-03-03T00:00:00Z")),  // Mar 3 00:00 to 01:00
            // so that X overlaps something on its day
            busy("Z", at("2025-03-02T23:30:00Z"), at("2025-03-03T01:00:00Z")),
            busy("N", at("2025-03-04T23:00:00Z"), at("2025-03-06T12:00:00Z")),  // Mar 5 00:00 to Mar 6 13:00
            busy("W", at("2025-03-04T20:00:00Z"), at("2025-03-04T23:00:30Z")),  // Mar 4 21:00 to Mar 5 00:00:30
            // so that W overlaps something on its day
            busy("V", at("2025-03-04T19:00:00Z"), at("2025-03-04T21:00:00Z")),
            busy("P", at("2025-03-07T09:00:00Z"), at("2025-03-08T23:00:50Z")),  // Mar 7 10:00 to Mar 9 00:00:50
            busy("Q", at("2025-03-08T23:00:20Z"), at("2025-03-08T23:00:20Z")),  // Mar 9 00:00:20, no length
            busy("R", at("2025-03-08T23:00:00Z"), at("2025-03-09T00:00:00Z")),  // Mar 9 00:00 to 01:00
            // N and P overlap something on a day they are listed on: an
            // occurrence that overlaps nothing there is not looked at.
            busy("U", at("2025-03-05T09:00:00Z"), at("2025-03-05T10:00:00Z")),
            busy("T", at("2025-03-07T10:00:00Z"), at("2025-03-07T11:00:00Z")),
        ], ways: answering(stepsPerSpan: stepsPerSpan))
        #expect(found["M"] == ["X", "Y"])
        #expect(found["N"] == ["U", "W"])
        #expect(found["P"] == ["Q", "R", "T"])
    }

    @Test func aRowNamesThreeTitlesAndCountsTheRest() {
        let titles = ["B", "C", "D", "E", "E"]
        let all = [busy("A", at("2025-03-03T09:00:00Z"), at("2025-03-03T15:00:00Z"))]
            + titles.enumerated().map { i, t in busy(t, at("2025-03-03T1\(i):00:00Z"), at("2025-03-03T1\(i):30:00Z")) }
        let sections = builder("2025-03-03", days: 1).build(all)
        let marks = sections[0].rows.map { sections[0].mark($0) }
        #expect(marks.first == "(overlaps B, C, D and 1 more)")
    }

    /// Sort and sweep finds exactly the pairs that the definition gives, on
    /// random days of many short and long, touching and zero-length spans.
    /// Both ways of answering a multi-day occurrence (its days' spans,
    /// the window's component sweep) give the definition's answer.
    /// And both ways of finding a row's first names in its day's sweep
    /// (`ComponentSweep`): by bits, or in the tree.
    @Test(arguments: [1_000_000, 0], [1_000_000, 0]) func sweepAgreesWithEveryPair(stepsPerSpan: Int, swept: Int) {
        sweepAgreesWithEveryPair(ways: answering(swept: swept, stepsPerSpan: stepsPerSpan))
    }

    /// The same over four weeks, with occurrences of up to twelve days: a
    /// day's multi-day occurrences are answered over the window of their
    /// days, and a long one begun before the window is still counted.
    @Test(arguments: [1_000_000, 0]) func sweepAgreesWithEveryPairOverWeeks(stepsPerSpan: Int) {
        sweepAgreesWithEveryPair(slots: 2_600, lengths: [0, 900, 3600, 30 * 3600, 5 * 86400, 12 * 86400],
            days: 30, ways: answering(stepsPerSpan: stepsPerSpan))
    }

    /// A long occurrence alone on the first day of a later occurrence's
    /// window of days (its span there overlaps nothing) still counts for it.
    @Test(arguments: [1_000_000, 0]) func aLongOccurrenceAloneOnARunsFirstDayStillCounts(stepsPerSpan: Int) {
        let asked = answering(stepsPerSpan: stepsPerSpan)
        let sections = builder("2025-03-01", days: 10).build([
            busy("w", at("2025-03-01T10:00:00Z"), at("2025-03-10T20:00:00Z"), location: "w"),
            busy("x", at("2025-03-09T10:00:00Z"), at("2025-03-10T12:00:00Z"), location: "x"),
        ])
        var lists: [String: [String]] = [:]
        for section in sections {
            for row in section.rows where row.isFirstListed {
                let list = try! JSONSerialization.jsonObject(with: Data(section.json(of: row, asked).utf8))
                lists[section.occurrences[row].location!] = list as? [String]
            }
        }
        #expect(lists == ["w": ["x"], "x": ["w"]])
    }

    /// A multi-day occurrence also asks the days next to its own (it may
    /// end there in less than a minute); what lies there alone overlaps
    /// nothing and is not counted, even when its series' UID is ranked
    /// because another of its occurrences overlaps something.
    @Test(arguments: [1_000_000, 0]) func aSeriesAloneOnTheNextDayIsNoOverlap(stepsPerSpan: Int) {
        let series = Event(uid: "S", title: "S", location: nil, description: nil, status: nil, calendar: work)
        func s(_ from: String, _ to: String) -> Occurrence {
            Occurrence(item: .event(series), start: at(from), end: at(to), recurrenceID: at(from))
        }
        let lists = overlaps([
            busy("M", at("2025-03-03T09:00:00Z"), at("2025-03-05T00:00:40Z")),
            busy("X", at("2025-03-03T10:00:00Z"), at("2025-03-03T11:00:00Z")),
            s("2025-03-05T00:00:00Z", "2025-03-05T00:30:00Z"),  // alone on its day
            s("2025-03-06T00:00:00Z", "2025-03-06T00:30:00Z"),
            busy("Y", at("2025-03-06T00:10:00Z"), at("2025-03-06T00:20:00Z")),
        ], clock: ZoneClock(TimeZone(identifier: "UTC")!), ways: answering(stepsPerSpan: stepsPerSpan))
        #expect(lists["M"] == ["X"])
        #expect(lists["X"] == ["M"])
        #expect(lists["Y"] == ["S"])
    }

    /// The formatters write blocks of days on several threads, each day's
    /// answers made once for its rows (`BlockWriter`): each JSON line's
    /// overlaps and each text row's mark are still those its row gives
    /// asked alone, over days of one-off, overlapping, multi-day and long
    /// occurrences, each way of answering, on one thread and on three.
    @Test(arguments: [1_000_000, 0], [1_000_000, 0]) func aThreadsLastDayGivesEachRowItsOwnAnswer(stepsPerSpan: Int,
        swept: Int) {
        formattersAgreeWithRowsAskedAlone(ways: answering(swept: swept, stepsPerSpan: stepsPerSpan))
    }

    private func formattersAgreeWithRowsAskedAlone(ways: NamedOverlaps.Ways) {
        var seed: UInt64 = 7
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let base = instant("2025-03-02T00:00:00Z")
        let lengths = [0, 900, 1800, 3600, 5 * 3600, 30 * 3600, 3 * 86400]
        let occurrences = (0..<1_500).map { i in
            let start = base + TimeInterval(next(8 * 96) * 900)  // over eight days
            return busy("u\(i % 300)", .instant(start), .instant(start + TimeInterval(lengths[next(lengths.count)])),
                title: "t\(i % 40)")
        }
        let sections = builder("2025-03-01", days: 10).build(occurrences)
        var alone: [(overlaps: String, count: Int)] = [], marks: [String] = []
        for section in sections {
            for row in section.rows {
                if row.isFirstListed { alone.append((section.json(of: row, ways), section.count(of: row, ways))) }
                marks.append(section.mark(row, ways))
            }
        }
        #expect(marks.filter { !$0.isEmpty }.count > 500)
        for threads in [1, 3] {
            var json = ""
            var formatter = JSONLinesFormatter(clock: berlin, threads: threads)
            formatter.ways = ways
            formatter.write(sections, to: &json)
            let lines = json.split(separator: "\n").map {
                try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
            }
            #expect(lines.count == alone.count)
            for (line, row) in zip(lines, alone) {
                let listed = try! JSONSerialization.jsonObject(with: Data(row.overlaps.utf8)) as! [String]
                #expect(line["overlaps"] as? [String] == listed && line["overlap_count"] as? Int == row.count)
            }
            // Day sections, and week sections (a section of several days).
            for grouping in [SectionGrouping.day, .week(firstWeekday: 2)] {
                var text = ""
                var formatter = TextFormatter(formats: LocaleFormats(localeIdentifier: "en_US", clock: berlin),
                    style: TerminalStyle(enabled: false), threads: threads)
                formatter.ways = ways
                formatter.write(grouping.group(sections), to: &text)
                let rows = text.split(separator: "\n").filter { $0.hasPrefix("  ") }
                #expect(rows.count == marks.count)
                for (line, mark) in zip(rows, marks) {
                    #expect(mark.isEmpty ? !line.contains("(overlaps") : line.hasSuffix(" " + mark), "\(line)")
                }
            }
        }
    }

    private func sweepAgreesWithEveryPair(slots: Int = 288, lengths: [Int] = [0, 900, 1800, 3600, 3 * 3600, 30 * 3600],
        days: Int = 10, ways: NamedOverlaps.Ways) {
        var seed: UInt64 = 42
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let base = instant("2025-03-03T00:00:00Z")
        var occurrences: [Occurrence] = []
        var spans: [(uid: String, start: Date, end: Date)] = []
        for i in 0..<400 {
            let start = base + TimeInterval(next(slots) * 900)  // 288 slots: over three days
            let end = start + TimeInterval(lengths[next(lengths.count)])
            let uid = "u\(i % 150)"  // some UIDs shared, as a series shares one
            occurrences.append(busy(uid, .instant(start), .instant(end), location: "\(i)"))
            spans.append((uid, start, end))
        }
        // Each occurrence's line lists the first 10 UIDs of what overlaps it
        // and counts them all (`overlap_count`), across the days it spans.
        let sections = builder("2025-03-01", days: days).build(occurrences)
        var checked = 0
        for section in sections {
            for row in section.rows where row.isFirstListed {
                let i = Int(section.occurrences[row].location!)!
                let a = spans[i]
                let expected = Set(spans.indices.filter { j in j != i && spans[j].start < a.end
                    && spans[j].end > a.start }.map { spans[$0].uid }).sorted()
                let list = try! JSONSerialization.jsonObject(with: Data(section.json(of: row, ways)
                    .utf8)) as! [String]
                #expect(list == Array(expected.prefix(NamedOverlaps.uidsListed)), "row \(i)")
                #expect(section.count(of: row, ways) == expected.count, "row \(i)")
                checked += 1
            }
        }
        #expect(checked == spans.count)
    }

    /// Each row, not each UID: the UIDs its JSON lists and the titles its
    /// mark names are those of the other rows of its day that overlap it,
    /// on random days where a few series run many overlapping occurrences
    /// (as a `FREQ=MINUTELY` series of long events does) beside short,
    /// touching and zero-length ones; the last three shapes have hundreds
    /// of titles a day, crowded in a few slots, spread over every minute,
    /// or all at three times. Each is asked with a row's first names found
    /// by bits and in the tree of its day's sweep (`ComponentSweep`).
    @Test(arguments: [(400, 150, 72), (600, 3, 480), (300, 40, 8), (2_000, 400, 24), (1_200, 900, 1_440),
        (800, 200, 3)])
    func everyRowListsWhatOverlapsIt(count: Int, uids: Int, slots: Int) {
        for stepsPerSpan in [1_000_000, 0] {
            for swept in [1_000_000, 0] {
                everyRowListsWhatOverlapsIt(count, uids, slots,
                    ways: answering(swept: swept, stepsPerSpan: stepsPerSpan))
            }
        }
    }

    private func everyRowListsWhatOverlapsIt(_ count: Int, _ uids: Int, _ slots: Int, ways: NamedOverlaps.Ways) {
        var seed = UInt64(count * 7 + uids)
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let base = instant("2025-03-03T00:00:00Z")
        var occurrences: [Occurrence] = []
        var spans: [(uid: String, title: String, start: Date, end: Date)] = []
        for i in 0..<count {
            let start = base + TimeInterval(next(slots) * 86_400 / slots)
            let end = start + TimeInterval([0, 60, 900, 1800, 3600, 3 * 3600, 9 * 3600][next(7)])
            let uid = "u\(next(uids))", title = "t\(next(uids + 2))"
            occurrences.append(busy(uid, .instant(start), .instant(end), title: title, location: "\(i)"))
            spans.append((uid, title, start, end))
        }
        let sections = builder("2025-03-01", days: 10, clock: ZoneClock(TimeZone(identifier: "UTC")!))
            .build(occurrences)
        var checked = 0
        for section in sections {
            func number(_ row: AgendaRow) -> Int { Int(section.occurrences[row].location!)! }
            let listed = Set(section.rows.map(number))
            for row in section.rows {
                let i = number(row)
                let a = spans[i]
                let others = spans.indices.filter { j in
                    let b = spans[j]
                    return j != i && b.start < a.end && b.end > a.start
                }
                if row.isFirstListed {
                    let list = try! JSONSerialization.jsonObject(with: Data(section.json(of: row, ways)
                        .utf8)) as! [String]
                    let uids = Set(others.map { spans[$0].uid }).sorted()
                    #expect(list == Array(uids.prefix(NamedOverlaps.uidsListed)), "row \(i)")
                    #expect(section.count(of: row, ways) == uids.count, "row \(i)")
                }
                // The mark: the distinct titles of what overlaps it among its day's rows.
                let titles = Set(others.filter(listed.contains).map { spans[$0].title })
                let mark = section.mark(row, ways)
                let named = titles.sorted().prefix(3).joined(separator: ", ")
                let expected = titles.isEmpty ? "" : titles.count > 3
                    ? "(overlaps \(named) and \(titles.count - 3) more)" : "(overlaps \(named))"
                #expect(mark == expected, "row \(i)")
                checked += 1
            }
        }
        #expect(checked >= count)
    }

    /// A day of thousands of UIDs where each row overlaps only its two
    /// neighbours, in the reverse of their UIDs' order: the lists are still
    /// exact, and sorted, either way of finding them.
    @Test(arguments: [0, 1_000_000]) func aCrowdedDayOfShortOverlapsListsNeighbours(swept: Int) {
        crowdedDayOfShortOverlapsListsNeighbours(ways: answering(swept: swept))
    }

    private func crowdedDayOfShortOverlapsListsNeighbours(ways: NamedOverlaps.Ways) {
        let base = instant("2025-03-03T00:00:00Z")
        let count = 2_000
        func uid(_ i: Int) -> String { "u" + String(repeating: "0", count: 4 - String(i).count) + String(i) }
        // Every 43 s a one-minute event: each runs into the next; UIDs in
        // the reverse of time order, so that a list comes unsorted.
        let occurrences = (0..<count).map { i in
            busy(uid(count - 1 - i), .instant(base + TimeInterval(i * 43)), .instant(base + TimeInterval(i * 43 + 60)),
                location: "\(i)")
        }
        let sections = builder("2025-03-03", days: 1, clock: ZoneClock(TimeZone(identifier: "UTC")!)).build(occurrences)
        var checked = 0
        for row in sections[0].rows {
            let i = Int(sections[0].occurrences[row].location!)!
            let expected = [i + 1, i - 1].filter { (0..<count).contains($0) }.map { uid(count - 1 - $0) }
            let list = try! JSONSerialization.jsonObject(with: Data(sections[0].json(of: row, ways)
                .utf8)) as! [String]
            #expect(list == expected, "row \(i)")
            checked += 1
        }
        #expect(checked == count)
    }
}
