import AgendaCore

/// RFC 5545 3.3.10's ranges, part by part, for the rules `PropertyGuard`
/// rewrites: a value libical would cut or wrap is mended or the rule ignored, and said.
extension PropertyGuard {
    enum RuleCheck: Equatable {
        case fine
        /// Read as `rule`, for the reason given.
        case mended(rule: [UInt8], why: String)
        case ignored(why: String)
    }

    /// RFC 5545 3.3.10's ranges, part by part.
    static func checkRule(_ value: [UInt8]) -> RuleCheck {
        let text = String(decoding: value, as: UTF8.self)
        var kept: [Substring] = []
        var why: [String] = []
        let shown = text.count > 80 ? String(text.prefix(80)) + "…" : text
        // RFC 7529: with RSCALE, months and days are another calendar's
        // (a 13th month): only what libical cannot hold (a 16-bit value) is out of range.
        let otherCalendar = text.uppercased().contains("RSCALE=")
        for part in text.split(separator: ";", omittingEmptySubsequences: false) {
            guard let eq = part.firstIndex(of: "=") else {
                kept.append(part)
                continue
            }
            let key = part[..<eq].uppercased()
            let raw = part[part.index(after: eq)...]
            let shownPart = part.count > 40 ? part.prefix(40) + "…" : part
            switch key {
            case "COUNT":
                if let (negative, n) = signedMagnitude(raw), !negative, n > maxCount {
                    why.append("COUNT=\(shortNumber(raw)) is more than libical can count (\(maxCount)); read as no " +
                        "COUNT (at one occurrence a second, that many run for over 68 years)")
                    continue
                }
            case "UNTIL":
                if !isRealUntil(Array(raw.utf8)) {
                    return .ignored(why: "cannot read \"\(shown)\": \(shownPart) is not valid (no such date or " +
                        "time); the rule is ignored")
                }
            case "INTERVAL":
                if let (negative, n) = signedMagnitude(raw), negative || n == 0 || n > maxInterval {
                    return .ignored(why: "cannot read \"\(shown)\": INTERVAL=\(shortNumber(raw)) is not valid (out " +
                        "of range: 1 to \(maxInterval)); the rule is ignored")
                }
            default:
                guard var range = ranges[key] else { break }
                if otherCalendar { range = (0, Int(Int16.max), true) }
                for item in raw.split(separator: ",", omittingEmptySubsequences: false) {
                    var number = item
                    if key == "BYDAY" {
                        // [+/-]ordwk weekday: only the ordinal is a number.
                        number = item.prefix { $0 == "+" || $0 == "-" || $0.isASCII && $0.isNumber }
                        if number.isEmpty || number == "+" || number == "-" { continue }
                    }
                    // not a number: libical says so
                    guard let (negative, n) = signedMagnitude(number) else { continue }
                    if n > range.max || n < range.min || (negative && !range.signed) {
                        let allowed = range.signed ? "\(range.min) to \(range.max), or -\(range.max) to " +
                            "-\(range.min)" : "\(range.min) to \(range.max)"
                        return .ignored(why: "cannot read \"\(shown)\": \(shownPart) is not valid (out of range: " +
                            "\(allowed)); the rule is ignored")
                    }
                }
            }
            kept.append(part)
        }
        guard !why.isEmpty else { return .fine }
        return .mended(rule: Array(kept.joined(separator: ";").utf8),
            why: "cannot read \"\(shown)\" as written: " + why.joined(separator: "; "))
    }

    /// Whether an UNTIL value is a real date or date-time: `YYYYMMDD`, or
    /// with `THHMMSS` and an optional `Z`, whose fields exist (libical rolls
    /// month 13 into the next year, March 32 into April). Other forms are
    /// libical's to judge (it reads some that RFC 5545 does not allow).
    static func isRealUntil(_ v: [UInt8]) -> Bool {
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= v.count else { return nil }
            var n = 0
            for b in v[from..<(from + count)] {
                guard b >= 0x30, b <= 0x39 else { return nil }
                n = n * 10 + Int(b - 0x30)
            }
            return n
        }
        guard v.count == 8 || v.count == 15 || v.count == 16, let year = number(0, 4), let month = number(4, 2),
            let day = number(6, 2)
        else { return true }
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= CivilDate.daysIn(year: year, month: month) else {
            return false
        }
        guard v.count > 8 else { return true }
        guard v[8] | 0x20 == 0x74, let hour = number(9, 2), let minute = number(11, 2),
            let second = number(13, 2) else {
            return true
        }
        return hour <= 23 && minute <= 59 && second <= 60
    }

    private static let ranges: [String: (min: Int, max: Int, signed: Bool)] = [
        "BYSECOND": (0, 60, false), "BYMINUTE": (0, 59, false), "BYHOUR": (0, 23, false),
        "BYDAY": (1, 53, true), "BYMONTHDAY": (1, 31, true), "BYYEARDAY": (1, 366, true),
        "BYWEEKNO": (1, 53, true), "BYMONTH": (1, 12, false), "BYSETPOS": (1, 366, true),
    ]

    /// The sign and size of a decimal number with an optional sign,
    /// saturating far past any range; nil when it is not one.
    private static func signedMagnitude(_ text: Substring) -> (negative: Bool, size: Int)? {
        var digits = text.drop { $0 == " " }
        var negative = false
        if let first = digits.first, first == "+" || first == "-" {
            negative = first == "-"
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var n = 0
        for d in digits {
            n = min(n * 10 + Int(d.asciiValue! - 48), 1 << 40)
        }
        return (negative, n)
    }

    private static func shortNumber(_ raw: Substring) -> String { raw.count > 24 ? raw.prefix(24) + "…" : String(raw) }
}
