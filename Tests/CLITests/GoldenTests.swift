import Foundation
import Testing

/// Runs the built `ics-agenda` on each case of `Fixtures/golden.tsv` and
/// compares stdout, stderr and the exit status with `Fixtures/expected/`.
/// `ICS_AGENDA_RECORD=1` writes the expected files instead of comparing.
@Suite struct GoldenTests {
    static let cases: [GoldenCase] = GoldenCase.load()

    @Test(arguments: cases)
    func golden(_ golden: GoldenCase) throws {
        let result = try CLI.run(golden.arguments, stdinFile: golden.stdinFile, environment: golden.environment)
        let expected = CLI.root.appendingPathComponent("Fixtures/expected")
        let files: [(String, String)] = [
            ("out", result.stdout), ("err", result.stderr), ("status", "\(result.status)\n"),
        ]
        if ProcessInfo.processInfo.environment["ICS_AGENDA_RECORD"] != nil {
            for (ext, text) in files {
                try text.write(to: expected.appendingPathComponent("\(golden.name).\(ext)"), atomically: true,
                    encoding: .utf8)
            }
            return
        }
        for (ext, actual) in files {
            let url = expected.appendingPathComponent("\(golden.name).\(ext)")
            let wanted = (try? String(contentsOf: url, encoding: .utf8)) ?? "(missing \(url.path))"
            #expect(actual == wanted, "\(golden.name).\(ext) differs:\n\(CLI.diff(wanted, actual))")
        }
    }

    @Test func everyExpectedFileBelongsToACase() throws {
        let names = Set(GoldenTests.cases.map(\.name))
        let files = try FileManager.default.contentsOfDirectory(atPath: CLI.root.appendingPathComponent("Fixtures/expected").path)
        let orphans = files.filter { !names.contains(($0 as NSString).deletingPathExtension) }
        #expect(orphans.isEmpty, "expected files without a case in golden.tsv: \(orphans)")
        #expect(GoldenTests.cases.count >= 40)
    }
}

struct GoldenCase: CustomTestStringConvertible, Sendable {
    let name: String
    let arguments: [String]
    let stdinFile: String?
    /// `NAME=value` words before the arguments (`ICS_AGENDA_CONFIG=...`).
    var environment: [String: String] = [:]

    var testDescription: String { name }

    static let defaults = ["--now": "2025-03-01T08:00:00+01:00", "--tz": "Europe/Berlin", "--locale": "en_US"]

    static func load() -> [GoldenCase] {
        let url = CLI.root.appendingPathComponent("Fixtures/golden.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            if line.hasPrefix("#") || line.isEmpty { return nil }
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            var words = parts[1].split(separator: " ").map(String.init)
            var stdin: String? = nil
            if words.count >= 2, words[words.count - 2] == "<" {
                stdin = words.removeLast()
                words.removeLast()
            }
            var environment: [String: String] = [:]
            while let first = words.first, let equals = first.firstIndex(of: "="),
                first[..<equals].allSatisfy({ $0.isUppercase || $0 == "_" })
            {
                environment[String(first[..<equals])] = String(first[first.index(after: equals)...])
                words.removeFirst()
            }
            // A subcommand stays the first word and takes no agenda options.
            if words.first == "calendars" { return GoldenCase(name: parts[0], arguments: words, stdinFile: stdin,
                environment: environment) }
            // Other subcommands stay the first word and take the defaults after it.
            var arguments: [String] = ["agenda", "next", "free", "week", "month"].contains(words.first)
                ? [words.removeFirst()] : []
            for (flag, value) in defaults.sorted(by: { $0.key < $1.key }) where !words.contains(flag) {
                arguments += [flag, value]
            }
            return GoldenCase(name: parts[0], arguments: arguments + words, stdinFile: stdin, environment: environment)
        }
    }
}
