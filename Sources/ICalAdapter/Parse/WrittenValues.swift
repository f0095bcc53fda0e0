import AgendaCore
import Foundation

/// Values libical reads into something other than what is written, checked
/// against their text in the file: a SEQUENCE beyond 32 bits (libical's
/// int wraps it, and the older revision would win), a DURATION RFC 5545
/// 3.3.6 does not allow (`PT90`, without its unit, libical reads as some
/// span), a DURATION that ends after the year 9999. Each is told, and read
/// as its writer can have meant it.
enum WrittenValues {
    static func check(_ record: inout ComponentRecord, _ lines: LineFinder) {
        if let written = lines.written("SEQUENCE")?.trimmingWhitespace(), !written.isEmpty {
            // An INTEGER is signed (RFC 5545 3.3.8: `["+" / "-"] 1*DIGIT`): `SEQUENCE:-1`
            // is valid, and older than 0; only what is no 32-bit integer is told.
            let value = WrittenValues.integer(written)
            if let value, let exact = Int32(exactly: value) {
                record.sequence = Int(exact)
            } else {
                // Read as written, so that the higher revision still wins (libical's int would wrap it).
                record.sequence = value.map { Int(clamping: $0) } ?? max(record.sequence, 0)
                record.problems.append(.libical(property: "SEQUENCE",
                    message: "\"\(written)\" is not a whole number from -2147483648 to 2147483647 (RFC 5545 3.3.8, " +
                        "3.8.7.4); read as \(record.sequence)",
                    value: written, damage: .sequenceRange))
            }
        }
        if record.duration != nil, let written = lines.written("DURATION")?.trimmingWhitespace(), !isDuration(written) {
            record.duration = nil
            record.problems.append(.libical(property: "DURATION",
                message: "cannot read \"\(written)\" as a duration (RFC 5545 3.3.6)", value: written,
                damage: .durationGrammar))
        }
        checkRanges(&record, lines)
        // A span past the last day a date can be written on (9999-12-31,
        // RFC 5545 3.3.4 and ISO 8601's four digits) ends there.
        if var duration = record.duration, let start = record.dtstart {
            let from = start.local.wallSeconds
            let last = CivilDate(year: 9999, month: 12, day: 31).daysSinceEpoch * 86400 + (start.isDate ? 86400 : 86399)
            if from <= last, duration.days > (last - from) / 86400 || from + duration.days * 86400
                + duration.seconds > last {
                let span = last - from
                (duration.days, duration.seconds) = (span / 86400, start.isDate ? 0 : span % 86400)
                record.duration = duration
                let written = lines.find("DURATION")?.value.trimmingWhitespace()
                record.problems.append(.libical(property: "DURATION",
                    message: "\(written.map { "\"\($0)\" " } ?? "")ends after the year 9999, which no date can be " +
                        "written in; read as ending on 9999-12-31", value: written, damage: .pastYear9999))
            }
        }
    }

    /// PRIORITY (0-9, RFC 5545 3.8.1.9) and PERCENT-COMPLETE (0-100,
    /// 3.8.1.8) as written: libical reads `high` as 0 and `50abc` as 50,
    /// and a number out of range was dropped without a word. A STATUS the
    /// component cannot have (3.8.1.11: `CANCELED` is not `CANCELLED`) is
    /// ignored too. Each is told.
    static func checkRanges(_ record: inout ComponentRecord, _ lines: LineFinder) {
        for (name, range, section) in [("PRIORITY", 0...9, "3.8.1.9"), ("PERCENT-COMPLETE", 0...100, "3.8.1.8")] {
            guard name == "PRIORITY" ? record.priorityGiven : record.percentComplete != nil,
                let written = lines.written(name)?.trimmingWhitespace()
            else { continue }
            if let n = Int(written), range.contains(n), written.allSatisfy(\.isASCII) { continue }
            if name == "PRIORITY" { record.priority = nil } else { record.percentComplete = nil }
            record.problems.append(.libical(property: name,
                message: "\"\(written)\" is not a whole number from \(range.lowerBound) to \(range.upperBound) (RFC " +
                    "5545 \(section)); ignored",
                value: written, damage: .valueNotAllowed))
        }
        if let status = record.status {
            let allowed = record.kind == .event ? ["TENTATIVE", "CONFIRMED", "CANCELLED"] : ["NEEDS-ACTION",
                "COMPLETED", "IN-PROCESS", "CANCELLED"]
            if !allowed.contains(status) {
                let kind = record.kind == .event ? "VEVENT" : "VTODO"
                record.status = nil
                record.problems.append(.libical(property: "STATUS",
                    message: "\"\(status)\" is not a status of a \(kind) " +
                        "(\(allowed.joined(separator: ", ")); RFC 5545 3.8.1.11); ignored",
                    value: nil, damage: .valueNotAllowed))
            }
        }
    }

    /// An INTEGER as RFC 5545 3.3.8 writes it (`["+" / "-"] 1*DIGIT`, ASCII
    /// digits only), up to 64 bits; nil for anything else.
    static func integer(_ text: String) -> Int64? {
        var digits = Substring(text)
        if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        // Past 64 bits: as far as it goes that way.
        return Int64(text) ?? (text.first == "-" ? Int64.min : Int64.max)
    }

    /// Whether text is a DURATION value (RFC 5545 3.3.6): `[+-]P` then
    /// weeks, or days and/or a time of hours, minutes, seconds, each with its unit.
    static func isDuration(_ text: String) -> Bool {
        var rest = Substring(text.uppercased())
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        guard rest.first == "P" else { return false }
        rest = rest.dropFirst()
        func number() -> Bool {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count)
            return !digits.isEmpty
        }
        func unit(_ u: Character) -> Bool {
            guard rest.first == u else { return false }
            rest = rest.dropFirst()
            return true
        }
        if rest.contains("W") { return number() && unit("W") && rest.isEmpty }
        var any = false
        if rest.first != "T" {
            guard number(), unit("D") else { return false }
            any = true
        }
        if rest.isEmpty { return any }
        guard unit("T") else { return false }
        var units: [Character] = ["H", "M", "S"]
        var timeParts = 0
        while !rest.isEmpty {
            guard number(), let u = rest.first, let at = units.firstIndex(of: u) else { return false }
            rest = rest.dropFirst()
            units.removeFirst(at + 1)
            timeParts += 1
        }
        return timeParts > 0
    }
}
