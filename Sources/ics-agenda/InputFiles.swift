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
                var visited = Set<String>()
                files += try walk(argument, visited: &visited, warn: warn)
            } else {
                files.append(InputFile(path: argument, isExplicit: true))
            }
        }
        return files
    }

    private static func walk(_ directory: String, visited: inout Set<String>, warn: (String) -> Void) throws -> [InputFile] {
        let real = (directory as NSString).resolvingSymlinksInPath
        guard visited.insert(real).inserted else { return [] }  // a symlink loop
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
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                files += try walk(path, visited: &visited, warn: warn)
            } else {
                let ext = (name as NSString).pathExtension.lowercased()
                if ext == "ics" || ext == "ical" { files.append(InputFile(path: path, isExplicit: false)) }
            }
        }
        return files
    }

    static func read(_ file: InputFile) throws -> Data {
        if file.isStdin { return FileHandle.standardInput.readDataToEndOfFile() }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: file.path))
        } catch {
            let reason = access(file.path, R_OK) == 0 ? "cannot be read" : "permission denied"
            throw UnreadableInput(path: file.path, reason: reason)
        }
    }
}
