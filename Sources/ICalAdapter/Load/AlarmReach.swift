import AgendaCore
import Foundation

/// How far from their occurrences the alarms of one input ring, read from
/// its text before it is parsed, so that `alarms` reads every occurrence
/// whose alarms can ring in its span, and no more: a `TRIGGER:-P30D` of a
/// birthday widens the window by a month; a calendar whose alarms are
/// minutes before their events costs what it always did.
///
/// Like `WindowPrefilter`, it reads only what it must and errs towards
/// reading more: every `TRIGGER` line counts, inside a VALARM or not, and
/// libical reads the alarms themselves (`AlarmReader`).
struct AlarmReach {
    /// The longest time an alarm rings before its occurrence starts (a
    /// negative offset; one related to the end also counts, since an event
    /// may be shorter than it), and after (a positive one).
    var before: TimeInterval = 0
    var after: TimeInterval = 0
    /// The times of absolute triggers (`VALUE=DATE-TIME`), at most `maxAbsolute`.
    var absolute: [Date] = []
    /// More absolute triggers than that: read as if one rang now.
    var absoluteOverflowed = false
    /// Any TRIGGER was found (one of `PT0S` reaches nowhere, but rings).
    var hasTriggers = false

    /// At most this far: a `-P1000W` is a mistake, and a year is what the agenda reads.
    static let longest: TimeInterval = 366 * 86400
    /// Absolute times kept: more are counted as one ringing now.
    static let maxAbsolute = 10_000
    /// Nominal days (`P1D`) on a wall clock may be an hour longer, and a
    /// floating absolute time may be read in any zone: the reach is this much wider.
    static let slack: TimeInterval = 86400

