import AgendaCore

/// Decides, from a component's text alone, that an event cannot touch the
/// window, so that libical need not parse it.
///
/// A start more than two days after the window, or an end more than two
/// days before it, cannot reach it from any time zone (offsets stay within
/// ±26 hours). A series (RRULE) is skipped only when it starts after the
/// window: every instance of a rule starts at DTSTART or later. It reads
/// only what it must and errs on the side of parsing: an event with RDATE,
/// EXRULE or RECURRENCE-ID, or a date it cannot read, is parsed, and so is
/// a one-off event with a DURATION that starts before the window.
struct WindowPrefilter {
    let firstDayKey: Int
    let endDayKey: Int
    /// Whether an event with RRULE may be skipped (when it starts after the
    /// window). Not when the file has a RANGE=THISANDFUTURE override: that
    /// can move later instances of a series by any amount, also into the window.
    let skipsRules: Bool

    init(window: AgendaWindow, skipsRules: Bool) {
        firstDayKey = window.firstDay.adding(days: -2).dayKey
        endDayKey = window.endDay.adding(days: 2).dayKey
        self.skipsRules = skipsRules
    }

    /// The UID (empty when it has none) and SEQUENCE of an event that can be
    /// skipped, or nil when the event must be parsed. The loader still needs
    /// them: a skipped event may be the newer revision of one in the window.
    func skippableEvent(_ chunk: FramedComponent, _ buffer: UnsafeBufferPointer<UInt8>) -> (uid: String, sequence: Int,
        recurs: Bool)? {
        guard chunk.name == "VEVENT", chunk.unclosed.isEmpty else { return nil }
        var start: Int? = nil
        var end: Int? = nil
        var recurs = false
        var hasDuration = false
        var uid = ""
        var sequence = 0
        var hasSequence = false, hasUID = false
        var depth = 0
        for contentLine in ContentLines(buffer, in: chunk.range) {
            let line = contentLine.firstText(in: buffer)
            guard let first = line.first else { continue }
            // A fold inside a name (`DT` then ` END:…`, valid RFC 5545)
            // hides the property from a look at first lines: parsed. (A fold
            // after the name, in a long parameter, hides nothing.)
            if contentLine.isFolded && !line.contains(where: { $0 == 0x3A || $0 == 0x3B }) { return nil }
            // Only the event's own properties count, not a VALARM's.
            if ContentLines.hasName(line, "BEGIN") { depth += 1; continue }
            if ContentLines.hasName(line, "END") { depth -= 1; continue }
            guard depth == 1 else { continue }
            switch first | 0x20 {
            case 0x72:  // r
                if ContentLines.hasName(line, "RRULE") {
                    guard skipsRules else { return nil }
                    recurs = true
                } else if ContentLines.hasName(line, "RDATE") || ContentLines.hasName(line, "RECURRENCE-ID") {
                    return nil
                }
            case 0x65:  // e
                if ContentLines.hasName(line, "EXRULE") { return nil }
            case 0x64:  // d
                if ContentLines.hasName(line, "DURATION") { hasDuration = true }
                // Given twice (damage, told once parsed): the reader takes
                // the first, so this look cannot take either.
                if ContentLines.hasName(line, "DTSTART") {
                    guard start == nil, let key = WindowPrefilter.dayKey(line) else { return nil }
                    start = key
                } else if ContentLines.hasName(line, "DTEND") {
                    guard end == nil, let key = WindowPrefilter.dayKey(line) else { return nil }
                    end = key
                }
            case 0x73:  // s
                if ContentLines.hasName(line, "SEQUENCE") {
                    guard !hasSequence, let colon = line.firstIndex(of: 0x3A) else { return nil }
                    hasSequence = true
                    let value = line[(colon + 1)...]
                    // Signed (RFC 5545 3.3.8); past 32 bits the parser reads and tells it.
                    guard let n = Int(String(decoding: UnsafeBufferPointer(rebasing: value), as: UTF8.self)),
                        Int32(exactly: n) != nil else {
                        return nil
                    }
                    sequence = n
                }
            case 0x78:  // x
                // --format ics's own: the loader reads them (ICSWriter).
                if ContentLines.hasName(line, "X-ICS-AGENDA-SCOPE") { return nil }
            case 0x75:  // u
                if ContentLines.hasName(line, "UID") {
                    // A folded UID is rare; read it whole only then.
                    guard !hasUID, !contentLine.isFolded else { return nil }
                    hasUID = true
                    if let colon = line.firstIndex(of: 0x3A) {
                        uid = String(decoding: UnsafeBufferPointer(rebasing: line[(colon + 1)...]), as: UTF8.self)
                    }
                }
            default: break
            }
        }
        guard let start else { return nil }
        // Every instance of a rule starts at DTSTART or later (RFC 5545 3.8.5.3).
        if start > endDayKey { return (uid, sequence, recurs) }
        // An end before the start is damage, told once parsed: the start decides.
        if !recurs && !hasDuration && max(end ?? start, start) < firstDayKey { return (uid, sequence, false) }
        return nil
    }

    /// Whether `THISANDFUTURE` may be in the text as libical will read it:
    /// the letters in any case, with anything the loader takes out or
    /// unfolds between them (control characters, line breaks, blanks).
    /// Errs towards yes; a yes only means rules are parsed (`skipsRules`).
    static func mayMoveSeries(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let word: StaticString = "thisandfuture"
        let letters = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        let f = 7  // the word is looked for around each f: a rare letter in calendars, unlike t
        func ignorable(_ byte: UInt8) -> Bool { byte <= 0x20 || byte == 0x7F }
        func isLetter(_ byte: UInt8, _ letter: UInt8) -> Bool { byte | 0x20 == letter && byte > 0x40 }
        guard let base = text.baseAddress else { return false }
        var i = 0
        while i < text.count {
            defer { i += 1 }
            // Eight bytes at a time while none of them is an f or F.
            while i + 8 <= text.count {
                let x = (UnsafeRawPointer(base + i)
                    .loadUnaligned(as: UInt64.self) | 0x2020_2020_2020_2020) ^ 0x6666_6666_6666_6666
                if (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0 { break }
                i += 8
            }
            guard i < text.count, isLetter(text[i], letters[f]) else { continue }
            // "uture" after it, "thisand" before it, anything ignorable between the letters.
            var matched = f + 1
            var j = i + 1
            while matched < letters.count && j < text.count {
                if isLetter(text[j], letters[matched]) { matched += 1 } else if !ignorable(text[j]) { break }
                j += 1
            }
            guard matched == letters.count else { continue }
            matched = f
            j = i - 1
            while matched > 0 && j >= 0 {
                if isLetter(text[j], letters[matched - 1]) { matched -= 1 } else if !ignorable(text[j]) { break }
                j -= 1
            }
            if matched == 0 { return true }
        }
        return false
    }

    /// YYYYMMDD at the start of the value, as a day key, when it is one.
    static func dayKey(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        let i = LineScan.valueColon(in: line, from: 0, before: line.count)
        guard i + 8 < line.count, line[i] == 0x3A else { return nil }
        var key = 0
        for k in (i + 1)...(i + 8) {
            let d = line[k]
            guard d >= 0x30 && d <= 0x39 else { return nil }
            key = key * 10 + Int(d - 0x30)
        }
        let month = key / 100 % 100, day = key % 100
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        return key
    }
}
