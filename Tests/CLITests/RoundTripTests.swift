import Foundation
import Testing

/// `--format ics` keeps every instant and every item: for every fixture
/// (and a sample of the shared corpus, when it is beside the repository),
/// in windows and zones with and without DST, the JSON of its ICS output
/// is the JSON of the input itself, key for key but `source`.
@Suite struct RoundTripTests {
    static let fixtures: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: CLI.root.appendingPathComponent("Fixtures")
            .path)) ?? []
        return names.filter { $0.hasSuffix(".ics") }.sorted().map { "Fixtures/\($0)" }
    }()

    /// Several inputs at once: one UID in two calendars, the same file twice, a folder.
    static let combinations = [
        "Fixtures/sample.ics Fixtures/event_dt_simple.ics Fixtures/sample.ics",
        "Fixtures/accounts Fixtures/event_dt_duplicate_uid_sequence.ics",
        "Fixtures/event_dt_rr_recuid.ics Fixtures/event_dt_thisandfuture.ics Fixtures/event_dt_rr_recuid.ics",
        "Fixtures/event_dt_dst.ics Fixtures/event_dt_dst_gap_overlap.ics Fixtures/todo_due.ics",
        "Fixtures/event_dt_fall_back_hour.ics Fixtures/event_dt_shared_uid.ics",
    ]

    /// Corpus files with zones, overrides, DST and reminders (used when `../shared/corpus` is there).
    static let corpus = [
        "python-recurring-ical-events/daylight_saving_time.ics",
        "python-recurring-ical-events/fablab_cottbus.ics",
        "python-recurring-ical-events/Germany.ics",
        "ical4j/samples/valid/calconnect7.ics",
        "ical4j/samples/valid/google_aus_holidays.ics",
        "icalendar/tests/calendars/issue_156_RDATE_with_PERIOD_TZID_khal.ics",
        "golang-ical/rfc5545sec4/input3.ics",
    ].map { "../shared/corpus/" + $0 }
        .filter { FileManager.default.fileExists(atPath: CLI.root.appendingPathComponent($0).path) }

    /// (now, --from, --to, zone): the default year, a week around October's
    /// change of clocks, and thirty years.
    static let settings: [(String, String?, String?, String)] = [
        ("2025-03-01T08:00:00+01:00", nil, nil, "Europe/Berlin"),
        ("2025-01-01T00:00:00Z", "2025-10-24", "2025-11-04", "America/New_York"),
        ("2025-01-01T00:00:00Z", "2025-10-19", "2025-10-28", "Europe/Berlin"),
        ("2025-01-01T00:00:00Z", "2000-01-01", "2030-12-31", "Australia/Lord_Howe"),
    ]

    static func lines(_ text: String) throws -> [[String: AnyHashable]] {
        // Split as bytes: a split by Character (grapheme clusters) was most of this test's own time.
        try text.utf8.split(separator: UInt8(ascii: "\n")).map { line in
            var object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            object["source"] = nil
            return object.mapValues { ($0 as? AnyHashable) ?? AnyHashable(String(describing: $0)) }
        }
    }

    /// The JSON Lines' bytes with every `"source"` value taken out. Inside a
    /// JSON string a quote is escaped, so `,"source":"` only starts that key.
    static func withoutSource(_ text: String) -> [UInt8] {
        let marker = Array(#","source":""#.utf8), bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == marker[0] && bytes[i...].starts(with: marker) {
                i += marker.count
                while i < bytes.count && bytes[i] != UInt8(ascii: "\"") { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
                i += 1
                continue
            }
            out.append(bytes[i])
            i += 1
        }
        return out
    }

    @Test func sourceIsTakenOutAndNothingElse() {
        let line = #"{"title":"a,\"source\":\"b","source":"x\"y","due":null}"#
        #expect(RoundTripTests.withoutSource(line) == Array(#"{"title":"a,\"source\":\"b","due":null}"#.utf8))
    }

    @Test(arguments: fixtures + combinations + corpus)
    func icsOutputReadBackPrintsTheSameJSON(_ inputs: String) throws {
        let paths = inputs.split(separator: " ").map(String.init)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-roundtrip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // make test: one setting for each fixture, in turn, every setting for
        // the combinations and the corpus (make check-all: every one for all).
        let settings = RoundTripTests.fixtures.contains(inputs)
            ? FullChecks.sample(RoundTripTests.settings, every: 4,
                seed: RoundTripTests.fixtures.firstIndex(of: inputs) ?? 0) : RoundTripTests.settings
        for (now, from, to, zone) in settings {
            var options = ["--now", now, "--tz", zone, "--locale", "en_US", "--show-cancelled", "--completed"]
            if let from, let to { options += ["--from", from, "--to", to] }
            let direct = try CLI.run(options + ["--format", "json"] + paths)
            // Not iCalendar, or nothing listed: nothing is written (an empty agenda prints nothing in any format).
            guard direct.status == 0, !direct.stdout.isEmpty else { continue }
            let ics = try CLI.run(options + ["--format", "ics"] + paths)
            #expect(ics.status == 0)
            let file = dir.appendingPathComponent("out.ics")
            try ics.stdout.write(to: file, atomically: true, encoding: .utf8)
            let back = try CLI.run(options + ["--format", "json", file.path])
            #expect(back.stderr.isEmpty, "\(inputs) in \(zone): \(back.stderr)")
            // The same text but `source` is the same objects (one formatter wrote both): no need to
            // compare them key by key; each line must still be a JSON object.
            if RoundTripTests.withoutSource(back.stdout) == RoundTripTests.withoutSource(direct.stdout) {
                for text in [direct.stdout, back.stdout] {
                    for line in text.utf8.split(separator: UInt8(ascii: "\n")) {
                        #expect((try? JSONSerialization.jsonObject(with: Data(line))) is [String: Any],
                            "\(inputs) in \(zone): not JSON")
                    }
                }
                continue
            }
            let expected = try RoundTripTests.lines(direct.stdout), actual = try RoundTripTests.lines(back.stdout)
            #expect(actual.count == expected.count, "\(inputs) in \(zone) from \(from ?? now)")
            for (a, e) in zip(actual, expected) where a != e {
                #expect(a == e, "\(inputs) in \(zone) from \(from ?? now)")
                break
            }
        }
    }
    /// What `alarms` and `--me` read survives too: the alarms that ring over
    /// the ICS output are those that ring over the input, and my answers
    /// (partstat, declined meetings) read back the same.
    @Test(arguments: ["Fixtures/alarms/alarms.ics", "Fixtures/alarms/reach.ics", "Fixtures/alarms/edges.ics",
        "Fixtures/alarms/revisions.ics", "Fixtures/meetings"])
    func alarmsAndMyAnswersSurvive(_ input: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-roundtrip-alarms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let options = ["--no-config", "--tz", "Europe/Berlin", "--locale", "en_US", "--me", "me@example.com",
            "--show-declined"]
        let ics = try CLI.run(options + ["--now", "2025-01-01T00:00:00Z", "--format", "ics", input])
        #expect(ics.status == 0 && !ics.stdout.isEmpty)
        let file = dir.appendingPathComponent("out.ics")
        try ics.stdout.write(to: file, atomically: true, encoding: .utf8)
        let agenda = ["--now", "2025-01-01T00:00:00Z", "--format", "json"]
        #expect(RoundTripTests.withoutSource(try CLI.run(options + agenda + [file.path]).stdout)
            == RoundTripTests.withoutSource(try CLI.run(options + agenda + [input]).stdout))
        func alarms(_ path: String, _ name: String) throws -> CLI.Result {
            try CLI.run(["alarms", "--state", dir.appendingPathComponent(name).path, "--since", "2025-03-01T00:00:00Z",
                "--now", "2025-04-30T00:00:00Z", "--format", "json"] + options + [path])
        }
        let direct = try alarms(input, "direct"), back = try alarms(file.path, "back")
        #expect(back.stderr.isEmpty, "\(back.stderr)")
        #expect(RoundTripTests.withoutSource(back.stdout) == RoundTripTests.withoutSource(direct.stdout))
        #expect(input.hasSuffix("meetings") || !direct.stdout.isEmpty, "the fixture's alarms ring in the span")
    }
    /// A series' absolute alarm is written once, with the instance it is
    /// for, not with every instance: another program would ring each.
    @Test func aSeriesAbsoluteAlarmIsWrittenOnce() throws {
        let ics = try CLI.run(["--no-config", "--tz", "Europe/Berlin", "--locale", "en_US", "--now",
            "2025-03-01T00:00:00Z", "--format", "ics",
            "Fixtures/alarms/revisions.ics"])
        let daily = ics.stdout.components(separatedBy: "TRIGGER;VALUE=DATE-TIME:20250329T083000Z").count - 1
        #expect(daily == 1 && ics.stdout.components(separatedBy: "UID:daily@example.com").count - 1 == 20)
    }
}
