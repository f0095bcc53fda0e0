import AgendaCore

/// Content lines libical would cut or misread without a word, rewritten
/// before it reads them (`TextRepair.copy` hands it each logical line that
/// is long or is a rule).
///
/// - libical keeps at most 500 values of one property (`EXDATE`, `RDATE`,
///   ...) and drops the rest: a longer list is split into several
///   properties of the same name and parameters, which mean the same
///   (RFC 5545 3.8.5.1, 3.8.5.2). No warning: nothing is lost.
/// - libical keeps at most 100 parameters of one property and reads the
///   rest as part of the value (a title `X-P100=v100:Real title`, a TZID
///   lost): `X-` and unknown parameters, which nothing here reads, are left
///   out first, the ones RFC 5545 defines are kept. It also reads each
///   parameter in time that grows with the ones before it.
/// - libical reads RRULE numbers into 16- and 32-bit fields and keeps what
///   wraps around: `COUNT=4294967299` counts 3, `INTERVAL=65537` steps by 1,
///   `BYMONTHDAY=4294967297` is 1. Every numeric part is checked against
///   RFC 5545 3.3.10 first: a COUNT past 2^31 is read as no COUNT (said so),
///   any other number out of range makes the rule ignored, as a bad part does.
/// - libical drops a TRIGGER whose value is in lower case (`-pt15m`), which
///   is valid: its value is put in capitals (`triggerInCapitals`).
enum PropertyGuard {
    /// What libical keeps of one property (icalparser.c).
    static let maxParameters = 100
    static let maxValues = 500
    /// The largest INTERVAL libical holds (a `short`) and COUNT (an `int`).
    static let maxInterval = 32767
    static let maxCount = Int(Int32.max)
    /// Rules (RRULE, EXRULE) read in one component: libical takes time that
    /// grows with the square of the bad ones (it removes each from a list).
    static let maxRules = 1000

    /// A warning about a line rewritten: its property and what was done.
    struct Note {
        let line: Int
        let damage: DamageKind
        let property: String
        let message: String
    }

    /// Whether a logical line needs a closer look: only long lines can hold
    /// 100 parameters or 500 values; rules, and TRIGGERs (`triggerInCapitals`),
    /// are checked whatever their length.
    @inline(__always)
    static func needsLook(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        text.count > 300 || isRule(text) || isTrigger(text)
    }

    /// The line as libical should read it (unfolded, ending in CRLF), or nil
    /// when it can be read as it is. `notes` gets a warning for what is lost.
    static func rewrite(_ text: UnsafeBufferPointer<UInt8>, line: Int, report: inout TextRepair.Report) -> [UInt8]? {
        if isTrigger(text) { return triggerInCapitals(text) }
        guard mayNeedRewrite(text) else { return nil }
        if isRule(text) {
            report.rules += 1
            if report.rules > maxRules {
                if report.rules == maxRules + 1 {
                    report.notes.append(Note(line: line, damage: .tooManyRules, property: TextRepair.propertyName(text),
                        message: "more than \(maxRules) rules in one component (RFC 5545 allows one RRULE); this one " +
                            "and the ones after it are ignored"))
                }
                return []
            }
        }
        if isRule(text) && rangesHold(text) { return nil }  // every rule passes here: no allocation
        return rewriteLine(text, line: line, notes: &report.notes)
    }

    /// A TRIGGER whose value is in lower case (`-pt15m`), with its value in
    /// capitals: valid (ABNF ignores case, RFC 5234 2.3), but libical drops
    /// it. Its parameters (`RELATED=END`) stay as written. No warning:
    /// nothing is wrong. nil when it needs nothing.
    static func triggerInCapitals(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var bytes = LineScan.unfoldedLine(text)
        let colon = bytes.withUnsafeBufferPointer { LineScan.valueColon(in: $0, from: 0, before: $0.count) }
        guard colon < bytes.count, bytes[(colon + 1)...].contains(where: { $0 >= 0x61 && $0 <= 0x7A }) else {
            return nil
        }
        // Only the letters a duration or a date-time has: anything else stays as written, for its warning.
        let letters: Set<UInt8> = Set("ptwdhmsz".utf8)
        guard bytes[(colon + 1)...].allSatisfy({ !($0 >= 0x61 && $0 <= 0x7A) || letters.contains($0) }) else {
            return nil
        }
        for i in (colon + 1)..<bytes.count where bytes[i] >= 0x61 && bytes[i] <= 0x7A { bytes[i] -= 0x20 }
        return bytes + [0x0D, 0x0A]
    }

