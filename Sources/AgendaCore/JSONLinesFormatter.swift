import Foundation

/// `--format json`: JSON Lines, one object per occurrence in agenda order,
/// every key of the contract on every line (`null` when absent).
public struct JSONLinesFormatter: Sendable {
    public let iso: ISOTime

    public init(clock: ZoneClock) {
        iso = ISOTime(clock: clock)
    }

    public func write(_ sections: [AgendaSection], to out: inout some TextOutputStream) {
        for section in sections {
            for row in section.rows where row.isFirstListed {
                out.write(line(row))
                out.write("\n")
            }
        }
    }

    func line(_ row: AgendaRow) -> String {
        let o = row.occurrence
        let reminder: Reminder?
        if case .reminder(let r) = o.item { reminder = r } else { reminder = nil }
        let start = reminder == nil ? o.start : (o.start ?? o.due)
        let end = reminder == nil ? o.end : (o.due ?? o.start)
        var fields: [(String, String)] = [
            ("kind", quote(reminder == nil ? "event" : "reminder")),
            ("uid", quote(o.uid.isEmpty ? nil : o.uid)),  // no UID: null, as the contract says
            ("recurrence_id", time(o.recurrenceID)),
            ("title", quote(o.title)),
            ("start", time(start)),
            ("end", time(end)),
            ("all_day", o.isAllDay ? "true" : "false"),
            ("day", row.day.map { quote($0.iso) } ?? "null"),
            ("location", quote(o.location)),
            ("description", quote(o.description)),
            ("status", quote(o.status)),
            ("calendar", quote(o.calendar.name)),
            ("source", quote(o.calendar.source)),
        ]
        fields.append(("due", time(o.due)))
        fields.append(("completed", reminder.map { $0.isCompleted ? "true" : "false" } ?? "null"))
        fields.append(("priority", reminder?.priority.map(String.init) ?? "null"))
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    func time(_ t: AgendaTime?) -> String { t.map { quote(iso.string($0)) } ?? "null" }

    func quote(_ s: String?) -> String { JSONText.quote(s) }
}

/// JSON string literals, escaped per RFC 8259 (and U+2028/U+2029, for JavaScript readers).
enum JSONText {
    static func quote(_ s: String?) -> String {
        guard let s else { return "null" }
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}" || scalar == "\u{2029}":
                out += "\\u" + pad(Int(scalar.value), 4, hex: true)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

func pad(_ n: Int, _ width: Int, hex: Bool) -> String {
    let s = String(n, radix: 16)
    return String(repeating: "0", count: max(0, width - s.count)) + s
}
