import Foundation
import Testing

/// The adapter meets C in one folder: `Sources/ICalAdapter/Libical/` alone
/// imports CLibical and names libical's functions, types and pointers;
/// every other stage works with the Swift types made there (`TimeValue`,
/// `RecurrenceRule`, `Zone`, `OwnedComponent`, ...).
@Suite struct LibicalBoundaryTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Every Swift file under Sources/, with its path from there.
    static func swiftFiles() throws -> [(path: String, text: String)] {
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        var files: [(String, String)] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let path = String(url.path.dropFirst(sources.path.count + 1))
            files.append((path, try String(contentsOf: url, encoding: .utf8)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// libical's names as code uses them (comments, which may name the
    /// function a Swift one stands for, are left out).
    static let libicalPattern = #"\bical[a-z]*_[a-z_]+\s*\(|\bICAL_[A-Z_]+|\bicaltimetype\b|\bicalrecurrencetype\b|\bicaldurationtype\b|\bOpaquePointer\b|\bimport\s+CLibical\b"#

    @Test func onlyTheLibicalFolderMeetsC() throws {
        let files = try LibicalBoundaryTests.swiftFiles()
        #expect(files.count > 50, "the sources were not found at \(LibicalBoundaryTests.sources.path)")
        #expect(files.contains { $0.path.hasPrefix("ICalAdapter/Libical/") && $0.text.contains("import CLibical") })
        let libicalName = try Regex(LibicalBoundaryTests.libicalPattern)
        var outside: [String] = []
        for file in files where !file.path.hasPrefix("ICalAdapter/Libical/") {
            for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                if code.contains(libicalName) { outside.append("\(file.path):\(number + 1): \(line)") }
            }
        }
        #expect(outside.isEmpty, "libical outside Libical/:\n\(outside.joined(separator: "\n"))")
    }
}
