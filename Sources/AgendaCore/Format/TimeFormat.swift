import Foundation

/// A strftime format on a template's time placeholder (`{start:%H:%M}`,
/// `{end:%a %d}`): read once with the template, written in the display
/// zone and the locale's words. The conversions are C's and POSIX's most
/// used: `%a %A %b %B %h %p` in the locale's words; `%c %x %X` in its date
/// and time styles; `%d %e %H %I %j %m %M %S %u %w %y %Y %C %G %g %V %s`
/// as numbers; `%F %T %R %D %r` as their parts; `%z` the offset (nothing
/// for a floating time or a date); `%n %t %%`.
package struct TimeFormat: Sendable {
    enum Piece: Sendable {
        case text(String)
        case conversion(Character)
    }

    static let conversions: Set<Character> = Set("aAbBhpcxXdeHIjmMSuwyYCGgVsFTRDrznt%")
    /// Conversions that stand for others.
    static let composites: [Character: String] = [
        "F": "%Y-%m-%d", "T": "%H:%M:%S", "R": "%H:%M", "D": "%m/%d/%y", "r": "%I:%M:%S %p", "h": "%b",
    ]

    let pieces: [Piece]

    /// - Parameter placeholder: named in the message of a format that cannot be read (`Template.Invalid`).
    package init(_ format: String, placeholder: String) throws {
        var pieces: [Piece] = []
        var text = ""
        var chars = Substring(format)
        while let c = chars.popFirst() {
            guard c == "%" else {
                text.append(c)
                continue
            }
            guard let conversion = chars.popFirst() else {
                throw Template.Invalid(message: "{\(placeholder):\(format)}: a % at its end (%% is a percent sign)")
            }
            guard TimeFormat.conversions.contains(conversion) else {
                throw Template.Invalid(message: "{\(placeholder):\(format)}: no strftime conversion "
                    + "%\(conversion) (known: "
                    + "%a %A %b %B %c %C %d %D %e %F %g %G %h %H %I %j %m %M %n %p %r %R %s %S %t %T %u %V %w %x %X "
                    + "%y %Y %z %%)")
            }
            if let composite = TimeFormat.composites[conversion] {
                if !text.isEmpty { pieces.append(.text(text)) }
                text = ""
                pieces += try TimeFormat(composite, placeholder: placeholder).pieces
                continue
            }
            if !text.isEmpty { pieces.append(.text(text)) }
            text = ""
            pieces.append(.conversion(conversion))
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        self.pieces = pieces
    }

    /// The time written: `wall` is its wall-clock reading (as if UTC),
    /// `offset` its zone's offset in seconds (nil for a floating time or a date).
    package func string(wall: Date, offset: Int?, formats: LocaleFormats) -> String {
        let calendar = formats.gregorian
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: wall)
        let (year, month, day) = (c.year ?? 1970, c.month ?? 1, c.day ?? 1)
        let (hour, minute, second, weekday) = (c.hour ?? 0, c.minute ?? 0, c.second ?? 0, c.weekday ?? 1)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let text): out += text
            case .conversion(let conversion):
                switch conversion {
                case "a": out += calendar.shortWeekdaySymbols[weekday - 1]
                case "A": out += calendar.weekdaySymbols[weekday - 1]
                case "b": out += calendar.shortMonthSymbols[month - 1]
                case "B": out += calendar.monthSymbols[month - 1]
                case "p": out += hour < 12 ? calendar.amSymbol : calendar.pmSymbol
                case "c", "x", "X":
                    let styles: (DateFormatter.Style, DateFormatter.Style) =
                        conversion == "c" ? (.medium, .short) : conversion == "x" ? (.short, .none) : (.none, .medium)
                    out += TimeFormat.styled(wall, styles, formats)
                case "d": out += two(day)
                case "e": out += day < 10 ? " \(day)" : String(day)
                case "H": out += two(hour)
                case "I": out += two(hour % 12 == 0 ? 12 : hour % 12)
                case "j":
                    let ordinal = calendar.ordinality(of: .day, in: .year, for: wall) ?? 1
                    out += String(repeating: "0", count: max(0, 3 - String(ordinal).count)) + String(ordinal)
                case "m": out += two(month)
                case "M": out += two(minute)
                case "S": out += two(second)
                case "u": out += String(weekday == 1 ? 7 : weekday - 1)
                case "w": out += String(weekday - 1)
                case "y": out += two(year % 100)
                case "Y": out += String(year)
                case "C": out += two(year / 100)
                case "G", "g", "V":
                    let week = formats.isoWeeks.dateComponents([.weekOfYear, .yearForWeekOfYear], from: wall)
                    let isoYear = week.yearForWeekOfYear ?? year
                    out += conversion == "V" ? two(week.weekOfYear ?? 1)
                        : conversion == "G" ? String(isoYear) : two(isoYear % 100)
                case "s": out += String(Int((wall.timeIntervalSince1970 - Double(offset ?? 0)).rounded(.down)))
                case "z":
                    guard let offset else { continue }
                    out += (offset < 0 ? "-" : "+") + two(abs(offset) / 3600) + two(abs(offset) % 3600 / 60)
                case "n": out += "\n"
                case "t": out += "\t"
                default: out += "%"
                }
            }
        }
        return out
    }

    static func styled(_ wall: Date, _ styles: (DateFormatter.Style, DateFormatter.Style), _ formats: LocaleFormats)
        -> String {
        formats.styled(styles.0, styles.1).string(from: wall).replacingOccurrences(of: "\u{202F}", with: " ")
    }
}
