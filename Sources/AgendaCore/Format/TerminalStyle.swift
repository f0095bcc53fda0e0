/// ANSI styling for text output; every method is the identity when colour is off.
package struct TerminalStyle: Sendable {
    package let enabled: Bool

    package init(enabled: Bool) {
        self.enabled = enabled
    }

    package func bold(_ s: String) -> String { wrap(s, "1") }
    package func dim(_ s: String) -> String { wrap(s, "2") }
    package func red(_ s: String) -> String { wrap(s, "31") }
    package func strike(_ s: String) -> String { wrap(s, "9") }

    private func wrap(_ s: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(s)\(TerminalStyle.off)" : s
    }

    /// What `red` puts before and after its text, for text written in place.
    static let redOn = "\u{1B}[31m"
    static let off = "\u{1B}[0m"
}

/// How many terminal columns a string takes: East Asian wide characters
/// take two, combining marks none.
func displayWidth(_ s: String) -> Int {
    var width = 0
    for scalar in s.unicodeScalars {
        let v = scalar.value
        switch v {
        case 0x0300...0x036F, 0x200B...0x200F: continue
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1FAFF, 0x20000...0x3FFFD:
            width += 2
        default: width += 1
        }
    }
    return width
}
