import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Bad input through the command line: folders with things that are not
/// calendars, files that cannot be read, symlink loops, and --strict.
@Suite struct BadInputTests {
    static let fixed = ["--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin", "--locale", "en_US"]

    /// A folder holding one good calendar and everything else a real one may hold.
    static func messyFolder() throws -> URL {
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent("ics-agenda-messy-\(UUID().uuidString)")
        try fm.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try fm.copyItem(at: CLI.root.appendingPathComponent("Fixtures/event_dt_simple.ics"),
            to: dir.appendingPathComponent("good.ics"))
        try fm.copyItem(at: CLI.root.appendingPathComponent("Fixtures/broken_dates.ics"),
            to: dir.appendingPathComponent("sub/damaged.ics"))
        try fm.copyItem(at: CLI.root.appendingPathComponent("Fixtures/not_calendar.html"),
            to: dir.appendingPathComponent("login.ics"))
        try "not a calendar, and not named like one\n".write(to: dir.appendingPathComponent("notes.txt"),
            atomically: true, encoding: .utf8)
        try fm.copyItem(at: CLI.root.appendingPathComponent("Fixtures/event_d_allday.ics"),
            to: dir.appendingPathComponent("sub/locked.ics"))
        chmod(dir.appendingPathComponent("sub/locked.ics").path, 0)
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("sub/loop").path, withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("gone.ics").path,
            withDestinationPath: "/nonexistent/calendar.ics")
        mkfifo(dir.appendingPathComponent("pipe.ics").path, 0o644)
        return dir
    }

    /// Runs the binary; as root, as the user nobody, so that a file with no
    /// permissions really cannot be read.
    func run(_ arguments: [String]) throws -> CLI.Result {
        if getuid() != 0 { return try CLI.run(arguments) }
        return try CLI.run(["--reuid=65534", "--regid=65534", "--clear-groups", CLI.binary.path] + arguments,
            executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
    }

    @Test func aMessyFolderIsReadWithAWarningForEachThingSkipped() throws {
        let dir = try BadInputTests.messyFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        chmod(dir.path, 0o755)
        chmod(dir.appendingPathComponent("sub").path, 0o755)
        let result = try run(BadInputTests.fixed + ["--format", "json", dir.path])
        #expect(result.status == 0)
        let titles = Set(result.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["title"] as? String
        })
        #expect(titles.isSuperset(of: ["Dentist", "Good event 1", "Good event 2",
            "Daily series with a bad EXDATE and RDATE"]), "\(titles)")
        let warnings = result.stderr.split(separator: "\n").map(String.init)
        for expected in ["gone.ics: a broken symbolic link",
            "login.ics: not an iCalendar file: it looks like an HTML page",
            "pipe.ics: not a regular file", "sub/locked.ics: permission denied; skipped", "sub/damaged.ics:18: DTSTART"]
        {
            #expect(warnings.contains { $0.contains(expected) }, "no warning about \(expected): \(result.stderr)")
        }
        // The loop is followed once: each file is read once.
        #expect(warnings.filter { $0.contains("damaged.ics:18:") }.count == 1)
        #expect(!result.stderr.contains("notes.txt"))
    }

    @Test func strictFailsOnAnyDamageAndPrintsNoAgenda() throws {
        let damaged = try CLI.run(BadInputTests.fixed + ["--strict", "Fixtures/broken_dates.ics"])
        #expect(damaged.status == 65 && damaged.stdout.isEmpty)
        #expect(damaged.stderr.hasSuffix("ics-agenda: 7 problems in the input (--strict); no agenda printed\n"))
        let clean = try CLI.run(BadInputTests.fixed + ["--strict", "Fixtures/sample.ics"])
        #expect(clean.status == 0 && !clean.stdout.isEmpty && clean.stderr.isEmpty)
        let dir = try BadInputTests.messyFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = try run(BadInputTests.fixed + ["--strict", dir.path])
        #expect(folder.status == 66 && folder.stdout.isEmpty, "\(folder)")
        // What is skipped is told as in the other modes, every one of it, then counted (the
        // damaged file's 7 problems and login.ics, not iCalendar; a link, a pipe, a locked file).
        let told = try run(BadInputTests.fixed + [dir.path]).stderr.split(separator: "\n")
        let strictLines = folder.stderr.split(separator: "\n")
        #expect(Set(strictLines.dropLast()) == Set(told), "\(folder.stderr)")
        #expect(strictLines.last == "ics-agenda: 3 files or folders could not be read, 8 problems in the input (--strict); no agenda printed")
    }

    @Test func aNamedFileThatCannotBeReadIsStatus66() throws {
        let dir = try BadInputTests.messyFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try run(BadInputTests.fixed + [dir.appendingPathComponent("sub/locked.ics").path])
        #expect(result.status == 66)
        #expect(result.stderr.hasSuffix("locked.ics: permission denied\n"))
    }
}
