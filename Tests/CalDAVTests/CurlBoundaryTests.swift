import Foundation
import Testing

/// libcurl is met in one folder, as libical is in ICalAdapter and libxml2
/// in `Subscriptions/XML/`: only `Subscriptions/HTTP/` imports CCurl, each
/// file there with `internal import` (so no declaration of the module
/// hands a libcurl type on), and no code elsewhere names a libcurl type,
/// constant or call (`CURLcode`, `CURLE_OK`, `ics_curl_easy_init`, `curl_slist`).
/// A failure leaves the folder as words (`TransferFailure`).
@Suite struct CurlBoundaryTests {
    static let home = "Subscriptions/HTTP/"

    /// A line's code: what is before a `//` comment, string literals emptied.
    static func code(_ line: Substring) -> String {
        let unquoted = String(line).replacing(#/"(?:\\.|[^"\\])*"/#, with: "\"\"")
        return String(unquoted.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// Each place outside the folder that meets libcurl, and each import
    /// of it inside the folder that is not `internal`, as `path:line: code`.
    static func breaches(_ files: [(path: String, text: String)]) -> [String] {
        var found: [String] = []
        for file in files {
            let inside = file.path.hasPrefix(home)
            for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = CurlBoundaryTests.code(line)
                let imports = code.contains(#/\bimport\s+CCurl\b/#)
                let names = code.contains(#/\b(?:CURL[A-Za-z_]*|ics_curl_\w+|curl_\w+)\b/#)
                let breach = inside ? imports && !code.contains(#/^\s*internal\s+import\s+CCurl\b/#) : imports || names
                if breach { found.append("\(file.path):\(number + 1): \(code.trimmingCharacters(in: .whitespaces))") }
            }
        }
        return found
    }

    static func sources() throws -> [(path: String, text: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var files: [(String, String)] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            files.append((String(url.path.dropFirst(root.path.count + 1)), try String(contentsOf: url, encoding: .utf8)))
        }
        return files
    }

    @Test func onlyTheHTTPFolderMeetsLibcurl() throws {
        let files = try CurlBoundaryTests.sources()
        let importers = files.filter { $0.text.contains("import CCurl") }.map(\.path)
        #expect(!importers.isEmpty && importers.allSatisfy { $0.hasPrefix(CurlBoundaryTests.home) }, "\(importers)")
        let breaches = CurlBoundaryTests.breaches(files)
        #expect(breaches.isEmpty, "libcurl met outside Subscriptions/HTTP/:\n\(breaches.joined(separator: "\n"))")
    }

    /// The rule can fail: an import, a code, a constant or a call outside,
    /// a plain import inside; comments and strings that name them do not.
    @Test func aMeetingOutsideIsCaught() {
        let caught = [
            ("CalDAV/A.swift", "import CCurl"), ("B.swift", "    let code: CURLcode = result"),
            ("C.swift", "if code == CURLE_OK {"), ("D.swift", "guard let h = ics_curl_easy_init() else {"),
            ("E.swift", "var list: UnsafeMutablePointer<curl_slist>?"), ("HTTP/F.swift", "import CCurl"),
        ].map { (path: "Subscriptions/" + $0.0, text: $0.1) }
        let passed = [
            ("Subscriptions/HTTP/G.swift", "internal import CCurl"), ("Subscriptions/HTTP/H.swift", "if code == CURLE_OK {"),
            ("Subscriptions/I.swift", "/// handed on (`CURLOPT_USERNAME`)"), ("Subscriptions/J.swift", #"let s = "CURLE_OK""#),
            ("Subscriptions/K.swift", "let failures = CurlMulti.failures(running: transfers)"),
        ].map { (path: $0.0, text: $0.1) }
        let breaches = CurlBoundaryTests.breaches(caught + passed)
        for file in caught {
            #expect(breaches.contains { $0.hasPrefix(file.path + ":1:") }, "not caught: \(file.text)")
        }
        #expect(breaches.count == caught.count, "caught more than the breaches: \(breaches)")
    }
}
