import AgendaCore
import AgendaSystem
import ArgumentParser
import Foundation
import Subscriptions

#if canImport(Glibc)
    import Glibc
#endif

/// The command line's shape, for reading the configuration file's lines and
/// for a first look at the command line: the agenda's arguments, parsed by
/// ArgumentParser like the command itself (but without the check that
/// standard input is not a terminal).
typealias ConfigLine = AgendaArguments<ConfigLineRole>

/// The agenda's arguments in the role of a configuration line: parsed, never run.
enum ConfigLineRole: AgendaRole {
    /// A line's inputs, and `--no-config` (which has no place there).
    struct Input: AgendaInput {
        @Flag(name: .long)
        var noConfig = false

        @Argument var inputs: [String] = []
    }

    static let configuration = CommandConfiguration(commandName: "ics-agenda")
}

/// The configuration file: `$ICS_AGENDA_CONFIG`, else
/// `$XDG_CONFIG_HOME/ics-agenda/config`, else `~/.config/ics-agenda/config`.
/// Each line holds options written as on the command line, or input paths;
/// `#` begins a comment. Options before any section apply to every
/// subcommand that has them; a section (`[next]`, `[free]`, ...) holds
/// options for that subcommand only. An option no subcommand has is a bad
/// line; one the running subcommand lacks is left out there. Options on the command line win: the configured
/// ones come first, so a later single-valued option replaces them, and a
/// configured `--calendar` (or `--to`/`--days`) is left out when the
/// command line gives its own. The configured inputs are read when no INPUT
/// is named and standard input is a terminal or gives no bytes at all.
struct ConfigFile: Sendable {
    /// One option line: its words, and what the command line can replace.
    struct OptionLine: Sendable {
        let words: [String]
        let setsCalendar: Bool
        let setsLastDay: Bool
        /// The section it is in (`next`), nil before any.
        var section: String? = nil
        /// The agenda takes it (else another subcommand does).
        var agendaTakes = true
    }

    /// A line the argument parser refused, or a file that cannot be read.
    struct Bad: Error, CustomStringConvertible {
        let path: String
        let line: Int?
        let message: String
        var status: Int32 { line == nil ? 66 : 64 }
        /// Escaped as every message that reaches the terminal: a line of the
        /// file may hold ESC or BEL, as a command-line value may.
        var description: String {
            let place = PrintableText.escaped(path) + (line.map { ":\($0)" } ?? "")
            return "\(place): \(PrintableText.escaped(message))"
        }
    }

    let path: String
    let optionLines: [OptionLine]
    /// Input paths, `~` expanded; relative ones are relative to the file's folder.
    let inputs: [String]

    /// Where the configuration is read from (it need not exist).
    static func location(environment: [String: String]) -> String {
        if let path = environment["ICS_AGENDA_CONFIG"], !path.isEmpty { return path }
        return UserFolders.config(environment: environment) + "/config"
    }

    /// The configuration, or nil when there is none.
    /// The whole file (a device such as /dev/null too), or nil when it cannot be read.
    static func contents(of path: String) -> [UInt8]? {
        guard let fd = try? FileDescriptor.openForReading(path) else { return nil }
        defer { try? fd.close() }
        return try? fd.readAll()
    }

    /// True when `ICS_AGENDA_CONFIG` names the file: then it must be there.
    static func isNamed(environment: [String: String]) -> Bool {
        !(environment["ICS_AGENDA_CONFIG"] ?? "").isEmpty
    }

    static func load(environment: [String: String]) throws -> ConfigFile? {
        let path = location(environment: environment)
        let info: Stat
        switch ConfigFile.status(path) {
        case .success(let status): info = status
        case .failure(let error):
            if ConfigFile.isMissing(error) && isNamed(environment: environment) {
                throw Bad(path: path, line: nil, message: "no such configuration file (named by ICS_AGENDA_CONFIG)")
            }
            if ConfigFile.isMissing(error) { return nil }
            throw Bad(path: path, line: nil, message: "cannot read the configuration file")
        }
        guard info.type != .directory, let bytes = ConfigFile.contents(of: path) else {
            throw Bad(path: path, line: nil, message: "cannot read the configuration file")
        }
        return try ConfigFile(path: path, text: String(decoding: bytes, as: UTF8.self), environment: environment)
    }

