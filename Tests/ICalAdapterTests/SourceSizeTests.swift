import Foundation
import Testing

/// Small files, each about one thing, and functions that fit on a screen:
/// no file under Sources/ over 400 lines, no function over 80, no line
/// longer than `.swift-format`'s `lineLength` (120).
@Suite struct SourceSizeTests {
    static let maxFileLines = 400
    static let maxFunctionLines = 80

    /// The line length swift-format is configured with, at the package's root.
    static func lineLength() throws -> Int {
        let root = LibicalBoundaryTests.sources.deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent(".swift-format"))
        let configuration = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return try #require(configuration?["lineLength"] as? Int)
    }

    /// Each line of `text` longer than `limit` characters, as its number.
    static func longLines(_ text: String, limit: Int) -> [Int] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { number, line in
            line.count > limit ? number + 1 : nil
        }
    }

    @Test func noLineIsOverTheLimit() throws {
        let limit = try SourceSizeTests.lineLength()
        #expect(limit == 120)
        let long = try LibicalBoundaryTests.swiftFiles().flatMap { file in
            SourceSizeTests.longLines(file.text, limit: limit).map { "\(file.path):\($0)" }
        }
        #expect(long.isEmpty, "\(long.count) lines over \(limit) characters:\n\(long.joined(separator: "\n"))")
    }

    /// The measure can fail: a line of 121 characters is found, one of 120 is not.
    @Test func aLongLineIsFound() {
        let text = String(repeating: "x", count: 120) + "\n" + String(repeating: "é", count: 121) + "\n"
        #expect(SourceSizeTests.longLines(text, limit: 120) == [2])
    }

    @Test func noFileIsOverTheLimit() throws {
        let files = try LibicalBoundaryTests.swiftFiles()
        #expect(files.count > 50)
        let long = files.compactMap { file -> String? in
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)
                .count - (file.text.hasSuffix("\n") ? 1 : 0)
            return lines > SourceSizeTests.maxFileLines ? "\(file.path): \(lines) lines" : nil
        }
        #expect(long.isEmpty, "files over \(SourceSizeTests.maxFileLines) lines:\n\(long.joined(separator: "\n"))")
    }

    @Test func noFunctionIsOverTheLimit() throws {
        let long = try LibicalBoundaryTests.swiftFiles().flatMap { file in
            SourceSizeTests.functionLengths(file.text).filter { $0.lines > SourceSizeTests.maxFunctionLines }
                .map { "\(file.path):\($0.line): \($0.lines) lines" }
        }
        #expect(long.isEmpty,
            "functions over \(SourceSizeTests.maxFunctionLines) lines:\n\(long.joined(separator: "\n"))")
    }

    /// The measure can fail: a function of 81 lines is found.
    @Test func aLongFunctionIsFound() {
        let body = Array(repeating: "    x += 1", count: 79).joined(separator: "\n")
        let text = "func long() {\n\(body)\n}\n"
        #expect(SourceSizeTests.functionLengths(text).map(\.lines) == [81])
    }

    /// Each function, initialiser and subscript: where it is declared and
    /// how many lines it spans, from its declaration to its closing brace
    /// (braces in comments and string literals not counted).
    static func functionLengths(_ text: String) -> [(line: Int, lines: Int)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { code(of: $0) }
        let declaration = #/^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|static|class|mutating|nonmutating|override|final|nonisolated|convenience|required)\s+)*(?:func\s+\S|init[?!]?\s*[(<]|subscript\s*[(<])/#
        var found: [(line: Int, lines: Int)] = []
        for (start, line) in lines.enumerated() where (try? declaration.prefixMatch(in: line)) != nil {
            var depth = 0, opened = false
            for end in start..<lines.count {
                for character in lines[end] {
                    if character == "{" {
                        depth += 1
                        opened = true
                    } else if character == "}" {
                        depth -= 1
                    }
                }
                if opened && depth <= 0 {
                    found.append((start + 1, end - start + 1))
                    break
                }
                // A protocol requirement has no body.
                if !opened && end > start + 15 { break }
            }
        }
        return found
    }

    /// A line without its comment and the contents of its string literals.
    static func code(of line: Substring) -> String {
        var out = "", inString = false, escaped = false
        var previous: Character = " "
        for character in line {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false; out.append("\"") }
            } else if character == "\"" {
                inString = true
                out.append("\"")
            } else if character == "/" && previous == "/" {
                out.removeLast()
                break
            } else {
                out.append(character)
            }
            previous = character
        }
        return out
    }
}
