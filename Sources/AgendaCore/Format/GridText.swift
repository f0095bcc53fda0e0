import Foundation

/// What the week and month grids draw with: box-drawing characters under a
/// UTF-8 locale, ASCII otherwise; and text cut and padded to a number of
/// terminal columns (East Asian wide characters and emoji take two).
package struct GridText: Sendable {
    package let unicode: Bool

    package init(unicode: Bool) {
        self.unicode = unicode
    }

    /// The marks, drawn or in ASCII: a column's edge, a rule, where they cross,
    /// a cut's ellipsis, a block's left edge on each of its lines, the
    /// current time in the hours' column.
    var vertical: String { unicode ? "│" : "|" }
    var horizontal: String { unicode ? "─" : "-" }
    var cross: String { unicode ? "┼" : "+" }
    var ellipsis: String { unicode ? "…" : "~" }
    var edge: String { unicode ? "▎" : ":" }
    var now: String { unicode ? "▶" : ">" }

    /// Whether the environment's character set is UTF-8 (`LC_ALL`, else `LC_CTYPE`, else `LANG`).
    package static func isUTF8(environment: [String: String]) -> Bool {
        let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lower = name.lowercased()
        return lower.contains("utf-8") || lower.contains("utf8")
    }

    /// How many terminal columns `s` takes (`displayWidth`).
    package static func width(_ s: String) -> Int { displayWidth(s) }

    /// `s` in at most `width` columns: cut with an ellipsis when longer.
    package func cut(_ s: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        if displayWidth(s) <= width { return s }
        var out = ""
        var used = 0
        let room = width - displayWidth(ellipsis)
        for character in s {
            let w = displayWidth(String(character))
            if used + w > room { break }
            out.append(character)
            used += w
        }
        return out + ellipsis
    }

    /// `s` cut to `width` columns and padded with spaces to exactly that.
    package func fit(_ s: String, _ width: Int) -> String {
        let cut = self.cut(s, width)
        return cut + String(repeating: " ", count: max(0, width - displayWidth(cut)))
    }

    /// `s` centred in `width` columns (cut when longer).
    func centred(_ s: String, _ width: Int) -> String {
        let cut = self.cut(s, width)
        let left = max(0, width - displayWidth(cut)) / 2
        return String(repeating: " ", count: left) + cut + String(repeating: " ",
            count: max(0, width - displayWidth(cut) - left))
    }

    /// Text of the locale (a range of days, a month's name) as the
    /// drawing's character set allows: in ASCII, dashes as `-` and the
    /// narrow and thin spaces as blanks.
    package func plain(_ s: String) -> String {
        guard !unicode else { return s }
        return String(String.UnicodeScalarView(s.unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar.value {
            case 0x2010...0x2015: "-"
            case 0x2000...0x200A, 0x202F, 0x00A0: " "
            default: scalar
            }
        }))
    }

    /// A line without the spaces at its end.
    static func trimmed(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}
