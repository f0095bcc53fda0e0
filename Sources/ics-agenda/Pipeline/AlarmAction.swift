import AgendaCore
import AgendaSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `alarms --exec COMMAND`: a program run once per alarm, with no shell.
/// COMMAND is split into words as a configuration line is (`ConfigWords`);
/// in each word the `{placeholders}` are replaced by the alarm's values,
/// and the words are the program's arguments as they are: a title such as
/// `$(rm -rf ~)` reaches it as text. A program that fails, cannot be
/// started, or runs longer than `timeLimit` (then stopped) is told with a
/// warning; the others still run.
struct AlarmAction {
    static let placeholders = [
        "title", "when", "time", "alarm", "start", "end", "location", "description", "meeting_url", "minutes",
            "calendar", "uid",
        "action", "late",
    ]
    static let timeLimit: TimeInterval = 10

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    let words: [String]

    init(command: String) throws {
        do { words = try ConfigWords.split(command[...]) } catch { throw Invalid(description: "\(error)") }
        guard !words.isEmpty else { throw Invalid(description: "give the program to run") }
        for word in words {
            for name in AlarmAction.names(in: word) where !AlarmAction.placeholders.contains(name) {
                throw Invalid(description: "unknown placeholder {\(name)}; known: "
                    + AlarmAction.placeholders.map { "{\($0)}" }.joined(separator: " "))
            }
        }
    }

    /// The `{name}`s of a word (`{{` and `}}` are braces).
    static func names(in word: String) -> [String] {
        var names: [String] = []
        _ = fill(word) { names.append($0); return "" }
        return names
    }

    /// A word with each `{name}` replaced by `value(name)`.
    static func fill(_ word: String, _ value: (String) -> String) -> String {
        var out = ""
        var rest = word[...]
        while let c = rest.first {
            rest = rest.dropFirst()
            if c == "{" && rest.first == "{" || c == "}" && rest.first == "}" {
                out.append(c)
                rest = rest.dropFirst()
            } else if c == "{", let close = rest.firstIndex(of: "}") {
                out += value(String(rest[..<close]))
                rest = rest[rest.index(after: close)...]
            } else {
                out.append(c)
            }
        }
        return out
    }

    func arguments(for entry: AlarmSchedule.Entry, formatter: AlarmFormatter, iso: ISOTime) -> [String] {
        let o = entry.occurrence
        func value(_ name: String) -> String {
            switch name {
            case "title": o.title
            case "when": formatter.when(entry)
            case "time": formatter.wording.formats.shortTime(entry.time)
            case "alarm": iso.string(instant: entry.time)
            case "start": o.shownStart.map(iso.string) ?? ""
            case "end": o.shownEnd.map(iso.string) ?? ""
            case "location": o.location ?? ""
            case "description": entry.alarm.description ?? o.description ?? ""
            case "meeting_url": o.meetingURL ?? ""
            case "minutes": String(formatter.minutesUntil(entry))
            case "calendar": o.calendar.name
            case "uid": o.uid
            case "action": entry.alarm.action
            case "late": entry.late ? "true" : "false"
            default: ""
            }
        }
        return words.map { AlarmAction.fill($0, value) }
    }

    /// Runs the program for one alarm and waits for it (at most `timeLimit`).
    func run(for entry: AlarmSchedule.Entry, formatter: AlarmFormatter, iso: ISOTime) {
        let arguments = arguments(for: entry, formatter: formatter, iso: iso)
        let name = PrintableText.escaped(arguments[0])
        let about = "alarm of \"\(PrintableText.escaped(entry.occurrence.title))\" at " +
            "\(formatter.wording.formats.shortTime(entry.time))"
        switch ChildProcess.run(arguments, timeLimit: AlarmAction.timeLimit) {
        case .notStarted(let code):
            StandardError.write("ics-agenda: warning: --exec: \(name): \(String(cString: strerror(code))) (\(about))\n")
        case .stopped:
            StandardError.write("ics-agenda: warning: --exec: \(name) ran longer than \(Int(AlarmAction.timeLimit)) " +
                "s and was stopped (\(about))\n")
        case .signalled(let signal):
            StandardError.write("ics-agenda: warning: --exec: \(name) ended by signal \(signal) (\(about))\n")
        case .exited(let code) where code != 0:
            StandardError.write("ics-agenda: warning: --exec: \(name) exited with status \(code) (\(about))\n")
        case .exited, .lost:
            break
        }
    }
}
