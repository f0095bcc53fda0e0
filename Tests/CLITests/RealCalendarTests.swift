import Foundation
import Testing

/// Real exports from other projects (`Fixtures/real/`) and the pattern
/// fixtures that reproduce other real exports: exit 0, no warning on a valid
/// file and at most one line per kind of damage on a damaged one, and the
/// occurrences of the reference oracle (stored answers) or a difference
/// whose cause `Fixtures/real/SOURCES.tsv` names. `scripts/real_calendars.py`
/// does the checking; it needs only python3.
@Suite struct RealCalendarTests {
    @Test(.enabled(if: RealCalendarTests.python != nil, "needs python3"))
    func realExportsAreQuietWhenValidAndAgreeWithTheOracle() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", CLI.root.appendingPathComponent("scripts/real_calendars.py").path, "--binary",
            CLI.binary.path]
        process.currentDirectoryURL = CLI.root
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains(" 0 failed"), "\(text)")
    }

    /// python3 on the PATH.
    static let python: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        .map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}
