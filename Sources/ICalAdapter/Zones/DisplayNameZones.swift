import AgendaCore
import Foundation

/// Zones named the way a person picks them, not by an identifier: old
/// Outlook Web Access and ownCloud write the display name of the zone
/// (`(UTC-05:00) Eastern Time (US & Canada)`, `(GMT+10:00) Canberra,
/// Melbourne, Sydney`) as TZID, and old Apple iCal the
/// RFC 2445 examples' `US-Eastern`, without a VTIMEZONE that defines them.
/// Such a TZID is damage (RFC 5545 3.2.19: every TZID needs its VTIMEZONE),
/// but what the writer meant is plain: the zone of one of the cities named
/// whose standard offset is the one given. The loader reads it so, with a warning saying which zone.
enum DisplayNameZones {
    /// The IANA name a display name stands for, if one can be told.
    static func ianaName(for tzid: String) -> String? {
        let name = tzid.trimmingWhitespace()
        if let region = regionNames[name.replacingOccurrences(of: "-", with: " ").lowercased()] { return region }
        guard let parsed = parse(name) else { return nil }
        // Only an offset (`(GMT +01:00)`, ownCloud) says too little: every
        // zone of that standard offset, with summer time or without, could
        // be meant. It stays unknown, read as floating time.
        let places = parsed.places
        if places.isEmpty { return nil }
        if let region = regionNames[places.joined(separator: " ").lowercased()],
            standardOffset(of: region) == parsed.offset {
            return region
        }
        for place in places {
            let city = place.replacingOccurrences(of: " ", with: "_").lowercased()
            for identifier in cities[city] ?? [] where standardOffset(of: identifier) == parsed.offset {
                return identifier
            }
        }
        return nil
    }

    /// `(UTC-05:00) Eastern Time (US & Canada)`: the offset in seconds, and
    /// the places (cities, or the region's words) after it.
    static func parse(_ name: String) -> (offset: Int, places: [String])? {
        guard name.hasPrefix("("), let close = name.firstIndex(of: ")") else { return nil }
        var inside = name[name.index(after: name.startIndex)..<close].replacingOccurrences(of: " ", with: "")
        guard inside.hasPrefix("UTC") || inside.hasPrefix("GMT") else { return nil }
        inside.removeFirst(3)
        var seconds = 0
        if !inside.isEmpty {
            guard let sign = inside.first, sign == "+" || sign == "-" else { return nil }
            let digits = inside.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
            guard (1...2).contains(digits.count), let hours = Int(digits[0]), hours <= 14 else { return nil }
            let minutes = digits.count == 2 ? Int(digits[1]) : 0
            guard let minutes, minutes < 60 else { return nil }
            seconds = (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
        }
        var rest = String(name[name.index(after: close)...])
        // "Eastern Time (US & Canada)" names a region, not cities.
        if let open = rest.firstIndex(of: "(") { rest = String(rest[..<open]) }
        rest = rest.replacingOccurrences(of: " Time", with: "")
        let places = rest.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
        return (seconds, places)
    }

    /// North American regions, which no city names: `US-Eastern`, `Eastern Time (US & Canada)`.
    private static let regionNames: [String: String] = [
        "us eastern": "America/New_York", "eastern": "America/New_York",
        "us central": "America/Chicago", "central": "America/Chicago",
        "us mountain": "America/Denver", "mountain": "America/Denver",
        "us pacific": "America/Los_Angeles", "pacific": "America/Los_Angeles",
        "us alaska": "America/Anchorage", "alaska": "America/Anchorage",
        "us hawaii": "Pacific/Honolulu", "hawaii": "Pacific/Honolulu",
        "us arizona": "America/Phoenix", "arizona": "America/Phoenix",
        "atlantic": "America/Halifax", "newfoundland": "America/St_Johns",
    ]

    /// IANA zones by their city, lower case: `sydney` -> `Australia/Sydney`.
    private static let cities: [String: [String]] = {
        var table: [String: [String]] = [:]
        for identifier in TimeZone.knownTimeZoneIdentifiers where identifier.contains("/")
            && !identifier.hasPrefix("Etc/") {
            guard let city = identifier.split(separator: "/").last else { continue }
            table[city.lowercased(), default: []].append(identifier)
        }
        return table
    }()

    /// The smaller of a zone's January and July offsets: its standard time.
    private static func standardOffset(of identifier: String) -> Int? {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        let january = Date(timeIntervalSince1970: 1_735_689_600), july = Date(timeIntervalSince1970: 1_751_328_000)
        return min(zone.secondsFromGMT(for: january), zone.secondsFromGMT(for: july))
    }
}
