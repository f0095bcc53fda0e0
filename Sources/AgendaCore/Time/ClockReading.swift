import Foundation

/// Reads the `--now` / `ICS_AGENDA_NOW` value: ISO 8601 date-time with an
/// offset or `Z` (`2025-03-01T08:00:00+01:00`); without one, or a bare date,
/// it is read as wall-clock time in the display zone.
package enum ClockReading {
    package struct Invalid: Error, CustomStringConvertible {
        package let text: String
        package var why: String? = nil
        package var description: String {
            "cannot read \"\(text)\" as a time\(why.map { " (\($0))" } ?? ""): use ISO 8601, e.g. " +
                "2025-03-01T08:00:00+01:00"
        }
    }

    package static func parse(_ text: String, zone: ZoneClock) throws -> Date {
        let s = text.trimmingCharacters(in: .whitespaces)
        if let date = CivilDate(iso: s) { return zone.startOfDay(date) }
        guard s.count >= 16, let tIndex = s.firstIndex(where: { $0 == "T" || $0 == "t" || $0 == " " }),
            let date = CivilDate(iso: String(s[..<tIndex]))
        else { throw Invalid(text: text) }
        var rest = Substring(s[s.index(after: tIndex)...])
        var offset: Int? = nil
        if rest.hasSuffix("Z") || rest.hasSuffix("z") {
            offset = 0
            rest = rest.dropLast()
        } else if let signIndex = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            // ±HH:MM, ±HHMM or ±HH; real offsets lie within ±18:00 (as
            // ISO 8601 and Foundation's TimeZone have them).
            let zoneText = String(rest[rest.index(after: signIndex)...])
            let digits = zoneText.replacingOccurrences(of: ":", with: "")
            guard zoneText.count == 5 && zoneText.dropFirst(2).first == ":" || zoneText.count == 4
                && !zoneText.contains(":")
                || zoneText.count == 2,
                digits.allSatisfy({ $0.isASCII && $0.isNumber }), let hhmm = Int(digits)
            else { throw Invalid(text: text) }
            let (hours, minutes) = digits.count == 4 ? (hhmm / 100, hhmm % 100) : (hhmm, 0)
            guard minutes < 60, hours * 60 + minutes <= 18 * 60 else {
                throw Invalid(text: text, why: "the offset is beyond ±18:00")
            }
            offset = (rest[signIndex] == "-" ? -1 : 1) * (hours * 60 + minutes) * 60
            rest = rest[..<signIndex]
        }
        let fields = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3,
            let h = Int(fields[0]), let m = Int(fields[1]), (0...23).contains(h), (0...59).contains(m)
        else { throw Invalid(text: text) }
        let plain = fields.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } }
            && fields[0].count == 2
        let sec = fields.count == 3 ? Double(fields[2]) : 0
        guard plain, let sec, sec >= 0, sec < 61 else { throw Invalid(text: text) }
        let wall = date.midnightUTC + TimeInterval(h * 3600 + m * 60) + sec
        if let offset { return wall - TimeInterval(offset) }
        return zone.instant(forWallClock: wall)
    }
}
