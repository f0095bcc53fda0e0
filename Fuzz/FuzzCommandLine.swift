// libFuzzer entry point over the command line: arguments → RootCommand's
// parsing and validation (ArgumentParser and ours) → the chosen command
// (agenda, next, free, calendars, help) with its settings, grouping and
// formatter, on one of a few fixed calendars. The calendars themselves are
// FuzzLoader's: here the options and the formatters are what varies.
//
// An input is: one byte choosing the calendar (`FuzzCommandLine.calendars`),
// then the arguments, separated by NUL or line feed. The chosen calendar's
// path is put after them, so that it is an INPUT.
//
// Compiled with the ics-agenda sources (their @main renamed away) by
// scripts/fuzz.sh command-line. Standard output and input are /dev/null;
// the working directory is a folder holding only the calendars, and an
// argument naming anything outside it (a "/" or "..") is dropped.
// A crash, a sanitizer report or an input slower than -timeout is a finding;
// a usage error, a missing file or any other thrown error is the command
// doing its job.
import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

enum FuzzCommandLine {
    /// Fixtures that between them show every kind of row: timed, all-day,
    /// multi-day, recurring, cancelled, reminders (due, undated, overdue),
    /// overlaps, DST changes, long and unusual text.
    static let calendars = [
        "sample.ics", "event_overlaps_crowded.ics", "todo_due.ics", "event_dt_multiday.ics", "event_dt_dst.ics",
        "event_dt_line_breaks.ics", "event_dt_rr_monthly_ordinals.ics", "event_free_dst.ics",
    ]

    /// The folder the commands run in: the calendars as c0.ics, c1.ics, ...
    nonisolated(unsafe) static var folder: String? = nil

    static func prepare() {
        let fixtures = URL(fileURLWithPath: "Fixtures")
        let made = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ics-agenda-fuzz-cli-\(getpid())")
        try? FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        for (n, name) in calendars.enumerated() {
            guard let data = try? Data(contentsOf: fixtures.appendingPathComponent(name)) else {
                fatalError("fuzz: run from the repository's root (Fixtures/\(name) not found)")
            }
            try? data.write(to: made.appendingPathComponent("c\(n).ics"))
        }
        _ = FileManager.default.changeCurrentDirectoryPath(made.path)
        folder = made.path
        let null = open("/dev/null", O_RDWR)
        dup2(null, 0)
        dup2(null, 1)
        close(null)
        setenv("ICS_AGENDA_CONFIG", "/dev/null", 1)
        setenv("ICS_AGENDA_NOW", "2025-03-01T08:00:00+01:00", 1)
        setenv("ICS_AGENDA_THREADS", "1", 1)
        setenv("TZ", "Europe/Berlin", 1)
        setenv("LANG", "en_US.UTF-8", 1)
        unsetenv("NO_COLOR")
    }

    /// The arguments of an input, and the calendar put after them.
    static func arguments(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        guard let first = bytes.first else { return [] }
        var arguments: [String] = []
        for piece in bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false).flatMap({ $0.split(separator: 0x0A) }).prefix(32) {
            let argument = String(decoding: piece.prefix(256), as: UTF8.self)
            if argument.contains("/") || argument.contains("..") { continue }
            arguments.append(argument)
        }
        arguments.append("c\(Int(first) % calendars.count).ics")
        return arguments
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if FuzzCommandLine.folder == nil { FuzzCommandLine.prepare() }
    let arguments = FuzzCommandLine.arguments(UnsafeBufferPointer(start: data, count: size))
    do {
        var command = try RootCommand.parseAsRoot(arguments)
        if let agenda = command as? ICSAgenda {
            try agenda.printAgenda()
        } else {
            try command.run()
        }
    } catch {
        // What the user would read: the message and the status.
        _ = RootCommand.fullMessage(for: error)
        _ = RootCommand.exitCode(for: error)
    }
    return 0
}
