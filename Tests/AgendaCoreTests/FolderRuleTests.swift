import Foundation
import Testing

/// AgendaCore is one way, as the adapter's stages are (`StageRuleTests`):
/// Time ← Model ← Group ← Layout ← Format, over `Parallel/` (the work
/// spread over threads, which names none of them). A folder names only its own
/// types and those of the folders before it: times know nothing of
/// calendars, the model nothing of sections, grouping nothing of the grids,
/// and the grids (`Layout/`) hold dates, spans and lanes, never words,
/// which are made in `Format/` alone. A name that points back (a layout
/// wording a row, a model escaping text with a formatter's type) fails here.
@Suite struct FolderRuleTests {
    static let order = ["Parallel", "Time", "Model", "Group", "Layout", "Format"]

    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/AgendaCore")

    /// Each Swift file below Sources/AgendaCore: its folder, its name and its text.
    static func coreFiles() throws -> [(folder: String, name: String, text: String)] {
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        var files: [(folder: String, name: String, text: String)] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let parts = url.path.dropFirst(sources.path.count + 1).split(separator: "/")
            let folder = parts.count > 1 ? String(parts[0]) : ""
            files.append((folder, String(parts.last ?? ""), try String(contentsOf: url, encoding: .utf8)))
        }
        return files.sorted { ($0.folder, $0.name) < ($1.folder, $1.name) }
    }

    /// A type's name, where it is declared at the top of a file (not nested).
    static func declarations(in text: String) -> [String] {
        let declaration =
            #/^(?:(?:package|private|fileprivate|internal|public|final|indirect)\s+)*(?:struct|class|enum|protocol|typealias|actor)\s+([A-Z]\w*)/#
        return text.split(separator: "\n")
            .compactMap { line in (try? declaration.prefixMatch(in: line)).flatMap { $0.map { String($0.1) } } }
    }

    /// The capitalised words of code: comments and string literals left out.
    static func typeWords(in text: String) -> Set<String> {
        var words = Set<String>()
        for line in text.split(separator: "\n") {
            var code = String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            code = code.replacing(#/"(?:\\.|[^"\\])*"/#, with: "\"\"")
            for match in code.matches(of: #/\b[A-Z]\w*\b/#.wordBoundaryKind(.simple)) { words.insert(String(match.0)) }
        }
        return words
    }

    /// Every name a file uses against the order, as `Folder/File.swift: Type (Owner/)`.
    static func breaches(_ files: [(folder: String, name: String, text: String)]) -> [String] {
        var owner: [String: String] = [:]
        for file in files {
            for name in declarations(in: file.text) { owner[name] = file.folder }
        }
        var found: [String] = []
        for file in files {
            guard let at = order.firstIndex(of: file.folder) else { continue }
            for word in typeWords(in: file.text).sorted() {
                guard let home = owner[word], let of = order.firstIndex(of: home), of > at else { continue }
                found.append("\(file.folder)/\(file.name): \(word) (\(home)/)")
            }
        }
        return found
    }

    @Test func everyFolderNamesOnlyItselfAndWhatComesBefore() throws {
        let files = try FolderRuleTests.coreFiles()
        let folders = Set(files.map(\.folder))
        #expect(folders == Set(FolderRuleTests.order),
            "AgendaCore's folders (files at its top or in a folder not in the order have no place): \(folders.sorted())")
        let breaches = FolderRuleTests.breaches(files)
        #expect(breaches.isEmpty, "a folder names one after it:\n\(breaches.joined(separator: "\n"))")
    }

    /// The rule can fail: a time that names the model's occurrence, a group
    /// that words a row, a layout that names a formatter, are caught; a
    /// name in a comment or a string, or one of a folder before, is not.
    @Test func aNameThatPointsBackIsCaught() throws {
        var files = try FolderRuleTests.coreFiles()
        files.append(("Time", "Probe1.swift", "struct Probe1 { let o: Occurrence }"))
        files.append(("Group", "Probe2.swift", "struct Probe2 { let w: RowWording }"))
        files.append(("Layout", "Probe3.swift", "struct Probe3 { let f = TextFormatter.self }"))
        files.append(("Model", "Probe4.swift", "struct Probe4 { let d: CivilDate } // a WeekLayout here\nlet s = \"AgendaRow\""))
        let breaches = FolderRuleTests.breaches(files)
        #expect(breaches.contains("Time/Probe1.swift: Occurrence (Model/)"))
        #expect(breaches.contains("Group/Probe2.swift: RowWording (Format/)"))
        #expect(breaches.contains("Layout/Probe3.swift: TextFormatter (Format/)"))
        #expect(!breaches.contains { $0.hasPrefix("Model/Probe4.swift") })
    }

    /// Every formatter, the grids' included, is an `OutputFormatter`: one
    /// shape, `write(subject, to:)`, for whatever it writes.
    @Test func everyFormatterIsAnOutputFormatter() throws {
        let declared = #/(?m)^package struct (\w+Formatter)\b([^{\n]*)/#
        var strays: [String] = []
        var count = 0
        for file in try FolderRuleTests.coreFiles() where file.folder == "Format" {
            for match in file.text.matches(of: declared) {
                count += 1
                if !match.2.contains("OutputFormatter") { strays.append(String(match.1)) }
            }
        }
        #expect(count >= 12, "formatters found: \(count)")
        #expect(strays.isEmpty, "formatters that are not OutputFormatters: \(strays)")
    }

    /// Every folder below Sources/ is in docs/DEVELOPING.md's layout, by its
    /// name followed by `/`: a folder added without a line there fails.
    @Test func everySourceFolderIsInTheLayout() throws {
        let root = FolderRuleTests.sources.deletingLastPathComponent()
        let layout = try String(contentsOf: root.deletingLastPathComponent().appendingPathComponent("docs/DEVELOPING.md"),
            encoding: .utf8)
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey])
        var missing: [String] = []
        var folders = 0
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true else { continue }
            folders += 1
            if !layout.contains(url.lastPathComponent + "/") { missing.append(url.path) }
        }
        #expect(folders > 30, "folders found: \(folders)")
        #expect(missing.isEmpty, "folders not in docs/DEVELOPING.md's layout: \(missing)")
    }
}