    /// Whether an unfolded rule's numbers are all in range (RFC 5545
    /// 3.3.10), read from its bytes; false sends it to `checkRule`, which
    /// also says what is wrong. A folded line, a quoted parameter or
    /// anything unusual is left to `checkRule` too.
    private static func rangesHold(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = text.count
        while i < n, text[i] != 0x3A {
            if text[i] == 0x22 || text[i] == 0x0A || text[i] == 0x3B { return false }  // quotes, folds, parameters
            i += 1
        }
        i += 1
        var end = n
        while end > i, text[end - 1] == 0x0A || text[end - 1] == 0x0D { end -= 1 }
        while i < end {
            // One part: KEY=VALUE[,VALUE...]
            let keyStart = i
            while i < end, text[i] != 0x3D, text[i] != 0x3B { i += 1 }
            guard i < end, text[i] == 0x3D else { return false }
            let key = UnsafeBufferPointer(rebasing: text[keyStart..<i])
            i += 1
            if key.count == 5, key[0] | 0x20 == 0x75, key[1] | 0x20 == 0x6E, key[2] | 0x20 == 0x74,
                key[3] | 0x20 == 0x69, key[4] | 0x20 == 0x6C {
                let start = i
                while i < end, text[i] != 0x3B { i += 1 }
                guard isRealUntil(Array(text[start..<i])) else { return false }
                if i < end { i += 1 }
                continue
            }
            // RSCALE (RFC 7529): months and days of another calendar, left to checkRule.
            if key.count == 6, key[0] | 0x20 == 0x72, key[1] | 0x20 == 0x73 { return false }
            let limits = numericLimits(key)
            while i < end, text[i] != 0x3B {
                if text[i] == 0x0A || text[i] == 0x0D { return false }
                guard let (low, high, signed, weekday) = limits else {
                    i += 1
                    continue
                }
                // One number of a list.
                var negative = false
                if text[i] == 0x2B || text[i] == 0x2D {
                    negative = text[i] == 0x2D
                    i += 1
                }
                var value = 0, digits = 0
                while i < end, text[i] >= 0x30, text[i] <= 0x39 {
                    value = value * 10 + Int(text[i] - 0x30)
                    digits += 1
                    if digits > 10 { return false }
                    i += 1
                }
                if digits == 0 {
                    guard weekday, !negative else { return false }
                } else if value < low || value > high || (negative && !signed) {
                    return false
                }
                while i < end, text[i] != 0x2C, text[i] != 0x3B { i += 1 }  // a weekday after the ordinal
                if i < end, text[i] == 0x2C { i += 1 }
            }
            if i < end { i += 1 }
        }
        return true
    }

    /// The range of a rule part's numbers (`weekday`: BYDAY, whose numbers
    /// are optional ordinals); nil for a part that holds no number to check.
    private static func numericLimits(_ key: UnsafeBufferPointer<UInt8>) -> (low: Int, high: Int, signed: Bool,
        weekday: Bool)? {
        func `is`(_ name: StaticString) -> Bool {
            guard key.count == name.utf8CodeUnitCount else { return false }
            for j in 0..<key.count where key[j] & 0xDF != name.utf8Start[j] & 0xDF { return false }
            return true
        }
        let first = (key.first ?? 0) | 0x20
        // BY..., COUNT, INTERVAL; not FREQ, WKST
        guard first == 0x62 || first == 0x63 || first == 0x69 else { return nil }
        if `is`("COUNT") { return (0, maxCount, false, false) }
        if `is`("INTERVAL") { return (1, maxInterval, false, false) }
        if `is`("BYDAY") { return (1, 53, true, true) }
        for (name, range) in byteRanges where `is`(name) { return (range.min, range.max, range.signed, false) }
        return nil
    }

    private static let byteRanges: [(StaticString, (min: Int, max: Int, signed: Bool))] = [
        ("BYSECOND", (0, 60, false)), ("BYMINUTE", (0, 59, false)), ("BYHOUR", (0, 23, false)),
        ("BYMONTHDAY", (1, 31, true)), ("BYYEARDAY", (1, 366, true)),
        ("BYWEEKNO", (1, 53, true)), ("BYMONTH", (1, 12, false)), ("BYSETPOS", (1, 366, true)),
    ]

    @inline(__always)
    private static func isRule(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let lower = (text.first ?? 0) | 0x20
        return (lower == 0x72 && ContentLines.hasName(text, "RRULE"))
            || (lower == 0x65 && ContentLines.hasName(text, "EXRULE"))
    }

