import Foundation

/// ISO 8601 text for JSON: dates as `YYYY-MM-DD`, timed values with their
/// offset in the display zone (`2025-03-01T09:00:00+01:00`).
package struct ISOTime: Sendable {
    package let clock: ZoneClock

    package init(clock: ZoneClock) {
        self.clock = clock
    }

    package func string(_ time: AgendaTime) -> String {
        var bytes: [UInt8] = []
        append(time, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    package func string(instant: Date) -> String {
        var bytes: [UInt8] = []
        append(instant: instant, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same text, appended as UTF-8 bytes.
    package func append(_ time: AgendaTime, to out: inout [UInt8]) {
        if time.isDate {
            ISOTime.append(date: time.wallDate, to: &out)
        } else {
            append(instant: time.instant(in: clock), to: &out)
        }
    }

    /// An instant read in the display zone, `YYYY-MM-DDTHH:MM:SS+HH:MM`:
    /// written digit by digit into a buffer on the stack and appended once,
    /// since this runs for every time printed and a String (or an append per
    /// byte) each costs more than the rest of the line.
    package func append(instant: Date, to out: inout [UInt8]) {
        var text = Digits()
        if text.instant(instant, clock: clock) { return text.append(to: &out) }
        let offset = clock.offset(at: instant)
        let wall = Int((instant.timeIntervalSince1970).rounded(.down)) + offset
        let days = Int((Double(wall) / 86400).rounded(.down)), secs = wall - days * 86400
        let off = abs(offset)
        let time = "T\(pad(secs / 3600, 2)):\(pad(secs / 60 % 60, 2)):\(pad(secs % 60, 2))"
        let zone = "\(offset < 0 ? "-" : "+")\(pad(off / 3600, 2)):\(pad(off / 60 % 60, 2))"
        out.append(contentsOf: (CivilDate(daysSinceEpoch: days).iso + time + zone).utf8)
    }

    /// The same text written at `p` (at most 64 bytes); the bytes written.
    func write(_ time: AgendaTime, at p: UnsafeMutablePointer<UInt8>) -> Int {
        var text = Digits()
        if time.isDate {
            let date = time.wallDate
            guard (0...9999).contains(date.year) else { return ISOTime.copy(date.iso, to: p) }
            text.date(date)
        } else {
            let instant = time.instant(in: clock)
            guard text.instant(instant, clock: clock) else { return ISOTime.copy(string(instant: instant), to: p) }
        }
        return text.copy(to: p)
    }

    /// `YYYY-MM-DD` written at `p`; the bytes written.
    static func write(date: CivilDate, at p: UnsafeMutablePointer<UInt8>) -> Int {
        guard (0...9999).contains(date.year) else { return copy(date.iso, to: p) }
        var text = Digits()
        text.date(date)
        return text.copy(to: p)
    }

    private static func copy(_ text: String, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 0
        for byte in text.utf8.prefix(64) {
            p[count] = byte
            count += 1
        }
        return count
    }

    /// `YYYY-MM-DD` as UTF-8 bytes (the same text as `CivilDate.iso`).
    package static func append(date: CivilDate, to out: inout [UInt8]) {
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

        /// An instant read in the display zone, `YYYY-MM-DDTHH:MM:SS+HH:MM`;
        /// false (nothing written) when its year is not one of 0 to 9999.
        mutating func instant(_ instant: Date, clock: ZoneClock) -> Bool {
            let offset = clock.offset(at: instant)
            let wall = Int((instant.timeIntervalSince1970).rounded(.down)) + offset
            var days = wall / 86400
            var secs = wall % 86400
            if secs < 0 {
                secs += 86400
                days -= 1
            }
            let date = CivilDate(daysSinceEpoch: days)
            guard (0...9999).contains(date.year) else { return false }
            let off = abs(offset)
            self.date(date)
            byte(0x54)
            number(secs / 3600, 2)
            byte(0x3A)
            number(secs / 60 % 60, 2)
            byte(0x3A)
            number(secs % 60, 2)
            byte(offset < 0 ? 0x2D : 0x2B)
            number(off / 3600, 2)
            byte(0x3A)
            number(off / 60 % 60, 2)
            return true
        }

        func append(to out: inout [UInt8]) {
            withUnsafeBytes(of: bytes) { out.append(contentsOf: $0[0..<count]) }
        }

        /// Copies the text to `p`; its length.
        func copy(to p: UnsafeMutablePointer<UInt8>) -> Int {
            withUnsafeBytes(of: bytes) {
                UnsafeMutableRawPointer(p).copyMemory(from: $0.baseAddress!, byteCount: count)
            }
            return count
        }
    }
}
