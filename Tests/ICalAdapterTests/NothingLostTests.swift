import AgendaCore
import Foundation
import ICalAdapter
import Testing

/// "Nothing lost": take a good calendar, damage one component at a time in
/// each way real files are damaged, and check that every other component
/// still appears with exactly the same occurrences; where the damage can be
/// mended, the damaged component is still listed too.
@Suite struct NothingLostTests {
    /// One component of the good calendar: its UID (the series it belongs
    /// to) and its content lines.
    struct Component {
        let uid: String
        let lines: [String]
        var isTimezone: Bool { lines.first == "BEGIN:VTIMEZONE" }
    }

    static let good: [Component] = [
        Component(uid: "tz", lines: [
            "BEGIN:VTIMEZONE", "TZID:Fixed Plus Three", "BEGIN:STANDARD", "DTSTART:19700101T000000",
                "TZOFFSETFROM:+0300",
            "TZOFFSETTO:+0300", "END:STANDARD", "END:VTIMEZONE",
        ]),
        Component(uid: "a", lines: [
            "BEGIN:VEVENT", "UID:a", "SUMMARY:Planning", "DTSTART:20250303T090000Z", "DTEND:20250303T100000Z",
                "END:VEVENT",
        ]),
        Component(uid: "b", lines: [
            "BEGIN:VEVENT", "UID:b", "SUMMARY:Weekly review", "DTSTART;TZID=Europe/Berlin:20250304T100000",
            "DTEND;TZID=Europe/Berlin:20250304T110000", "RRULE:FREQ=WEEKLY;COUNT=4", "END:VEVENT",
        ]),
        Component(uid: "b", lines: [
            "BEGIN:VEVENT", "UID:b", "SUMMARY:Weekly review (moved)",
                "RECURRENCE-ID;TZID=Europe/Berlin:20250311T100000",
            "DTSTART;TZID=Europe/Berlin:20250311T140000", "DTEND;TZID=Europe/Berlin:20250311T150000", "END:VEVENT",
        ]),
        Component(uid: "c", lines: [
            "BEGIN:VEVENT", "UID:c", "SUMMARY:Conference", "DTSTART;VALUE=DATE:20250305", "DTEND;VALUE=DATE:20250307",
                "END:VEVENT",
        ]),
        Component(uid: "d", lines: [
            "BEGIN:VEVENT", "UID:d", "SUMMARY:Call with Moscow", "DTSTART;TZID=Fixed Plus Three:20250306T120000",
                "DURATION:PT30M",
            "END:VEVENT",
        ]),
        Component(uid: "e", lines: [
            "BEGIN:VEVENT", "UID:e", "SUMMARY:Floating breakfast", "DTSTART:20250306T080000", "BEGIN:VALARM",
                "ACTION:DISPLAY",
            "TRIGGER:-PT10M", "END:VALARM", "END:VEVENT",
        ]),
        Component(uid: "f", lines: [
            "BEGIN:VTODO", "UID:f", "SUMMARY:Send the report", "DUE;VALUE=DATE:20250307", "PRIORITY:1", "END:VTODO",
        ]),
        Component(uid: "g", lines: [
            "BEGIN:VEVENT", "UID:g", "SUMMARY:Morning run", "DTSTART:20250310T060000Z", "RRULE:FREQ=DAILY;COUNT=5",
            "EXDATE:20250312T060000Z", "END:VEVENT",
        ]),
        Component(uid: "h", lines: [
            "BEGIN:VTODO", "UID:h", "SUMMARY:Renew passport", "DTSTART;VALUE=DATE:20250317", "DUE;VALUE=DATE:20250320",
                "END:VTODO",
        ]),
    ]

    /// A way to damage one component: its lines in, its bytes out.
    struct Damage: CustomTestStringConvertible, Sendable {
        let name: String
        /// Whether the damaged component itself must still be listed.
        let keepsComponent: Bool
        /// Whether it must be warned about, whatever the component.
        var warns = true
        /// The component is moved to the end and the file cut inside it.
        var truncates = false
        let apply: @Sendable ([String]) -> [UInt8]
        var testDescription: String { name }
    }

    static func crlf(_ lines: [String]) -> [UInt8] { Array(lines.map { $0 + "\r\n" }.joined().utf8) }

    /// Replaces the line starting with `prefix` (or inserts before the last line).
    static func replacing(_ prefix: String, with new: [String], in lines: [String]) -> [String] {
        var out = lines
        if let i = out.firstIndex(where: { $0.hasPrefix(prefix) }) {
            out.replaceSubrange(i...i, with: new)
        } else {
            out.insert(contentsOf: new, at: out.count - 1)
        }
        return out
    }

