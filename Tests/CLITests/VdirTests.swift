import Foundation
import Testing

/// vdir collections (one folder per calendar, one item per file, as
/// vdirsyncer writes them): one calendar, named by `displayname` or the
/// folder, read joined and listing what its files list one by one.
@Suite struct VdirTests {
    static let fixed = ["--no-config", "--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin", "--locale",
        "en_US"]

    /// A new folder holding `files` (name → text, lines ended with CRLF).
    static func folder(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-vdir-\(UUID().uuidString)")
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true)
            try Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: url)
        }
        return dir
    }

    static func event(_ uid: String, _ summary: String, _ start: String, zone: String? = nil,
        extra: String = "") -> String {
        let dtstart = zone.map { "DTSTART;TZID=\($0):\(start)" } ?? "DTSTART:\(start)"
        return "BEGIN:VEVENT\nUID:\(uid)\nDTSTAMP:20250101T000000Z\nSUMMARY:\(summary)\n\(dtstart)\n\(extra)END:VEVENT\n"
    }

    static func calendar(_ body: String, header: String = "") -> String {
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\n\(header)\(body)END:VCALENDAR\n"
    }

    /// The JSON rows without what names the calendar: what a file lists,
    /// read alone or inside its collection.
    static func rows(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").map { line in
            var object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
            object["calendar"] = nil
            object["source"] = nil
            object["calendar_color"] = nil  // the collection's colour file colours it, not a file read alone
            return String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: .sortedKeys))
                ?? Data(), as: UTF8.self)
        }.sorted()
    }

    /// Every file of the fixture collection read alone lists, together,
    /// what the collection lists joined: nothing lost, nothing moved.
    @Test func aCollectionListsWhatItsFilesListOneByOne() throws {
        let folder = CLI.root.appendingPathComponent("Fixtures/vdir/work")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ics") }
            .sorted()
        #expect(files.count >= 4)
        let joined = try CLI.run(VdirTests.fixed + ["--format", "json", "--days", "30", "-q", "Fixtures/vdir/work"])
        var alone: [String] = []
        for file in files {
            let result = try CLI.run(VdirTests.fixed + ["--format", "json", "--days", "30", "-q",
                "Fixtures/vdir/work/\(file)"])
            alone += VdirTests.rows(result.stdout)
        }
        #expect(!alone.isEmpty)
        #expect(VdirTests.rows(joined.stdout) == alone.sorted())
    }

    /// Files of one item each and no `X-WR-CALNAME`: one calendar named
    /// by the folder, its source the folder above it.
    @Test func oneItemFilesAreOneCalendarNamedByTheFolder() throws {
        let dir = try VdirTests.folder([
            "home/a.ics": VdirTests.calendar(VdirTests.event("a@x", "Gym", "20250303T070000Z")),
            "home/b.ics": VdirTests.calendar(VdirTests.event("b@x", "Piano", "20250304T170000Z")),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["calendars", "--no-config", "--format", "json",
            dir.appendingPathComponent("home").path])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.stdout.contains("\"calendar\":\"home\""))
        #expect(result.stdout.contains("\"source\":\"\(dir.path)\""))
        #expect(result.stdout.contains("\"events\":2"))
        #expect(result.stderr.isEmpty)
    }

    /// `ics-agenda .` inside a collection names it by the folder it is.
    @Test func aCollectionNamedAsDotIsNamedByItsFolder() throws {
        let dir = try VdirTests.folder(["Family/a.ics": VdirTests.calendar(VdirTests.event("a@x", "Gym",
            "20250303T070000Z"))])
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["calendars", "--no-config", "--format", "json", "."]
        process.currentDirectoryURL = dir.appendingPathComponent("Family")
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"]
        let result = try CLI.collect(process)
        #expect(result.stdout.contains("\"calendar\":\"Family\""), "\(result.stdout)")
    }

    /// A file with two UIDs, or one that names its calendar, makes the
    /// folder an ordinary one: each file is its own calendar.
    @Test(arguments: [
        VdirTests.calendar(VdirTests.event("c@x", "One", "20250305T090000Z")
            + VdirTests.event("d@x", "Two", "20250305T100000Z")),
        VdirTests.calendar(VdirTests.event("c@x", "One", "20250305T090000Z"), header: "X-WR-CALNAME:Own name\n"),
    ])
    func aFileOfItsOwnMakesTheFolderNoCollection(_ third: String) throws {
        let dir = try VdirTests.folder([
            "mixed/a.ics": VdirTests.calendar(VdirTests.event("a@x", "Gym", "20250303T070000Z")),
            "mixed/b.ics": VdirTests.calendar(VdirTests.event("b@x", "Piano", "20250304T170000Z")),
            "mixed/c.ics": third,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["calendars", "--no-config", "--format", "json",
            dir.appendingPathComponent("mixed").path])
        #expect(result.stdout.split(separator: "\n").count == 3, "\(result.stdout)")
        #expect(!result.stdout.contains("\"calendar\":\"mixed\""))
    }

    /// `displayname` makes a collection whatever its files hold, and names it;
    /// its files' own `X-WR-CALNAME` do not.
    @Test func aDisplaynameMakesACollectionAndNamesIt() throws {
        let dir = try VdirTests.folder([
            "x/displayname": "Team calendar\n",
            "x/a.ics": VdirTests.calendar(
                VdirTests.event("a@x", "Gym", "20250303T070000Z") + VdirTests.event("b@x", "Run", "20250303T080000Z"),
                    header: "X-WR-CALNAME:Other\n"),
            "x/b.ics": VdirTests.calendar(VdirTests.event("c@x", "Piano", "20250304T170000Z")),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(VdirTests.fixed + ["--format", "json", "--days", "7",
            dir.appendingPathComponent("x").path])
        let calendars = Set(result.stdout.split(separator: "\n").map { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["calendar"] as? String
                ?? "?"
        })
        #expect(calendars == ["Team calendar"])
        #expect(result.stdout.split(separator: "\n").count == 3)
    }

    /// A file of the collection that is cut short, or says `X-WR-TIMEZONE`
    /// (which reaches its whole text), is read alone: its warning names it
    /// and its own line, and its events are still the collection's.
    @Test func aFileThatCannotBeJoinedIsReadAloneInTheCollection() throws {
        let cut = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\n"
            + VdirTests.event("cut@x", "Cut", "20250305T090000Z")
        let floating = VdirTests.calendar(VdirTests.event("f@x", "Floating", "20250306T090000"),
            header: "X-WR-TIMEZONE:America/New_York\n")
        let dir = try VdirTests.folder([
            "c/displayname": "C",
            "c/a.ics": VdirTests.calendar(VdirTests.event("a@x", "Plain floating", "20250304T090000")),
            "c/b.ics": cut,
            "c/f.ics": floating,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(VdirTests.fixed + ["--format", "json", "--days", "7",
            dir.appendingPathComponent("c").path])
        #expect(result.stdout.contains("\"title\":\"Cut\""))
        #expect(result.stdout.contains("\"title\":\"Floating\",\"start\":\"2025-03-06T15:00:00+01:00\""),
            "\(result.stdout)")
        #expect(result.stdout.contains("\"title\":\"Plain floating\",\"start\":\"2025-03-04T09:00:00+01:00\""),
            "\(result.stdout)")
        #expect(result.stderr.contains("c/b.ics:"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    /// Files that define one TZID differently keep each its own
    /// definition when joined; files that repeat it word for word share it.
    @Test func eachFileKeepsItsOwnZoneWhenJoined() throws {
        func zone(_ offset: String) -> String {
            "BEGIN:VTIMEZONE\nTZID:Office\nBEGIN:STANDARD\nDTSTART:19700101T000000\nTZOFFSETFROM:\(offset)\nTZOFFSETTO:\(offset)\nEND:STANDARD\nEND:VTIMEZONE\n"
        }
        let dir = try VdirTests.folder([
            "z/displayname": "Z",
            "z/1.ics": VdirTests.calendar(zone("+0100") + VdirTests.event("1@x", "One", "20250303T090000",
                zone: "Office")),
            "z/2.ics": VdirTests.calendar(zone("+0100") + VdirTests.event("2@x", "Two", "20250304T090000",
                zone: "Office")),
            "z/3.ics": VdirTests.calendar(zone("+0500") + VdirTests.event("3@x", "Three", "20250305T090000",
                zone: "Office")),
            "z/4.ics": VdirTests.calendar(zone("+0100") + VdirTests.event("4@x", "Four", "20250306T090000",
                zone: "Office")),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let joined = try CLI.run(VdirTests.fixed + ["--format", "json", "--days", "7",
            dir.appendingPathComponent("z").path])
        var alone: [String] = []
        for file in ["1", "2", "3", "4"] {
            alone += VdirTests.rows(try CLI.run(VdirTests.fixed
                + ["--format", "json", "--days", "7", dir.appendingPathComponent("z/\(file).ics").path]).stdout)
        }
        #expect(alone.count == 4)
        #expect(VdirTests.rows(joined.stdout) == alone.sorted())
        #expect(joined.stdout.contains("\"start\":\"2025-03-05T05:00:00+01:00\""))
    }

    /// A file that names a TZID it does not define reads it as it would
    /// alone (here: unknown, floating, with a warning), not in another
    /// file's definition.
    @Test func aFileDoesNotBorrowAnotherFilesZone() throws {
        func zone(_ offset: String) -> String {
            "BEGIN:VTIMEZONE\nTZID:Custom\nBEGIN:STANDARD\nDTSTART:19700101T000000\nTZOFFSETFROM:\(offset)\nTZOFFSETTO:\(offset)\nEND:STANDARD\nEND:VTIMEZONE\n"
        }
        let dir = try VdirTests.folder([
            "c/1.ics": VdirTests.calendar(zone("+0500") + VdirTests.event("one@x", "One", "20250303T090000",
                zone: "Custom")),
            "c/2.ics": VdirTests.calendar(zone("-0300") + VdirTests.event("two@x", "Two", "20250303T090000",
                zone: "Custom")),
            "c/3.ics": VdirTests.calendar(VdirTests.event("three@x", "Three", "20250303T090000", zone: "Custom")),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let joined = try CLI.run(VdirTests.fixed + ["--format", "json", "--days", "7",
            dir.appendingPathComponent("c").path])
        var alone: [String] = []
        var warnings: [String] = []
        for file in ["1", "2", "3"] {
            let result = try CLI.run(VdirTests.fixed + ["--format", "json", "--days", "7",
                dir.appendingPathComponent("c/\(file).ics").path])
            alone += VdirTests.rows(result.stdout)
            warnings += result.stderr.split(separator: "\n").map(String.init)
        }
        #expect(VdirTests.rows(joined.stdout) == alone.sorted())
        #expect(joined.stderr.split(separator: "\n").map(String.init) == warnings)
        #expect(joined.stderr.contains("c/3.ics:"), "\(joined.stderr)")
    }

    /// What zones may cost is counted per file, not for the collection:
    /// thousands of files that each define a costly zone (two texts, in
    /// turn) are valid, and --strict passes.
    @Test func zoneCostIsCountedPerFile() throws {
        // A zone with a rule from 1601, as Outlook writes it: about 870 onsets.
        func zone(_ extra: String) -> String {
            "BEGIN:VTIMEZONE\nTZID:Customized Time Zone\n\(extra)BEGIN:STANDARD\nDTSTART:16011028T030000\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\nTZOFFSETFROM:+0200\nTZOFFSETTO:+0100\nEND:STANDARD\nBEGIN:DAYLIGHT\nDTSTART:16010325T020000\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0200\nEND:DAYLIGHT\nEND:VTIMEZONE\n"
        }
        var files: [String: String] = ["many/displayname": "Many"]
        for i in 0..<600 {
            files["many/\(i).ics"] = VdirTests.calendar(
                zone(i % 2 == 0 ? "" : "X-NOTE:\(i)\n") + VdirTests.event("e\(i)@x", "Event \(i)", "20250303T090000",
                    zone: "Customized Time Zone"))
        }
        let dir = try VdirTests.folder(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(VdirTests.fixed + ["--strict", "--days", "7", dir.appendingPathComponent("many").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.components(separatedBy: "Event ").count == 601)
    }

    /// A folder named like a marker (`color/`) is a folder: its calendars are read.
    @Test func aFolderNamedLikeAMarkerIsReadAsAFolder() throws {
        let dir = try VdirTests.folder([
            "root/color/a.ics": VdirTests.calendar(VdirTests.event("a@x", "In color", "20250303T070000Z")),
            "root/work/b.ics": VdirTests.calendar(VdirTests.event("b@x", "At work", "20250304T170000Z")),
            "root/work/displayname": "\u{FEFF}Work\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["calendars", "--no-config", "--format", "json",
            dir.appendingPathComponent("root").path])
        #expect(result.stdout.contains("\"calendar\":\"color\""), "\(result.stdout)")
        #expect(result.stdout.contains("\"calendar\":\"Work\""), "\(result.stdout)")
    }

    /// A folder's calendar files are `.ics` and `.ical` in any case, and are
    /// read in name order however many there are: each warning here is in
    /// the order of the names that tell it (capitals before small letters,
    /// as Swift orders strings).
    @Test func aFolderReadsItsCalendarFilesInNameOrder() throws {
        var files: [String: String] = [
            "f/keep.ICS": VdirTests.calendar(VdirTests.event("k@x", "Upper case", "20250303T090000Z")),
            "f/keep.Ical": VdirTests.calendar(VdirTests.event("i@x", "Ical", "20250303T100000Z")),
            "f/skip.ics.bak": VdirTests.calendar(VdirTests.event("b@x", "Backup", "20250303T110000Z")),
            "f/skip.icsx": VdirTests.calendar(VdirTests.event("x@x", "Not ics", "20250303T120000Z")),
        ]
        var names: [String] = []
        for i in 0..<80 {
            // Names that share their first 8 bytes, and names that differ in them.
            let name = (i % 3 == 0 ? "Same-prefix-" : i % 3 == 1 ? "same-prefix-" : "\(i * 7919 % 97)-") + "\(i * 31 % 80)"
            names.append(name + ".ics")
            files["f/\(name).ics"] = VdirTests.calendar("BEGIN:VEVENT\nUID:w\(i)@x\nSUMMARY:No start\nEND:VEVENT\n")
        }
        let dir = try VdirTests.folder(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(VdirTests.fixed + ["--days", "7", dir.appendingPathComponent("f").path])
        #expect(result.stdout.contains("Upper case") && result.stdout.contains("Ical"), "\(result.stdout)")
        #expect(!result.stdout.contains("Backup") && !result.stdout.contains("Not ics"), "\(result.stdout)")
        let told = result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let slash = line.range(of: "/f/"), let colon = line[slash.upperBound...].firstIndex(of: ":") else {
                return nil
            }
            return String(line[slash.upperBound..<colon])
        }
        #expect(told == names.sorted(), "\(result.stderr)")
    }
}
