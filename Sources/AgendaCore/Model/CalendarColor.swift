/// A calendar's colour as the contract writes it: `#rrggbb`, lower case.
package enum CalendarColor {
    /// `#RRGGBB` (any case), `#RRGGBBAA` (Apple's `X-APPLE-CALENDAR-COLOR`
    /// and CalDAV's `calendar-color` add an alpha, dropped) or `#RGB`, as
    /// `#rrggbb`; nil for anything else. A CSS colour name (RFC 7986 `COLOR`
    /// allows them) is read from the few a calendar program offers.
    package static func normalized(_ text: String) -> String? {
        let written = text.trimmingWhitespace().lowercased()
        if let named = names[written] { return named }
        guard written.hasPrefix("#") else { return nil }
        let digits = written.dropFirst()
        guard digits.allSatisfy({ $0.isHexDigit && $0.isASCII }) else { return nil }
        switch digits.count {
        case 6: return "#" + digits
        case 8: return "#" + digits.prefix(6)
        case 3: return "#" + digits.map { "\($0)\($0)" }.joined()
        default: return nil
        }
    }

    /// The CSS colour names calendar programs offer (RFC 7986 3.7.3: `COLOR` is a CSS3 name).
    static let names: [String: String] = [
        "black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#008000", "blue": "#0000ff",
            "yellow": "#ffff00",
        "orange": "#ffa500", "purple": "#800080", "pink": "#ffc0cb", "brown": "#a52a2a", "gray": "#808080",
            "grey": "#808080",
        "cyan": "#00ffff", "magenta": "#ff00ff", "teal": "#008080", "navy": "#000080", "maroon": "#800000",
            "olive": "#808000",
        "lime": "#00ff00", "aqua": "#00ffff", "fuchsia": "#ff00ff", "silver": "#c0c0c0", "turquoise": "#40e0d0",
        "violet": "#ee82ee", "gold": "#ffd700", "indigo": "#4b0082", "coral": "#ff7f50", "salmon": "#fa8072",
    ]
}