    init(path: String, text: String, environment: [String: String]) throws {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        var optionLines: [OptionLine] = []
        var inputs: [String] = []
        var section: String? = nil
        let lines = text.drop { $0 == "\u{FEFF}" }.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, line) in lines.enumerated() {
            let bad = { (message: String) in Bad(path: path, line: index + 1, message: message) }
            if let header = ConfigFile.sectionHeader(line) {
                // A section for each subcommand, named as it is.
                guard Subcommand.named(header) != nil else {
                    let known = Subcommand.all.map(\.name).sorted().map { "[\($0)]" }.joined(separator: ", ")
                    throw bad("[\(header)] is no section; the sections are \(known)")
                }
                section = header
                continue
            }
            let words: [String]
            do { words = try ConfigWords.split(line) } catch { throw bad("\(error)") }
            if words.isEmpty { continue }
            for word in words { SecretText.register(word) }
            if words.contains("--no-config") { throw bad("--no-config has no place in the configuration") }
            if words.contains(where: { $0 == "--help" || $0 == "-h" || $0 == "--version" }) {
                throw bad("\(words.joined(separator: " ")) has no place in the configuration")
            }
            if let section, let takes = Subcommand.named(section), !takes.isDefault {
                // A section's lines are its subcommand's options, judged as it judges them.
                do { _ = try takes.type.parse(words) } catch {
                    let message = takes.type.message(for: error)
                    if message.hasPrefix("Unknown option") {
                        throw bad("\(message.prefix { $0 != "." }); [\(section)] has no such option")
                    }
                    throw bad(message)
                }
                guard words.allSatisfy({ !$0.isEmpty }), words.first?.hasPrefix("-") == true else {
                    throw bad("input paths go before any section")
                }
                optionLines.append(OptionLine(words: words, setsCalendar: false, setsLastDay: false, section: section,
                    agendaTakes: false))
                continue
            }
            let parsed: ConfigLine
            do {
                parsed = try ConfigLine.parse(words)
            } catch {
                if ConfigLine.exitCode(for: error) == .success {
                    throw bad("\(words.joined(separator: " ")) has no place in the configuration")
                }
                // Not the agenda's: another subcommand's option (`--hours`, `--within`), for that one.
                if section == nil, let other = ConfigFile.otherTaker(of: words) {
                    optionLines.append(OptionLine(words: words, setsCalendar: false, setsLastDay: false,
                        agendaTakes: other))
                    continue
                }
                // The subcommand that has the option says what is wrong with its value (`--count 0`).
                throw bad(ConfigFile.otherComplaint(about: words) ?? ConfigLine.message(for: error))
            }
            if parsed.input.noConfig { throw bad("--no-config has no place in the configuration") }
            if let problem = ConfigFile.badValue(parsed.options) { throw bad(problem) }
            if !parsed.input.inputs.isEmpty && parsed.input.inputs.count != words.count {
                throw bad("give options and input paths on lines of their own")
            }
            if parsed.input.inputs.isEmpty {
                optionLines.append(
                    OptionLine(
                        words: words, setsCalendar: !parsed.options.common.calendar.isEmpty,
                        setsLastDay: parsed.options.to != nil || parsed.options.days != nil, section: section))
            } else {
                if section != nil { throw bad("input paths go before any section") }
                inputs += parsed.input.inputs.map { ConfigFile.resolve($0, folder: folder, environment: environment) }
            }
        }
        self.optionLines = optionLines
        self.inputs = inputs
    }

    /// `[next]`: the section a line opens (blanks around it aside), else nil.
    static func sectionHeader(_ line: Substring) -> String? {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("["), text.hasSuffix("]"), text.count > 2 else { return nil }
        return text.dropFirst().dropLast().trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Whether a line the agenda refuses is another subcommand's: false
    /// when one takes it (so the agenda leaves it out); nil when none does.
    private static func otherTaker(of words: [String]) -> Bool? {
        Subcommand.others.contains { (try? $0.type.parse(words)) != nil } ? false : nil
    }

    /// What a subcommand that has a line's option says of its value, when
    /// one has it (`--count 0`: "--count takes a whole number"); nil when none does.
    private static func otherComplaint(about words: [String]) -> String? {
        for other in Subcommand.others.map(\.type) {
            do { _ = try other.parse(words) } catch {
                let message = other.message(for: error)
                if !message.hasPrefix("Unknown option") { return message }
            }
        }
        return nil
    }

    /// What the command would only find out later, without the line: a
    /// zone, a clock or a day it cannot read.
    private static func badValue(_ options: AgendaOptions) -> String? {
        if let locale = options.locale, let problem = Settings.localeProblem(locale) {
            return String(problem.dropLast())
        }
        if let tz = options.tz, Settings.zone(named: tz) == nil {
            return "--tz: unknown time zone \"\(tz)\" (use an IANA name such as Europe/Berlin)"
        }
        let utc = ZoneClock(TimeZone(identifier: "UTC")!)
        do {
            if let now = options.now { _ = try ClockReading.parse(now, zone: utc) }
        } catch {
            return "--now: \(error)"
        }
        for (flag, day) in [("--from", options.from), ("--to", options.to)] {
            do {
                if let day { _ = try DayExpression.resolve(day, today: CivilDate(year: 2000, month: 1, day: 1)) }
            } catch {
                return "\(flag): \(error)"
            }
        }
        return nil
    }

    /// `~` and `~user` expanded; a relative path is taken from the file's
    /// folder; a URL or a CalDAV account (`davs://`) is kept as it is.
    static func resolve(_ input: String, folder: String, environment: [String: String]) -> String {
        if input == "-" || SubscriptionURL.isMeant(input) || DAVAccount.isMeant(input) { return input }
        if input == "~" || input.hasPrefix("~/") {
            return homeDirectory(environment: environment) + input.dropFirst()
        }
        if input.hasPrefix("~") {
            let user = input.dropFirst().prefix { $0 != "/" }
            if let entry = getpwnam(String(user)), let dir = entry.pointee.pw_dir {
                return String(cString: dir) + input.dropFirst(1 + user.count)
            }
        }
        if input.hasPrefix("/") || folder.isEmpty { return input }
        return folder.hasSuffix("/") ? folder + input : folder + "/" + input
    }

    static func homeDirectory(environment: [String: String]) -> String { UserFolders.home(environment: environment) }
}

