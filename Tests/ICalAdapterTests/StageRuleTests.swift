import Foundation
import Testing

/// The adapter is a one-way pipeline: its stage folders run read → frame
/// → parse → expand → resolve, and a stage names only its own types and
/// those of the stage just before it, which hands it its input (`Stretch`,
/// `FramedComponent`, `ParsedComponent`, `ExpandedComponent`); the folders
/// every stage shares (`Bytes/`, `Libical/`, `Zones/`, and the output side
/// `Format/`) name no stage at all; only the spine (`Load/`) names every
/// stage, since it runs them. As
/// `LibicalBoundaryTests` keeps C in one folder, this keeps the pipeline
/// one way: a stage that reached forward would fail here.
@Suite struct StageRuleTests {
    static let stages = ["Read", "Frame", "Parse", "Expand", "Resolve"]
    static let shared = ["Bytes", "Libical", "Zones", "Format"]
    static let spine = "Load"

    /// A type's name, where it is declared at the top of a file (not nested).
    static func declarations(in text: String) -> [String] {
        let declaration = #/^(?:(?:package|private|fileprivate|internal|final|indirect|public)\s+)*(?:struct|class|enum|protocol|typealias|actor)\s+([A-Z]\w*)/#
        return text.split(separator: "\n")
            .compactMap { line in (try? declaration.prefixMatch(in: line)).flatMap { $0.map { String($0.1) } } }
    }

    /// The folder (below ICalAdapter/) each file is in, and its text.
    static func adapterFiles() throws -> [(folder: String, name: String, text: String)] {
        try LibicalBoundaryTests.swiftFiles().compactMap { file in
            let parts = file.path.split(separator: "/")
            guard parts.count == 3, parts[0] == "ICalAdapter" else { return nil }
            return (String(parts[1]), String(parts[2]), file.text)
        }
    }

    /// Which folder declares each top-level type.
    static func owners(_ files: [(folder: String, name: String, text: String)]) -> [String: String] {
        var owner: [String: String] = [:]
        for file in files {
            for name in declarations(in: file.text) { owner[name] = file.folder }
        }
        return owner
    }

    /// The capitalised words of a file's code: comments and string literals left out.
    static func typeWords(in text: Substring) -> Set<String> {
        var words = Set<String>()
        for line in text.split(separator: "\n") {
            var code = String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            code = code.replacing(#/"(?:\\.|[^"\\])*"/#, with: "\"\"")
            for match in code.matches(of: #/\b[A-Z]\w*\b/#.wordBoundaryKind(.simple)) { words.insert(String(match.0)) }
        }
        return words
    }

    /// Whether a file in `folder` may name a type declared in `owner`.
    static func mayName(_ owner: String, from folder: String) -> Bool {
        if owner == folder || folder == spine { return true }
        if let at = stages.firstIndex(of: folder) {
            if let of = stages.firstIndex(of: owner) { return of == at - 1 }
            return shared.contains(owner) && owner != "Format"
        }
        // Shared folders: Zones may use Libical, Format both; none names a stage or the spine.
        switch (folder, owner) {
        case ("Zones", "Libical"), ("Format", "Libical"), ("Format", "Zones"), (_, "Bytes"): return true
        default: return false
        }
    }

    /// Every name a file uses against the rule, as `path: Type (Folder)`.
    static func breaches(_ files: [(folder: String, name: String, text: String)]) -> [String] {
        let owner = owners(files)
        var found: [String] = []
        for file in files {
            for word in typeWords(in: file.text[...]).sorted() {
                guard let home = owner[word], !mayName(home, from: file.folder) else { continue }
                found.append("\(file.folder)/\(file.name): \(word) (\(home)/)")
            }
        }
        return found
    }

    @Test func everyStageNamesOnlyItselfAndWhatCameBefore() throws {
        let files = try StageRuleTests.adapterFiles()
        let folders = Set(files.map(\.folder))
        #expect(folders == Set(StageRuleTests.stages + StageRuleTests.shared + [StageRuleTests.spine]),
            "folders: \(folders.sorted())")
        let breaches = StageRuleTests.breaches(files)
        #expect(breaches.isEmpty,
            "a stage names a later one, or a shared folder a stage:\n\(breaches.joined(separator: "\n"))")
    }

    /// The rule can fail: a frame-stage file that names the resolve stage's
    /// ledger, an expand-stage file that reaches past the parse stage to the
    /// frame stage's type, or a Libical file that names the parse stage, is caught.
    @Test func aStageThatReachesForwardIsCaught() throws {
        var files = try StageRuleTests.adapterFiles()
        files.append(("Frame", "Probe.swift", "struct Probe { var ledger: RevisionLedger }"))
        files.append(("Libical", "Probe2.swift", "struct Probe2 { let text = TextRepair.self }"))
        files.append(("Expand", "Probe3.swift", "struct Probe3 { let framed: FramedComponent }"))
        let breaches = StageRuleTests.breaches(files)
        #expect(breaches.contains("Frame/Probe.swift: RevisionLedger (Resolve/)"))
        #expect(breaches.contains("Libical/Probe2.swift: TextRepair (Parse/)"))
        #expect(breaches.contains("Expand/Probe3.swift: FramedComponent (Frame/)"))
    }
}
