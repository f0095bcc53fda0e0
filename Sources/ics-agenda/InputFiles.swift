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
    var description: String { "\(path): \(reason)" }
}

/// Turns the INPUT arguments into calendar files: files as given, folders
/// searched recursively for `*.ics` and `*.ical` (sorted, symlink loops
/// broken), `-` for standard input.
enum InputFiles {
    static func expand(_ arguments: [String], warn: (String) -> Void) throws -> [InputFile] {
        var files: [InputFile] = []
        for argument in arguments {
            if argument == "-" {
                files.append(InputFile(path: "-", isExplicit: true))
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw UnreadableInput(path: argument, reason: "no such file or directory")
            }
            if isDirectory.boolValue {
                var visited = Set<FolderID>()
                files += try walk(argument, visited: &visited, warn: warn)
            } else {
                files.append(InputFile(path: argument, isExplicit: true))
            }
        }
        return files
    }

    /// A folder is known by its device and inode: a symlink loop, or two
    /// links to one folder, lead back to one already read.
    private struct FolderID: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private static func walk(_ directory: String, visited: inout Set<FolderID>, warn: (String) -> Void) throws -> [InputFile] {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard visited.insert(FolderID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted else { return [] }
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            warn("\(directory): cannot read this folder; skipped")
            return []
        }
        var files: [InputFile] = []
        for name in names where !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            let ext = (name as NSString).pathExtension.lowercased()
            let isCalendar = ext == "ics" || ext == "ical"
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                if isCalendar { warn("\(path): a broken symbolic link, or a file that went away; skipped") }
                continue
            }
            if isDirectory.boolValue {
                files += try walk(path, visited: &visited, warn: warn)
            } else if isCalendar {
                // A pipe would block the run, a device never end: only regular files are read from folders.
                var info = stat()
                guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                    warn("\(path): not a regular file (a pipe, socket or device); skipped")
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
        let fd = file.isStdin ? 0 : open(file.path, O_RDONLY)
        guard fd >= 0 else {
            throw UnreadableInput(path: file.path, reason: errno == EACCES ? "permission denied" : "cannot be read")
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
            while true {
                let n = Foundation.read(fd, buffer.baseAddress, buffer.count)
                if n >= 0 { return n }
                if errno == EINTR { continue }
                throw UnreadableInput(path: file.path, reason: errno == EISDIR ? "is a directory" : "cannot be read")
            }
        }
    }
}
