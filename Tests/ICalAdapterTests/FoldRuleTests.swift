import Foundation
import Testing

/// What a fold is (a line that starts with a space or a tab goes on the one
/// before it, RFC 5545 3.1) is known in one place: `Bytes/` (`ContentLines`).
/// A stage that tested for a fold's tab byte itself would be one more
/// scanner with its own idea of folding, the kind the hostile rounds kept
/// finding a shape of that one scanner missed; this fails on it.
@Suite struct FoldRuleTests {
    /// The tab byte written in code (comments and string literals left out,
    /// except a tab spelt as a byte: `UInt8(ascii: "\t")`).
    static func namesTheTabByte(_ code: Substring) -> Bool {
        code.contains(#/\b0x0*9\b|ascii:\s*"\\t"|\\u\{0*9\}/#)
    }

    /// Each file outside `Bytes/` that names the tab byte, as `Folder/File.swift:line`.
    static func scannersOfTheirOwn(_ files: [(folder: String, name: String, text: String)]) -> [String] {
        var found: [String] = []
        for file in files where file.folder != "Bytes" {
            for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                if namesTheTabByte(code) { found.append("\(file.folder)/\(file.name):\(number + 1)") }
            }
        }
        return found
    }

    @Test func onlyBytesKnowsWhatAFoldIs() throws {
        let files = try StageRuleTests.adapterFiles()
        #expect(files.contains { $0.folder == "Bytes" && $0.name == "ContentLines.swift" })
        let found = FoldRuleTests.scannersOfTheirOwn(files)
        #expect(found.isEmpty,
            "files outside Bytes/ that test for a fold's tab themselves (use ContentLines):\n\(found.joined(separator: "\n"))")
    }

    /// The rule can fail: each way of writing the tab byte is caught outside
    /// `Bytes/`, and a comment or a word about a tab is not.
    @Test func aScannerOfItsOwnIsCaught() throws {
        let probes: [(folder: String, name: String, text: String)] = [
            ("Frame", "A.swift", "if b == 0x20 || b == 0x09 { continue }"),
            ("Parse", "B.swift", "let tab = UInt8(ascii: \"\\t\")"),
            ("Read", "C.swift", "x\nlet folds = bytes[i] == 0x9"),
            ("Load", "D.swift", "let s = \"\\u{09}\""),
            ("Bytes", "E.swift", "if b == 0x09 { }"),
            ("Parse", "F.swift", "// a fold's 0x09 here is a comment\nlet shown = bad == \"\\t\" ? \"a tab\" : \"\""),
            ("Parse", "G.swift", "let code = 0x0900"),
        ]
        #expect(FoldRuleTests.scannersOfTheirOwn(probes) == ["Frame/A.swift:1", "Parse/B.swift:1", "Read/C.swift:2",
            "Load/D.swift:1"])
    }
}
