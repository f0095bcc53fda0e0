import Foundation

/// ISO 8601 text for JSON: dates as `YYYY-MM-DD`, timed values with their
/// offset in the display zone (`2025-03-01T09:00:00+01:00`).
public struct ISOTime: Sendable {
    public let clock: ZoneClock

    public init(clock: ZoneClock) {
        self.clock = clock
    }

    public func string(_ time: AgendaTime) -> String {
        if time.isDate {
            return CivilDate(daysSinceEpoch: Int((time.wall.timeIntervalSince1970 / 86400).rounded(.down))).iso
        }
        return string(instant: time.instant(in: clock))
    }

    /// The same text, appended as UTF-8 bytes: written digit by digit into
    /// a buffer on the stack and appended once, since this runs for every
    /// time printed and a String (or an append per byte) each costs more
    /// than the rest of the line.
    public func append(_ time: AgendaTime, to out: inout [UInt8]) {
        if time.isDate {
            ISOTime.append(date: CivilDate(daysSinceEpoch: Int((time.wall.timeIntervalSince1970 / 86400).rounded(.down))), to: &out)
            return
        }
        let instant = time.instant(in: clock)
        let offset = clock.offset(at: instant)
        let wall = Int((instant.timeIntervalSince1970).rounded(.down)) + offset
        var days = wall / 86400
        var secs = wall % 86400
        if secs < 0 {
            secs += 86400
            days -= 1
        }
        let date = CivilDate(daysSinceEpoch: days)
        guard (0...9999).contains(date.year) else { return out.append(contentsOf: string(instant: instant).utf8) }
        let off = abs(offset)
        var text = ISOTime.Digits()
        text.date(date)
        text.byte(0x54)
        text.number(secs / 3600, 2)
        text.byte(0x3A)
        text.number(secs / 60 % 60, 2)
        text.byte(0x3A)
        text.number(secs % 60, 2)
        text.byte(offset < 0 ? 0x2D : 0x2B)
        text.number(off / 3600, 2)
        text.byte(0x3A)
        text.number(off / 60 % 60, 2)
        text.append(to: &out)
    }

    /// `YYYY-MM-DD` as UTF-8 bytes (the same text as `CivilDate.iso`).
    public static func append(date: CivilDate, to out: inout [UInt8]) {
        guard (0...9999).contains(date.year) else { return out.append(contentsOf: date.iso.utf8) }
        var text = Digits()
        text.date(date)
        text.append(to: &out)
    }

    /// Up to 32 bytes of text, written in place.
    struct Digits {
        private var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        private var count = 0

        mutating func byte(_ b: UInt8) {
            withUnsafeMutableBytes(of: &bytes) { $0[count] = b }
            count += 1
        }

        /// `n` (0 or more) in `width` decimal digits, zero-padded.
        mutating func number(_ n: Int, _ width: Int) {
            let at = count
            withUnsafeMutableBytes(of: &bytes) { buffer in
                var v = n
                var i = at + width
                while i > at {
                    i -= 1
                    buffer[i] = UInt8(truncatingIfNeeded: 48 + v % 10)
                    v /= 10
                }
            }
            count += width
        }

        /// `YYYY-MM-DD`, for years 0 to 9999.
        mutating func date(_ date: CivilDate) {
            number(date.year, 4)
            byte(0x2D)
            number(date.month, 2)
            byte(0x2D)
            number(date.day, 2)
        }

        func append(to out: inout [UInt8]) {
            withUnsafeBytes(of: bytes) { out.append(contentsOf: $0[0..<count]) }
        }
    }

    public func string(instant: Date) -> String {
        let offset = clock.offset(at: instant)
        let wall = Int((instant.timeIntervalSince1970).rounded(.down)) + offset
        var days = wall / 86400
        var secs = wall % 86400
        if secs < 0 {
            secs += 86400
            days -= 1
        }
        let date = CivilDate(daysSinceEpoch: days)
        let off = abs(offset)
        guard (0...9999).contains(date.year) else {
            return "\(date.iso)T\(pad(secs / 3600, 2)):\(pad(secs / 60 % 60, 2)):\(pad(secs % 60, 2))"
                + "\(offset < 0 ? "-" : "+")\(pad(off / 3600, 2)):\(pad(off / 60 % 60, 2))"
        }
        // YYYY-MM-DDTHH:MM:SS+HH:MM, written digit by digit: this runs for every time printed.
        return String(unsafeUninitializedCapacity: 25) { buffer in
            var i = 0
            func put(_ n: Int, _ width: Int) {
                var d = width, v = n
                while d > 0 {
                    d -= 1
                    buffer[i + d] = UInt8(48 + v % 10)
                    v /= 10
                }
                i += width
            }
            func put(_ c: UInt8) {
                buffer[i] = c
                i += 1
            }
            put(date.year, 4); put(0x2D); put(date.month, 2); put(0x2D); put(date.day, 2); put(0x54)
            put(secs / 3600, 2); put(0x3A); put(secs / 60 % 60, 2); put(0x3A); put(secs % 60, 2)
            put(offset < 0 ? 0x2D : 0x2B); put(off / 3600, 2); put(0x3A); put(off / 60 % 60, 2)
            return i
        }
    }
}