    static func insertingBeforeEnd(_ new: [String], in lines: [String]) -> [String] {
        var out = lines
        out.insert(contentsOf: new, at: out.count - 1)
        return out
    }

    static let damages: [Damage] = [
        // The file ends in the middle of the component's last line.
        Damage(name: "truncated file", keepsComponent: true, truncates: true) { lines in
            let body = Array(lines.dropLast()), last = body.last!
            return crlf(Array(body.dropLast())) + Array(last.prefix(last.count / 2 + 1).utf8)
        },
        Damage(name: "missing END line", keepsComponent: true) { crlf(Array($0.dropLast())) },
        Damage(name: "BEGIN without END", keepsComponent: true) { crlf(insertingBeforeEnd(["BEGIN:VALARM",
            "ACTION:DISPLAY"], in: $0)) },
        Damage(name: "END without BEGIN", keepsComponent: true) { crlf(insertingBeforeEnd(["END:VALARM",
            "END:X-NOTHING"], in: $0)) },
        Damage(name: "deeply nested BEGIN", keepsComponent: true) {
            crlf(insertingBeforeEnd(Array(repeating: "BEGIN:X-DEEP", count: 200)
                + Array(repeating: "END:X-DEEP", count: 200), in: $0))
        },
        Damage(name: "bad date", keepsComponent: false) { lines in
            crlf(lines.map { $0.hasPrefix("DTSTART") || $0.hasPrefix("DUE") ? "DTSTART:20251332T250000" : $0 })
        },
        Damage(name: "bad RRULE part",
            keepsComponent: true) { crlf(insertingBeforeEnd(["RRULE:FREQ=WEEKLY;BYDAY=MO,XX;UNTIL=soon"], in: $0)) },
        Damage(name: "unknown TZID", keepsComponent: true, warns: false) { lines in
            crlf(lines.map { $0.hasPrefix("DTSTART:") && $0.count == 24 ? "DTSTART;TZID=Nowhere/Special:"
                + $0.dropFirst(8).dropLast() : $0 })
        },
        Damage(name: "Latin-1 text", keepsComponent: true) { lines in
            var bytes: [UInt8] = []
            for line in insertingBeforeEnd(["LOCATION:Café Müller"], in: lines) {
                bytes += line.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } + [0x0D, 0x0A]
            }
            return bytes
        },
        Damage(name: "byte-order mark inside", keepsComponent: true, warns: false) { lines in
            [0xEF, 0xBB, 0xBF] + crlf(lines)
        },
        Damage(name: "LF-only lines", keepsComponent: true, warns: false) { Array($0.map { $0 + "\n" }.joined().utf8) },
        Damage(name: "fold inside a UTF-8 sequence", keepsComponent: true, warns: false) { lines in
            crlf(insertingBeforeEnd(["DESCRIPTION:Gr\u{FC}\u{DF}e"], in: lines))
                .split(separator: 0xBC, maxSplits: 1, omittingEmptySubsequences: false)
                .map(Array.init).joined(separator: [0x0D, 0x0A, 0x20, 0xBC]).map { $0 }
        },
        Damage(name: "line of megabytes", keepsComponent: true, warns: false) {
            crlf(insertingBeforeEnd(["DESCRIPTION:" + String(repeating: "long ", count: 400_000)], in: $0))
        },
        Damage(name: "duplicate UID", keepsComponent: true, warns: false) { crlf($0) + crlf($0) },
        Damage(name: "override without master", keepsComponent: true, warns: false) { lines in
            let start = lines.first { $0.hasPrefix("DTSTART") || $0.hasPrefix("DUE") } ?? "DTSTART:20250303T090000Z"
            let value = start.split(separator: ":", maxSplits: 1).last.map(String.init) ?? ""
            return crlf(replacing("UID:", with: ["UID:orphan-\(UUID().uuidString)", "RECURRENCE-ID:" + value],
                in: lines))
        },
        Damage(name: "NUL bytes", keepsComponent: true) { lines in
            var bytes = crlf(lines)
            // inside the first value
            if let i = bytes.firstIndex(of: 0x3A) { bytes.insert(contentsOf: [0, 0], at: i + 2) }
            return bytes + [0, 0, 0]
        },
        // Rules warn only where they apply (not in an override).
        Damage(name: "rule that never matches", keepsComponent: true, warns: false) {
            crlf(insertingBeforeEnd(["RRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30"], in: $0))
        },
        Damage(name: "rule of absurd size", keepsComponent: true,
            warns: false) { crlf(insertingBeforeEnd(["RRULE:FREQ=SECONDLY"], in: $0)) },
        Damage(name: "COUNT of billions from 1900", keepsComponent: true, warns: false) {
            crlf(insertingBeforeEnd(["RRULE:FREQ=MINUTELY;BYHOUR=3;COUNT=2000000000", "RDATE:19000101T030000Z"],
                in: $0))
        },
    ]

    /// The calendar with component `damaged` damaged by `damage`.
    static func calendar(damaging damaged: Int? = nil, with damage: Damage? = nil) -> [UInt8] {
        var order = Array(good.indices)
        if let damaged, damage?.truncates == true {
            order.removeAll { $0 == damaged }
            order.append(damaged)
        }
        var bytes = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ics-agenda//nothing lost//EN\r\n".utf8)
        for i in order {
            if i == damaged, let damage {
                let part = damage.apply(good[i].lines)
                if damage.truncates { return bytes + part }
                bytes += part
            } else {
                bytes += crlf(good[i].lines)
            }
        }
        return bytes + Array("END:VCALENDAR\r\n".utf8)
    }

    /// Each UID's occurrences as text, sorted.
    static func occurrences(_ loaded: LoadedCalendar) -> [String: [String]] {
        let iso = ISOTime(clock: berlinClock)
        var byUID: [String: [String]] = [:]
        for o in loaded.occurrences {
            let text = [o.start, o.end, o.due, o.recurrenceID].map { $0.map(iso.string) ?? "-" }.joined(separator: " ")
                + " " + o.title
            byUID[o.uid, default: []].append(text)
        }
        return byUID.mapValues { $0.sorted() }
    }

    static func load(_ bytes: [UInt8]) throws -> LoadedCalendar {
        try CalendarLoader(window: march).load(bytes, path: "good.ics", defaultName: "good", source: ".")
    }

    @Test func theGoodCalendarIsReadWithoutWarnings() throws {
        let loaded = try NothingLostTests.load(NothingLostTests.calendar())
        #expect(loaded.diagnostics.isEmpty)
        let byUID = NothingLostTests.occurrences(loaded)
        #expect(Set(byUID.keys) == ["a", "b", "c", "d", "e", "f", "g", "h"])
        #expect(byUID["b"]?.count == 4 && byUID["g"]?.count == 4)
    }

    static var cases: [(Int, Damage)] {
        good.indices.filter { !good[$0].isTimezone }.flatMap { i in damages.map { (i, $0) } }
    }

    @Test(arguments: cases)
    func damagingOneComponentLosesNothingElse(_ index: Int, _ damage: Damage) throws {
        let baseline = NothingLostTests.occurrences(try NothingLostTests.load(NothingLostTests.calendar()))
        var result: LoadedCalendar? = nil
        let took = try cpuTime { result = try NothingLostTests.load(NothingLostTests.calendar(damaging: index,
            with: damage)) }
        let loaded = try #require(result)
        let after = NothingLostTests.occurrences(loaded)
        let damagedUID = NothingLostTests.good[index].uid
        for (uid, expected) in baseline where uid != damagedUID {
            #expect(after[uid] == expected, "\(damage.name) in component \(index) changed \(uid)")
        }
        if damage.keepsComponent {
            let listed = damage.name == "override without master"
                ? loaded.occurrences.contains { $0.uid.hasPrefix("orphan-") } : after[damagedUID] != nil
            #expect(listed, "\(damage.name) lost component \(index) itself")
        }
        if damage.warns {
            #expect(!loaded.diagnostics.isEmpty, "\(damage.name) in component \(index): no warning")
        }
        #expect(took < .seconds(3), "\(damage.name) in component \(index) took \(took)")
    }

    /// Damage to the whole file: a byte-order mark, LF line ends, UTF-16.
    @Test func wholeFileEncodingsLoseNothing() throws {
        let good = NothingLostTests.calendar()
        let baseline = NothingLostTests.occurrences(try NothingLostTests.load(good))
        let text = String(decoding: good, as: UTF8.self)
        let variants: [(String, [UInt8])] = [
            ("BOM", [0xEF, 0xBB, 0xBF] + good),
            ("LF", Array(text.replacingOccurrences(of: "\r\n", with: "\n").utf8)),
            ("UTF-16LE with BOM", [0xFF, 0xFE] + Array(text.data(using: .utf16LittleEndian)!)),
            ("UTF-16BE without BOM", Array(text.data(using: .utf16BigEndian)!)),
        ]
        for (name, bytes) in variants {
            let loaded = try NothingLostTests.load(bytes)
            #expect(NothingLostTests.occurrences(loaded) == baseline, "\(name)")
            #expect(loaded.diagnostics.isEmpty, "\(name): \(loaded.diagnostics)")
        }
    }
}
