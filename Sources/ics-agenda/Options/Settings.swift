import AgendaCore
import AgendaSystem
import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The options made concrete: the clock, the zone, the window and the locale.
struct Settings {
    let clock: ZoneClock
    let now: Date
    let today: CivilDate
    let window: AgendaWindow
    let localeIdentifier: String

    init(_ options: some SettingsChoice, environment: [String: String]) throws {
        clock = try Settings.displayClock(explicit: options.tz, environment: environment)
        if let text = options.now ?? environment["ICS_AGENDA_NOW"].flatMap({ $0.isEmpty ? nil : $0 }) {
            do { now = try ClockReading.parse(text, zone: clock) } catch { throw ValidationError("--now: \(error)") }
        } else {
            now = Date()
        }
        let today = clock.civilDate(of: now)
        self.today = today
        if let locale = options.locale, let problem = Settings.localeProblem(locale) { throw ValidationError(problem) }
        localeIdentifier = LocaleChoice.identifier(explicit: options.locale, environment: environment)
        // `this week`, `next week`: the week as the locale begins it (asked only then: a locale's calendar costs
        // start-up time).
        let asksWeek = [options.from, options.to].contains { $0?.lowercased().contains("week") == true }
        let firstWeekday = asksWeek ? try options.weekStart ?? Settings.firstWeekday(localeIdentifier) : 2
        let first: CivilDate
        do {
            first = try options.from.map { try DayExpression.resolve($0, today: today, firstWeekday: firstWeekday) }
                ?? today
            if let to = options.to {
                let last = try DayExpression.resolve(to, today: today, firstWeekday: firstWeekday, end: .last)
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
        // Every day of the window is a date of years 1 to 9999.
        guard window.firstDay.year >= 1, window.endDay <= CivilDate(year: 10000, month: 1, day: 1) else {
            throw ValidationError("the days asked for (\(window.firstDay.iso) to " +
                "\(window.endDay.adding(days: -1).iso)) go beyond the years 1 to 9999.")
        }
    }

    /// The locale's first day of the week, 1 = Sunday ... 7 = Saturday.
    static func firstWeekday(_ localeIdentifier: String) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = Locale(identifier: localeIdentifier)
        return calendar.firstWeekday
    }

    /// `--tz`, else `$TZ`, else the system zone. Each is an IANA name, a
    /// zoneinfo path (`:Europe/Berlin`, `:/usr/share/zoneinfo/Asia/Tokyo`), or
    /// a POSIX TZ string with its own rules (`CET-1CEST,M3.5.0,M10.5.0/3`;
    /// `UTC+3` is three hours WEST of UTC, as POSIX reads it). One that is none
    /// of these is a usage error, never read as UTC.
    static func displayClock(explicit: String?, environment: [String: String]) throws -> ZoneClock {
        if let explicit {
            guard let clock = clock(named: explicit) else {
                throw ValidationError("--tz: unknown time zone \"\(PrintableText.escaped(explicit))\" (use an IANA " +
                    "name such as Europe/Berlin, or a POSIX TZ string such as CET-1CEST,M3.5.0,M10.5.0/3).")
            }
            return clock
        }
        if let tz = environment["TZ"], !tz.isEmpty {
            guard let clock = clock(named: tz) else {
                throw ValidationError("TZ: unknown time zone \"\(PrintableText.escaped(tz))\" (use an IANA name such " +
                    "as Europe/Berlin, or a POSIX TZ string such as CET-1CEST,M3.5.0,M10.5.0/3; --tz overrides it).")
            }
            return clock
        }
        return ZoneClock(TimeZone.current)
    }

    static func clock(named raw: String) -> ZoneClock? {
        // A leading ':' names a zone (or its file), never rules.
        if raw.hasPrefix(":") { return zone(named: String(raw.dropFirst())).map { ZoneClock($0) } }
        if let zone = zone(named: raw) { return ZoneClock(zone) }
        return POSIXTimeZone(raw).map { ZoneClock(posix: $0) }
    }

    /// A zone of the time zone database, by name or by its file's path. Names
    /// Foundation would make up (`GMT+5`, `UTC+3`, read as east of UTC) are not
    /// taken: as TZ strings, POSIX reads them the other way.
    static func zone(named raw: String) -> TimeZone? {
        var name = raw
        if name.hasPrefix("/"), let resolved = FileNames.resolved(name) {
            name = String(decoding: resolved, as: UTF8.self)
        }
        if let range = name.range(of: "zoneinfo/") { name = String(name[range.upperBound...]) }
        if name == "UTC" || name == "Z" { return TimeZone(identifier: "UTC") }
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else { return nil }
        // The file first: ICU's list of every zone costs a run 2 ms to make.
        let inDatabase = FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/" + name)
            || TimeZone.knownTimeZoneIdentifiers.contains(name)
        // Not in the database but a TZ string: POSIX reads it, not Foundation.
        if !inDatabase && POSIXTimeZone(name) != nil { return nil }
        return TimeZone(identifier: name)
    }

    /// What is wrong with a `--locale` value (the command line's and the
    /// configuration's alike), or nil.
    static func localeProblem(_ locale: String) -> String? {
        if !LocaleChoice.isWellFormed(locale) {
            return "--locale \(PrintableText.escaped(locale)): not a locale name (letters, digits and _ as in de_DE " +
                "or pt_BR)."
        }
        if let unknown = LocaleChoice.unknownCalendar(in: locale) {
            return "--locale \(PrintableText.escaped(locale)): no calendar '\(PrintableText.escaped(unknown))'; one " +
                "of \(LocaleChoice.calendars.sorted().joined(separator: ", "))."
        }
        return nil
    }
}