    init(scanning text: UnsafeBufferPointer<UInt8>) {
        // `TRIGGER` then `:` or `;` at a line's start, in any case and
        // folded anywhere (RFC 5545 3.1), found around its first G: eight
        // bytes at a time while none is a g or G (the scan runs on every
        // input of every `alarms` run).
        guard let base = text.baseAddress else { return }
        let n = text.count
        func letter(_ at: Int?, _ lower: UInt8) -> Bool {
            guard let at, at >= 0, at < n else { return false }
            return text[at] | 0x20 == lower && text[at] > 0x40
        }
        // The place of the byte before or after `at` on the unfolded line
        // (over any number of folds, a line of one blank among them).
        func before(_ at: Int?) -> Int? { at.flatMap { ContentLines.unfoldedByte(before: $0, in: text) } }
        func after(_ at: Int?) -> Int? { at.flatMap { ContentLines.unfoldedByte(after: $0, in: text) } }
        var i = 0
        while i < n {
            while i + 8 <= n {
                let x = (UnsafeRawPointer(base + i)
                    .loadUnaligned(as: UInt64.self) | 0x2020_2020_2020_2020) ^ 0x6767_6767_6767_6767
                if (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0 { break }
                i += 8
            }
            defer { i += 1 }
            // The cheap test first: most g's are not followed by another.
            guard i < n, letter(i, 0x67), letter(after(i), 0x67), letter(before(i), 0x69) else { continue }
            let t = before(before(before(i)))
            let r = after(after(after(i)))
            guard letter(before(before(i)), 0x72), letter(t, 0x74), let t, t == 0 || text[t - 1] == 0x0A,
                letter(after(after(i)), 0x65), letter(r, 0x72), let colon = after(r),
                text[colon] == 0x3A || text[colon] == 0x3B
            else { continue }
            read(line: LineScan.unfoldedLine(text, from: colon, limit: 8192))  // parameters of `X-` names may be long
        }
    }

    /// The window that holds every occurrence whose alarms can ring in
    /// `ringing`: `window`, widened by the offsets found; around a year
    /// each side when an absolute alarm rings in it (its occurrence may be
    /// anywhere).
    func window(ringing: ClosedRange<Date>, around window: AgendaWindow) -> AgendaWindow {
        // No TRIGGER at all: nothing of this input rings but `--default`'s, which `window` holds.
        guard before > 0 || after > 0 || !absolute.isEmpty || absoluteOverflowed || hasTriggers else { return window }
        var from = min(window.start, ringing.lowerBound - after - AlarmReach.slack)
        var to = max(window.end, ringing.upperBound + before + AlarmReach.slack)
        let near = (ringing.lowerBound - AlarmReach.slack)...(ringing.upperBound + AlarmReach.slack)
        if absoluteOverflowed || absolute.contains(where: near.contains) {
            from = min(from, ringing.lowerBound - AlarmReach.longest)
            to = max(to, ringing.upperBound + AlarmReach.longest)
        }
        guard from < window.start || to > window.end else { return window }
        return AgendaWindow(from: from, to: to, clock: window.clock)
    }

    /// `;RELATED=END:-P1D` or `;VALUE=DATE-TIME:20250301T090000Z`.
    private mutating func read(line: [UInt8]) {
        hasTriggers = true
        let colon = line.withUnsafeBufferPointer { LineScan.valueColon(in: $0, from: 0, before: $0.count) }
        guard colon < line.count else { return }
        // Parameters in any case, their values quoted or not (`VALUE="DATE-TIME"`); `X-VALUE=` is another.
        let parameters = String(decoding: line[..<colon].filter { $0 != 0x22 }, as: UTF8.self).uppercased()
            .split(separator: ";")
        let value = Array(line[(colon + 1)...].filter { !ContentLines.isBlank($0) })
        if parameters.contains(where: { $0 == "VALUE=DATE-TIME" || $0 == "VALUE=DATE" }) {
            guard let time = AlarmReach.dateTime(value) else { return }
            if absolute.count < AlarmReach.maxAbsolute { absolute.append(time) } else { absoluteOverflowed = true }
        } else if let offset = AlarmReach.duration(value) {
            if offset < 0 { before = max(before, min(-offset, AlarmReach.longest)) }
            else { after = max(after, min(offset, AlarmReach.longest)) }
        }
    }

    /// `-P1W`, `+P2DT3H`, `PT15M`: seconds, nominal days as 86,400 (the slack covers the rest).
    static func duration(_ value: [UInt8]) -> TimeInterval? {
        var i = 0
        var sign: TimeInterval = 1
        if i < value.count, value[i] == 0x2D || value[i] == 0x2B { sign = value[i] == 0x2D ? -1 : 1; i += 1 }
        guard i < value.count, value[i] | 0x20 == 0x70 else { return nil }  // P
        i += 1
        var total: TimeInterval = 0
        var number: TimeInterval? = nil
        while i < value.count {
            let b = value[i]
            if b >= 0x30 && b <= 0x39 {
                number = min((number ?? 0) * 10 + TimeInterval(b - 0x30), 1e9)
            } else {
                let unit: TimeInterval? = switch b | 0x20 {
                case 0x77: 604_800  // W
                case 0x64: 86400  // D
                case 0x68: 3600  // H
                case 0x6D: 60  // M
                case 0x73: 1  // S
                default: nil
                }
                if let unit {
                    guard let n = number else { return nil }
                    total += n * unit
                } else if b | 0x20 != 0x74 {  // T
                    return nil
                }
                number = nil
            }
            i += 1
        }
        return sign * total
    }

    /// `20250301T090000Z` (or floating, or a date, or written with `-` and
    /// `:`, which libical also reads): the instant, read as UTC.
    static func dateTime(_ written: [UInt8]) -> Date? {
        var value = written.filter { $0 != 0x2D && $0 != 0x3A }
        if value.count == 8 { value += Array("T000000".utf8) }
        guard value.count >= 15, value[8] | 0x20 == 0x74 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for b in value[range] {
                guard b >= 0x30 && b <= 0x39 else { return nil }
                n = n * 10 + Int(b - 0x30)
            }
            return n
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
            let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        return Date(timeIntervalSince1970: TimeInterval(days * 86400 + hour * 3600 + minute * 60 + second))
    }
}
