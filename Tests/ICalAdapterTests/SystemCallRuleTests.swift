import Foundation
import Testing

/// The program calls the system in one target: `Sources/AgendaSystem/`
/// alone names the C library's calls on files, folders, locks, syncs,
/// mappings and child processes (through swift-system's `FileDescriptor`,
/// `Stat` and `Errno` where it has them, wrapped once where it has not);
/// every other target uses its API (`FileDescriptor.openForReading`,
/// `lockExclusively`, `AtomicFile`, `FileNames`, `FolderEntries`,
/// `MappedFile`, `ChildProcess`, ...). As `LibicalBoundaryTests` keeps
/// libical in one folder, this keeps the system in one target: a call
/// made anywhere else fails here.
@Suite struct SystemCallRuleTests {
    static let home = "AgendaSystem/"

    /// The C library's calls that only AgendaSystem makes.
    static let calls = [
        "open", "openat", "creat", "stat", "fstat", "lstat", "fstatat", "statx", "flock", "lockf", "fsync",
        "fdatasync", "syncfs", "rename", "renameat", "unlink", "unlinkat", "mkdir", "mkdirat", "rmdir", "mkstemp",
        "mkostemp", "fchmod", "chmod", "utimensat", "futimens", "realpath", "mmap", "munmap", "madvise", "opendir",
        "fdopendir", "readdir", "closedir", "fcntl", "lseek", "ftruncate", "dup", "dup2", "pipe", "pipe2", "poll",
        "socketpair", "posix_spawn", "posix_spawnp", "waitpid",
    ]

    /// A call as code makes it: the bare name (not a member, `.open(`, nor
    /// part of a longer name), or any of them, `read`, `write` and `close`
    /// too, through the C library's module (`Glibc.rename(`); `close` bare
    /// with an argument (our own `close()` methods take none).
    static let callPattern: NSRegularExpression = {
        let names = calls.joined(separator: "|")
        let pattern = #"(?<![\w.$])(?:"# + names + #")\s*\("#
            + #"|\b(?:Glibc|Foundation|Darwin|Musl)\.(?:"# + names + #"|read|write|close|pread|pwrite)\s*\("#
            + #"|(?<![\w.$])close\(\s*[^)\s]"#
        return try! NSRegularExpression(pattern: pattern)
    }()

    /// A file's code, line by line: comments, string literals (multi-line
    /// ones too) and the names of declarations (`func open(`) left out.
    static func codeLines(of text: String) -> [String] {
        var inMultilineString = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line.contains("\"\"\"") {
                inMultilineString.toggle()
                return ""
            }
            if inMultilineString { return "" }
            var code = String(line).replacing(#/"(?:\\.|[^"\\])*"/#, with: "\"\"")
            code = String(code.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            code = code.replacing(#/\/\*.*?\*\//#, with: "")
            return code.replacing(#/\b(?:func|case)\s+\w+/#, with: "func _")
        }
    }

    /// Every call outside AgendaSystem, as `path:line: code`.
    static func breaches(_ files: [(path: String, text: String)]) -> [String] {
        var found: [String] = []
        for file in files where !file.path.hasPrefix(home) {
            for (number, line) in codeLines(of: file.text).enumerated() {
                let range = NSRange(line.startIndex..., in: line)
                if callPattern.firstMatch(in: line, range: range) != nil {
                    found.append("\(file.path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return found
    }

    @Test func onlyAgendaSystemCallsTheSystem() throws {
        let files = try LibicalBoundaryTests.swiftFiles()
        #expect(files.contains { $0.path.hasPrefix(SystemCallRuleTests.home) }, "no AgendaSystem sources found")
        let breaches = SystemCallRuleTests.breaches(files)
        #expect(breaches.isEmpty, "system calls outside Sources/AgendaSystem/:\n\(breaches.joined(separator: "\n"))")
        #expect(!files.contains { $0.path.hasPrefix("AgendaCore/System/") }, "AgendaCore is pure Swift: no System/")
    }

    /// The rule can fail: calls made bare, through Glibc, or `close` of a
    /// descriptor are caught; our API's members, declarations, comments,
    /// strings, and names that merely end in a call's name are not.
    @Test func aCallOutsideIsCaught() {
        let caught = [
            "let fd = open(path, O_RDONLY)", "guard fstat(fd, &st) == 0 else { return }", "_ = Glibc.rename(a, b)",
            "var info = stat()", "close(fd)", "let n = Foundation.read(fd, p, 4)", "while flock(fd, LOCK_EX) != 0 {",
            "defer { munmap(base, size) }", "posix_spawnp(&pid, argv[0]!, nil, nil, &argv, environ)",
        ]
        let passed = [
            "let file = try RegularFile.open(path, limit: 1)", "// open(path, O_RDONLY) in a comment",
            #"let words = "stat(path) in a string""#, "static func open(_ path: String) -> Int32 {",
            "writer.close()", "calendar.rename(to: name)", "ics_curl_multi_poll(handle, nil, 0, 1000, nil)",
            "let info = try Stat(fd)", "try fd.lockExclusively()", "func close() {", "reopen(x)",
        ]
        let files = (caught + passed).enumerated().map { ("Probe/Probe\($0.offset).swift", $0.element) }
        let breaches = SystemCallRuleTests.breaches(files)
        for (index, line) in caught.enumerated() {
            #expect(breaches.contains("Probe/Probe\(index).swift:1: \(line)"), "not caught: \(line)")
        }
        #expect(breaches.count == caught.count, "caught more than the calls: \(breaches)")
        #expect(SystemCallRuleTests.breaches([("AgendaSystem/Probe.swift", caught[0])]).isEmpty)
    }
}
