import Foundation
import Testing

/// The alarms recipe's cron line (docs/RECIPES.md), tried for real: a session bus started for the
/// test (`dbus-run-session`), a notification server on it
/// (`scripts/notification_server.py`), and `notify-send` run by
/// `alarms --exec` from the bare environment cron gives its jobs. Without
/// the bus's address notify-send fails (and the warning says so); with
/// `DBUS_SESSION_BUS_ADDRESS`, as the recipe's line sets it, each alarm is
/// one notification. `.ci/run` installs dbus, libnotify-bin and dbus-next.
@Suite struct NotificationTests {
    static let python = ProcessInfo.processInfo.environment["ICS_AGENDA_RADICALE_PYTHON"]
        ?? CLI.root.appendingPathComponent(".venv-servers/bin/python").path
    static let available: Bool = {
        let tools = ["/usr/bin/notify-send",
            "/usr/bin/dbus-run-session"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
        guard tools, FileManager.default.isExecutableFile(atPath: python) else { return false }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["-c", "import dbus_next"]
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }()

    @Test(.enabled(if: available, "needs notify-send, dbus-run-session and dbus-next (make test, .ci/run)"))
    func notifySendFromCronNeedsTheSessionBusAndThenNotifies() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ics-agenda-notify-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let record = folder.appendingPathComponent("notifications"), ready = folder.appendingPathComponent("ready")
        func alarms(_ state: String, _ bus: String) -> String {
            // cron's environment: PATH and HOME, no session bus, no display.
            "env -i PATH=/usr/bin:/bin HOME=\(folder.path) \(bus) '\(CLI.binary.path)' alarms --no-config --state \(folder.path)/\(state)"
                + " --tz Europe/Berlin --locale en_US --now 2025-03-29T08:50:30+01:00"
                + " --exec 'notify-send -a ics-agenda -- {title} {when}' '\(CLI.root.path)/Fixtures/alarms/alarms.ics'"
        }
        let output = folder.appendingPathComponent("output")
        // Everything goes to a file, not a pipe: a bus daemon left behind
        // would hold a pipe open, and the test would wait for ever. The
        // server stops by itself; the daemon is stopped at the end.
        let script = """
            exec > '\(output.path)' 2>&1
            '\(NotificationTests.python)' '\(CLI.root.path)/scripts/notification_server.py' '\(record.path)' '\(ready.path)' 20 &
            server=$!
            for i in $(seq 100); do [ -s '\(ready.path)' ] && break; sleep 0.1; done
            daemon=$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \\
                --method org.freedesktop.DBus.GetConnectionUnixProcessID org.freedesktop.DBus 2>/dev/null | sed -n 's/.*uint32 \\([0-9]*\\).*/\\1/p')
            \(alarms("without", ""))
            echo "-- with the bus"
            \(alarms("with", "DBUS_SESSION_BUS_ADDRESS=\"$DBUS_SESSION_BUS_ADDRESS\""))
            kill $server 2>/dev/null
            [ -n "$daemon" ] && (sleep 1; kill -KILL $daemon 2>/dev/null) </dev/null >/dev/null 2>&1 &
            exit 0
            """
        // The test runner's threads block SIGTERM, and a child inherits the
        // mask: dbus-run-session could not stop its bus daemon, which stayed.
        // Python clears the mask, then becomes dbus-run-session.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: NotificationTests.python)
        process.arguments = ["-c",
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
            "/usr/bin/dbus-run-session", "--", "/bin/sh", "-c", script]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let result = (stdout: text, status: process.terminationStatus)
        let parts = result.stdout.components(separatedBy: "-- with the bus\n")
        #expect(parts.count == 2, "\(result.stdout)")
        #expect(parts.first?.contains("ics-agenda: warning: --exec: notify-send exited with status 1 (alarm of \"Standup\" at 8:50 AM)") == true,
            "without the bus: \(result.stdout)")
        #expect(parts.last == "", "with the bus, nothing to tell: \(parts.last ?? "")")
        let notified = try String(contentsOf: record, encoding: .utf8)
        #expect(notified == "{\"app_name\": \"ics-agenda\", \"summary\": \"Standup\", \"body\": \"in 10 min\"}\n")
    }
}
