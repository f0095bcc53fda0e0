/// ANSI styling for text output; every method is the identity when colour is off.
package struct TerminalStyle: Sendable {
    package let enabled: Bool
    /// The terminal shows 24-bit colour (`COLORTERM=truecolor` or `24bit`);
    /// otherwise a calendar's colour is the nearest of the 256 xterm ones.
    package let trueColor: Bool

    package init(enabled: Bool, trueColor: Bool = false) {
        self.enabled = enabled
        self.trueColor = trueColor
    }

    /// Whether the environment says the terminal shows 24-bit colour.
    package static func trueColor(environment: [String: String]) -> Bool {
        let value = (environment["COLORTERM"] ?? "").lowercased()
        return value == "truecolor" || value == "24bit"
    }

    /// `s` in a calendar's colour (`#rrggbb`); as it is when colour is off or there is none.
    func tinted(_ s: String, _ color: String?) -> String {
        guard enabled, let color, let code = foreground(color) else { return s }
        return "\u{1B}[\(code)m\(s)\(TerminalStyle.off)"
    }

    /// The SGR parameters of a foreground colour: `38;2;R;G;B`, or `38;5;N`.
    func foreground(_ color: String) -> String? {
        guard color.count == 7, let value = Int(color.dropFirst(), radix: 16) else { return nil }
        let (r, g, b) = (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
        return trueColor ? "38;2;\(r);\(g);\(b)" : "38;5;\(TerminalStyle.nearest256(r, g, b))"
    }

    /// The xterm colour (16-255: the 6x6x6 cube and the grey ramp) nearest to r, g, b.
    static func nearest256(_ r: Int, _ g: Int, _ b: Int) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func step(_ v: Int) -> Int { levels.indices.min { abs(levels[$0] - v) < abs(levels[$1] - v) }! }
        let (cr, cg, cb) = (step(r), step(g), step(b))
        func distance(_ x: (Int, Int, Int)) -> Int {
            (x.0 - r) * (x.0 - r) + (x.1 - g) * (x.1 - g) + (x.2 - b) * (x.2 - b)
        }
        let cube = 16 + 36 * cr + 6 * cg + cb
        let grey = min(23, max(0, ((r + g + b) / 3 - 3) / 10))
        let greyLevel = 8 + 10 * grey
        return distance((levels[cr], levels[cg], levels[cb])) <= distance((greyLevel, greyLevel, greyLevel))
            ? cube : 232 + grey
    }

    func bold(_ s: String) -> String { wrap(s, "1") }
    func dim(_ s: String) -> String { wrap(s, "2") }
    func red(_ s: String) -> String { wrap(s, "31") }
    func strike(_ s: String) -> String { wrap(s, "9") }

    private func wrap(_ s: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(s)\(TerminalStyle.off)" : s
    }

    /// What `red` puts before and after its text, for text written in place.
    static let redOn = "\u{1B}[31m"
    static let off = "\u{1B}[0m"
}

/// How many terminal columns a string takes, as glibc's wcwidth counts
/// them: East Asian wide characters and emoji take two; combining marks
/// (Thai, Devanagari, Arabic, Hebrew points, ...), format characters and
/// Hangul's medial and final jamo take none.
func displayWidth(_ s: String) -> Int {
    var width = 0
    for scalar in s.unicodeScalars {
        let v = scalar.value
        if v < 0x0300 {  // Latin, the common case: one each
            width += 1
            continue
        }
        switch v {
        case 0x1160...0x11FF, 0x200B...0x200F: continue
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1FAFF, 0x20000...0x3FFFD:
            width += 2
        default:
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: continue
            default: width += 1
            }
        }
    }
    return width
}