extension ConfigFile {
    /// The configuration of this run, read once; a bad one ends the run
    /// (64 for a bad line, 66 for a file that cannot be read).
    static let current: ConfigFile? = {
        do {
            return try load(environment: ProcessInfo.processInfo.environment)
        } catch {
            ProcessEnd.fail("\(error)", status: (error as? Bad)?.status ?? 64)
        }
    }()

    /// True when there is no configuration file, or one with nothing but
    /// blank and comment lines (`ICS_AGENDA_CONFIG=/dev/null`): then no
    /// line can be bad and no option is configured. Only a regular file
    /// (read again later) or /dev/null is looked into: a pipe or FIFO can be
    /// read once, by `current`, and a FIFO would block a run that says
    /// `--no-config`.
    static let holdsNothing: Bool = {
        let environment = ProcessInfo.processInfo.environment
        let path = location(environment: environment)
        let info: Stat
        switch status(path) {
        case .success(let status): info = status
        case .failure(let error): return isMissing(error) && !isNamed(environment: environment)
        }
        if info.type == .characterSpecial { return StandardInput.isNull(info) }
        guard info.type == .regular, let bytes = contents(of: path) else { return false }
        return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).allSatisfy { line in
            let text = line.drop { $0 == "\u{FEFF}" || $0 == " " || $0 == "\t" }
            return text.isEmpty || text.hasPrefix("#")
        }
    }()

    /// What `stat` says of `path`, or why it cannot.
    static func status(_ path: String) -> Result<Stat, Errno> {
        do { return .success(try Stat(path)) } catch { return .failure(error) }
    }

    /// No such file (or a file where a folder should be on the way).
    static func isMissing(_ error: Errno) -> Bool { error == .noSuchFileOrDirectory || error == .notDirectory }

    /// The configured inputs, when the command line names none and standard
    /// input has nothing to give; else none (standard input is read).
    static func configuredInputs(noConfig: Bool) -> [String] {
        guard !noConfig, let inputs = current?.inputs, !inputs.isEmpty, StandardInput.givesNoBytes() else { return [] }
        return inputs
    }
}

/// Whether standard input has anything to read, without reading it.
enum StandardInput {
    /// True for a terminal, a closed standard input, /dev/null, an empty
    /// file, and a pipe or socket that ends before its first byte (cron);
    /// a pipe waits for its first byte or its end.
    static func givesNoBytes() -> Bool {
        if isatty(0) != 0 { return true }
        let input = FileDescriptor.standardInput
        guard let info = try? Stat(input) else { return true }
        switch info.type {
        case .regular:
            return info.size <= ((try? input.seek(offset: 0, from: .current)) ?? -1)
        case .fifo, .socket:
            input.waitUntilReady(for: Int16(POLLIN))
            var count: Int32 = 0
            guard ioctl(0, UInt(FIONREAD), &count) == 0 else { return false }
            return count == 0
        case .characterSpecial:
            return isNull(info)
        default:
            return false
        }
    }

    /// The device is /dev/null.
    static func isNull(_ info: Stat) -> Bool {
        (try? Stat("/dev/null"))?.specialDeviceID == info.specialDeviceID
    }
}
