import AgendaCore
import Foundation

/// One calendar input: a file, or standard input.
struct InputFile {
    let path: String
    /// Named on the command line (its errors are fatal) or found in a folder (its errors are warnings).
    let isExplicit: Bool

    var isStdin: Bool { path == "-" }

    /// The file name without `.ics`/`.ical`; `stdin` for standard input.
    var defaultName: String {
        if isStdin { return "stdin" }
        let base = (path as NSString).lastPathComponent
        let ext = (base as NSString).pathExtension.lowercased()
        return ext == "ics" || ext == "ical" ? (base as NSString).deletingPathExtension : base
    }

    /// The folder that holds the file, as the user named it; `stdin` for standard input.
    var source: String {
        if isStdin { return "stdin" }
        let dir = (path as NSString).deletingLastPathComponent
        return dir.isEmpty ? "." : dir
    }
}

/// Why an input could not be read (exit status 66).
struct UnreadableInput: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "\(PrintableText.escaped(path)): \(reason)" }
}

/// Turns the INPUT arguments into calendar files: files as given, folders
/// searched recursively for `*.ics` and `*.ical` (sorted, symlink loops
/// broken), `-` for standard input.
enum InputFiles {
    static func expand(_ arguments: [String], warn: (String) -> Void) throws -> [InputFile] {
        var files: [InputFile] = []
        for argument in arguments {
            if argument == "-" {
                // Standard input named twice is read once: the second would give nothing.
                if !files.contains(where: \.isStdin) { files.append(InputFile(path: "-", isExplicit: true)) }
                continue
            }
            guard let mode = fileMode(argument) else {
                // Only the first word of the command line is where a subcommand goes.
                let first = argument == CommandRunner.arguments.first
                let hint = (first ? InputFiles.subcommand(misspelledAs: argument) : nil).map { "; did you mean the subcommand '\($0)'?" } ?? ""
                throw UnreadableInput(path: argument, reason: "no such file or directory" + hint)
            }
            if mode == S_IFDIR {
                var visited = Set<FolderID>()
                files += try walk(argument, visited: &visited, warn: warn)
            } else {
                files.append(InputFile(path: argument, isExplicit: true))
            }
        }
        return readOnce(files)
    }

    /// The subcommand a missing input's name is one or two edits away from:
    /// a bare word (no `/`, no `.`) of at least three letters (`ics-agenda
    /// nxt` is a file named `nxt` to the parser, which cannot tell a typo
    /// from a file name).
    static func subcommand(misspelledAs word: String) -> String? {
        guard word.count >= 3, !word.contains("/"), !word.contains(".") else { return nil }
        let lower = Array(word.lowercased())
        return RootCommand.subcommandWords.map { ($0, editDistance(lower, Array($0))) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance of two short words.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Each file once, where it is first named: the same file named twice,
    /// through a link or inside a folder also named, would list every row twice.
    static func readOnce(_ files: [InputFile]) -> [InputFile] {
        var seen = Set<FolderID>()
        var stdinSeen = false
        return files.filter { file in
            if file.isStdin {
                defer { stdinSeen = true }
                return !stdinSeen
            }
            var info = stat()
            guard stat(file.path, &info) == 0 else { return true }  // its error is told when it is read
            return seen.insert(FolderID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted
        }
    }

    /// A folder is known by its device and inode: a symlink loop, or two
    /// links to one folder, lead back to one already read.
    private struct FolderID: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private static func walk(_ directory: String, visited: inout Set<FolderID>, warn: (String) -> Void) throws -> [InputFile] {
        var info = stat()
        if withFileSystemPath(directory, { stat($0, &info) }) == 0 {
            guard visited.insert(FolderID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted else { return [] }
        }
        guard let names = entries(of: directory)?.sorted() else {
            warn("\(PrintableText.escaped(directory)): cannot read this folder; skipped")
            return []
        }
        var files: [InputFile] = []
        for name in names where !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            let ext = (name as NSString).pathExtension.lowercased()
            let isCalendar = ext == "ics" || ext == "ical"
            guard let mode = fileMode(path) else {
                if isCalendar { warn("\(PrintableText.escaped(path)): a broken symbolic link, or a file that went away; skipped") }
                continue
            }
            if mode == S_IFDIR {
                files += try walk(path, visited: &visited, warn: warn)
            } else if isCalendar {
                // A pipe would block the run, a device never end: only regular files are read from folders.
                guard mode == S_IFREG else {
                    warn("\(PrintableText.escaped(path)): not a regular file (a pipe, socket or device); skipped")
                    continue
                }
                files.append(InputFile(path: path, isExplicit: false))
            }
        }
        return files
    }

    /// Runs `body` on the input's bytes when it is a regular file: it is
    /// mapped, with a `release` that gives passed pages back. Standard input
    /// and other streams go to `streaming`, which reads them as they come.
    static func withContents<T>(
        of file: InputFile, _ body: (UnsafeBufferPointer<UInt8>, ((Range<Int>) -> Void)?) throws -> T,
        streaming: ((UnsafeMutableRawBufferPointer) throws -> Int) throws -> T
    ) throws -> T {
        let fd: Int32
        do {
            fd = file.isStdin ? 0 : try withFileSystemPath(file.path, SystemCall.openForReading)
        } catch let error as SystemCall.Failure {
            throw UnreadableInput(path: file.path, reason: error.reason)
        }
        defer { if !file.isStdin { close(fd) } }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0,
            let base = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED
        {
            let size = Int(info.st_size)
            defer { munmap(base, size) }
            let bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: size)
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            return try body(bytes) { range in
                // Whole pages inside the range only.
                let start = (range.lowerBound + page - 1) / page * page
                let end = range.upperBound / page * page
                if end > start { madvise(base + start, end - start, Int32(MADV_DONTNEED)) }
            }
        }
        return try streaming { buffer in
            do {
                return try SystemCall.read(fd, into: buffer)
            } catch let error as SystemCall.Failure {
                throw UnreadableInput(path: file.path, reason: error.reason)
            }
        }
    }

    /// Runs `body` on the path as the system knows it: a name read from the
    /// command line or a folder keeps its bytes that are not UTF-8
    /// (`PrintableText.decodingFileSystemBytes`).
    static func withFileSystemPath<T>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        let bytes = PrintableText.fileSystemBytes(path).map { CChar(bitPattern: $0) } + [0]
        return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// `S_IFDIR`, `S_IFREG`, ... of what the path leads to (symbolic links
    /// followed); nil when nothing is there.
    static func fileMode(_ path: String) -> mode_t? {
        var info = stat()
        guard withFileSystemPath(path, { stat($0, &info) }) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// The names in a folder, each with its bytes (`.` and `..` left out);
    /// nil when it cannot be read.
    static func entries(of directory: String) -> [String]? {
        guard let dir = withFileSystemPath(directory, { opendir($0) }) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                PrintableText.decodingFileSystemBytes(raw.prefix { $0 != 0 })
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
