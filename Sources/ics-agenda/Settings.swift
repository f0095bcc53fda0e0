import AgendaCore
import ArgumentParser
import Foundation

/// The options made concrete: the clock, the zone, the window and the locale.
struct Settings {
    let clock: ZoneClock
    let now: Date
    let today: CivilDate
    let window: AgendaWindow
    let localeIdentifier: String

    init(_ options: some SettingsChoice, environment: [String: String]) throws {
        let zone = try Settings.displayZone(explicit: options.tz, environment: environment)
        clock = ZoneClock(zone)
        if let text = options.now ?? environment["ICS_AGENDA_NOW"].flatMap({ $0.isEmpty ? nil : $0 }) {
            do { now = try ClockReading.parse(text, zone: clock) } catch { throw ValidationError("--now: \(error)") }
        } else {
            now = Date()
        }
        let today = clock.civilDate(of: now)
        self.today = today
        let first: CivilDate
        do {
            first = try options.from.map { try DayExpression.resolve($0, today: today) } ?? today
            if let to = options.to {
                let last = try DayExpression.resolve(to, today: today)
                guard last >= first else { throw ValidationError("--to \(to) is before the first day, \(first.iso).") }
                window = .through(last, from: first, clock: clock)
            } else if let days = options.days {
                window = .days(days, from: first, clock: clock)
            } else {
                window = .oneYear(from: first, clock: clock)
            }
        } catch let error as DayExpression.Invalid {
            throw ValidationError(error.description)
        }
        localeIdentifier = LocaleChoice.identifier(explicit: options.locale, environment: environment)
    }

    /// `--tz`, else `$TZ` (`:Europe/Berlin` and zoneinfo paths too), else the system zone.
    static func displayZone(explicit: String?, environment: [String: String]) throws -> TimeZone {
        if let explicit {
            guard let zone = zone(named: explicit) else {
                throw ValidationError("--tz: unknown time zone \"\(explicit)\" (use an IANA name such as Europe/Berlin).")
            }
            return zone
        }
        if let tz = environment["TZ"], !tz.isEmpty, let zone = zone(named: tz) { return zone }
        return TimeZone.current
    }

    static func zone(named raw: String) -> TimeZone? {
        var name = raw.hasPrefix(":") ? String(raw.dropFirst()) : raw
        if let range = name.range(of: "zoneinfo/") { name = String(name[range.upperBound...]) }
        if name == "UTC" || name == "Z" { return TimeZone(identifier: "UTC") }
        guard !name.isEmpty, let zone = TimeZone(identifier: name) else { return nil }
        return zone
    }
}
