import Foundation
import Testing

/// Every example in the README, and in the recipes it sends readers to
/// (`docs/RECIPES.md`), is a golden test: a fenced block whose first
/// line is `$ ics-agenda ...` is run as written (by bash, from the package
/// root, with the built binary first on the PATH and no configuration), and
/// what it prints, standard output then standard error, must be the rest of
/// the block. A trailing `# comment` on the command line is the shell's.
@Suite struct ReadmeExampleTests {
    struct Example: CustomTestStringConvertible, Sendable {
        let file: String
        let line: Int
        let command: String
        let shown: String
        var testDescription: String { "\(file):\(line): \(command)" }
    }

    static let files = ["README.md", "docs/RECIPES.md"]

    static let examples: [Example] = files.flatMap(examples(in:))

    static func examples(in file: String) -> [Example] {
        guard let text = try? String(contentsOf: CLI.root.appendingPathComponent(file),
            encoding: .utf8) else { return [] }
        let lines = text.components(separatedBy: "\n")
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            let fence = lines[index].trimmingCharacters(in: .whitespaces)
            guard fence.hasPrefix("```"), index + 1 < lines.count,
                lines[index + 1].trimmingCharacters(in: .whitespaces).hasPrefix("$ ics-agenda")
            else {
                index += 1
                continue
            }
            let indent = lines[index].prefix { $0 == " " }.count
            var body: [String] = []
            var end = index + 1
            while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(String(lines[end].dropFirst(min(indent, lines[end].prefix { $0 == " " }.count))))
                end += 1
            }
            examples.append(Example(file: file, line: index + 2, command: String(body[0].dropFirst(2)),
                shown: body.dropFirst().map { $0 + "\n" }.joined()))
            index = end + 1
        }
        return examples
    }

    @Test func theReadmeAndTheRecipesHaveExamples() {
        for file in ReadmeExampleTests.files {
            #expect(ReadmeExampleTests.examples.filter { $0.file == file }.count >= 2, "\(file)")
        }
    }

    @Test(arguments: examples)
    func exampleOutputIsAsShown(_ example: Example) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "exec 2>&1; " + example.command]
        process.currentDirectoryURL = CLI.root
        process.environment = ["PATH": CLI.binary.deletingLastPathComponent().path + ":/usr/bin:/bin",
            "LANG": "C.UTF-8", "TZ": "UTC",
            "ICS_AGENDA_CONFIG": "/dev/null", "HOME": "/nonexistent"]
            .merging(ProcessInfo.processInfo.environment.filter { $0.key == "ASAN_OPTIONS"
                || $0.key == "LSAN_OPTIONS" }) { $1 }
        process.standardInput = FileHandle.nullDevice
        let result = try CLI.collect(process)
        #expect(result.stdout == example.shown,
            "\(example.file):\(example.line) prints otherwise:\n\(CLI.diff(example.shown, result.stdout))")
    }
}