    @inline(__always)
    private static func isTrigger(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        (text.first ?? 0) | 0x20 == 0x74 && ContentLines.hasName(text, "TRIGGER")
    }

    private static func rewriteLine(_ text: UnsafeBufferPointer<UInt8>, line: Int, notes: inout [Note]) -> [UInt8]? {
        let bytes = LineScan.unfoldedLine(text)
        guard let parts = ContentLineParts(bytes) else { return nil }
        let name = String(decoding: parts.name, as: UTF8.self).uppercased()
        var changed = false
        var parameters = parts.parameters
        if parameters.count > maxParameters {
            // At most 100: each defined parameter once (20 names), then the
            // others in order.
            parameters = keptParameters(parameters)
            changed = true
        }
        var values = [parts.value]
        if name == "RRULE" || name == "EXRULE" {
            switch checkRule(parts.value) {
            case .fine: break
            case .mended(let rule, let why):
                notes.append(Note(line: line, damage: .ruleGrammar, property: name, message: why))
                values = [rule]
                changed = true
            case .ignored(let why):
                notes.append(Note(line: line, damage: .ruleGrammar, property: name, message: why))
                return []
            }
        } else if ["EXDATE", "RDATE", "CATEGORIES", "RESOURCES", "FREEBUSY"].contains(name) {
            let split = splitValues(parts.value)
            if split.count > 1 {
                values = split
                changed = true
            }
        }
        guard changed else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        for value in values {
            out += parts.name
            for p in parameters {
                out.append(0x3B)
                out += p
            }
            out.append(0x3A)
            out += value
            out += [0x0D, 0x0A]
        }
        return out
    }

    /// A quick look at the raw line: a rule, more than `maxParameters`
    /// semicolons before the value, or a list property with `maxValues` commas.
    private static func mayNeedRewrite(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let lower = (text.first ?? 0) | 0x20
        if isRule(text) { return true }
        var semicolons = 0, quoted = false, i = 0
        while i < text.count {
            let b = text[i]
            if b == 0x22 { quoted.toggle() } else if !quoted && b == 0x3B { semicolons += 1 } else if !quoted
                && b == 0x3A {
                break
            }
            i += 1
        }
        if semicolons > maxParameters { return true }
        guard lower == 0x65 || lower == 0x72 || lower == 0x63 || lower == 0x66 else { return false }
        var commas = 0
        while i < text.count {
            if text[i] == 0x2C { commas += 1 }
            i += 1
        }
        return commas >= maxValues
    }

    /// The parameters RFC 5545 defines first (TZID, VALUE, ...; each once),
    /// then `X-` and unknown ones while there is room.
    private static func keptParameters(_ parameters: [[UInt8]]) -> [[UInt8]] {
        let known: Set<String> = ["ALTREP", "CN", "CUTYPE", "DELEGATED-FROM", "DELEGATED-TO", "DIR", "ENCODING",
            "FMTTYPE",
            "FBTYPE", "LANGUAGE", "MEMBER", "PARTSTAT", "RANGE", "RELATED", "RELTYPE", "ROLE", "RSVP", "SENT-BY",
                "TZID", "VALUE"]
        var kept: [[UInt8]] = []
        var others: [[UInt8]] = []
        var seen = Set<String>()
        for p in parameters {
            let end = p.firstIndex(of: 0x3D) ?? p.count
            let name = String(decoding: p[..<end], as: UTF8.self).uppercased()
            // A defined parameter given again says nothing more (the first is kept, as libical reads it).
            if known.contains(name) {
                if seen.insert(name).inserted { kept.append(p) }
            } else {
                others.append(p)
            }
        }
        let room = max(0, maxParameters - kept.count)
        return kept + others.prefix(room)
    }

    /// A value list cut into lists of at most `maxValues` values (commas
    /// inside quotes or escaped with a backslash do not separate).
    private static func splitValues(_ value: [UInt8]) -> [[UInt8]] {
        var commas = 0
        for b in value where b == 0x2C { commas += 1 }
        guard commas >= maxValues else { return [value] }
        var lists: [[UInt8]] = []
        var current: [UInt8] = []
        var count = 0
        var escaped = false
        for b in value {
            if b == 0x2C && !escaped {
                count += 1
                if count == maxValues {
                    lists.append(current)
                    current = []
                    count = 0
                    continue
                }
            }
            escaped = b == 0x5C && !escaped
            current.append(b)
        }
        lists.append(current)
        return lists
    }
}
