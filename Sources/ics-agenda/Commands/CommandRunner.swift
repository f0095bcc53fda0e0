import AgendaCore
import AgendaSystem
import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Parses and runs a command, and says what ArgumentParser would say, but
/// through our own streams: help goes to stdout with its errors checked (a
/// full disk is 74, a closed pipe 0), errors to stderr, whose own failure
/// changes nothing.
enum CommandRunner {
    /// The arguments as the system gives them: a file name that is not
    /// UTF-8 keeps its bytes (`PrintableText.decodingFileSystemBytes`), so that
    /// it can still be opened; `CommandLine.arguments` would replace them with U+FFFD.
    static var arguments: [String] {
        (1..<Int(CommandLine.argc)).map { i in
            guard let pointer = CommandLine.unsafeArgv[i] else { return "" }
            return PrintableText.decodingFileSystemBytes(UnsafeBufferPointer(start: pointer, count: strlen(pointer))
                .lazy.map { UInt8(bitPattern: $0) })
        }
    }

    /// Before anything is written: a closed pipe is an error code, not a
    /// signal, and a closed descriptor 0, 1 or 2 is given /dev/null, so
    /// that no file opened later takes its number (stdout is opened
    /// read-only: writing the agenda then fails with status 74).
    static func prepareStreams() {
        Signals.ignoreBrokenPipes()
        let streams: [(FileDescriptor, FileDescriptor.AccessMode)] =
            [(.standardInput, .readOnly), (.standardOutput, .readOnly), (.standardError, .writeOnly)]
        for (stream, mode) in streams where !stream.isOpen {
            guard let opened = try? FileDescriptor.open("/dev/null", mode), opened != stream else { continue }
            _ = try? opened.duplicate(as: stream)
            try? opened.close()
        }
    }

    static func run<C: ParsableCommand>(_ type: C.Type, _ arguments: [String]) -> Never {
        do {
            var command = try type.parseAsRoot(arguments)
            try command.run()
            ProcessEnd.finish(0)
        } catch {
            fail(type, error, arguments)
        }
    }

    static func fail<C: ParsableCommand>(_ type: C.Type, _ error: Error, _ arguments: [String]) -> Never {
        let code = type.exitCode(for: error)
        if code == .success, let unknown = dashArgumentReadAsHelp(arguments) {
            // `-dash.ics` reads as the short flags -d -a -s -h ...: help was never asked for.
            StandardError.write("ics-agenda: Unknown option '\(PrintableText.escaped(unknown))'\(fileHint(unknown))\n")
            StandardError.write("Usage: see '\(type.configuration.commandName ?? "ics-agenda") --help'.\n")
            ProcessEnd.finish(ExitCode.validationFailure.rawValue)
        }
        let text = BashCompletion.patched(type.fullMessage(for: error))
        if code == .success {
            var out = BufferedOutput()
            if !text.isEmpty { out.write(text + "\n") }
            out.flush()
            ProcessEnd.finish(0)
        }
        if !text.isEmpty {
            let hint = arguments.first { $0.hasPrefix("-") && $0.count > 1 && text.contains("'\($0)'") }.map(fileHint)
                ?? ""
            StandardError.write(PrintableText.escapedKeepingLines(CommandRunner.inOurStyle(text)) + hint + "\n")
        }
        ProcessEnd.finish(code.rawValue)
    }

    /// ArgumentParser's `Error: ` put as every other error of ours is:
    /// `ics-agenda: `, so that scripts and mail see one style.
    static func inOurStyle(_ text: String) -> String {
        text.hasPrefix("Error: ") ? "ics-agenda: " + text.dropFirst("Error: ".count) : text
    }

    /// The first argument before `--` that starts with one dash and is not
    /// `-h`, when none is `-h` or `--help`: ArgumentParser read help in it.
    static func dashArgumentReadAsHelp(_ arguments: [String]) -> String? {
        let options = arguments.prefix { $0 != "--" }
        if options.contains(where: { $0 == "-h" || $0 == "--help" || $0 == "help" }) { return nil }
        return options.first { $0.hasPrefix("-") && !$0.hasPrefix("--") && $0.count > 2 }
    }

    /// For an unknown option that names a file: how to read it.
    static func fileHint(_ argument: String) -> String {
        guard access(PrintableText.fileSystemBytes(argument).map { CChar(bitPattern: $0) } + [0], F_OK) == 0 else {
            return ""
        }
        let shown = PrintableText.escaped(argument)
        return " (to read the file \(shown), name it ./\(shown) or put it after --)"
    }
}
