import Foundation

/// The locale's own date and time styles, with formatters made once and
/// their results cached (a DateFormatter call costs microseconds; an agenda
/// asks for the same 1,440 times of day over and over). Those only some
/// runs use are made when first asked (a formatter costs a run about 1 ms
/// to make); one thread asks at a time.
package final class LocaleFormats {
    package let locale: Locale
    package let clock: ZoneClock
    private let header: DateFormatter
    private lazy var shortDate = make(.medium, .none)
    private let time: DateFormatter
    private lazy var month = make(template: "yMMMM")
    private lazy var weekdayAndDay = make(template: "EEEd")
    private lazy var dayOfMonth = make(template: "d")
    private lazy var interval: DateIntervalFormatter = {
        let interval = DateIntervalFormatter()
        interval.locale = locale
        interval.calendar = calendar
        interval.timeZone = TimeZone(identifier: "UTC")
        interval.dateStyle = .long
        interval.timeStyle = .none
        return interval
    }()
    /// The Gregorian calendar in UTC, in the locale's words: a template's
    /// strftime formats (`TimeFormat`) read every time through it.
    package private(set) lazy var gregorian: Calendar = {
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = TimeZone(identifier: "UTC")!
        gregorian.locale = locale
        return gregorian
    }()
    /// The ISO 8601 calendar in UTC: `%G %g %V` of a template's formats.
    package private(set) lazy var isoWeeks: Calendar = {
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = TimeZone(identifier: "UTC")!
        return iso
    }()
    /// `%c %x %X`'s formatters, by date and time style, each made once per run.
    private var styledFormatters: [Int: DateFormatter] = [:]
    private var timeCache: [Int: String] = [:]
    /// The first day of the week in this locale: 1 = Sunday ... 7 = Saturday.
    package let firstWeekday: Int
    /// The calendar dates are written in: the Gregorian, which the agenda
    /// groups by, unless the locale names another (`th_TH@calendar=buddhist`,
    /// `fa_IR@calendar=persian`); months are then that calendar's (`monthGrouping`).
    package let calendar: Calendar
    /// The row words in the locale's language (English for one not shipped).
    package let words: RowWords

    package init(localeIdentifier: String, clock: ZoneClock) {
        let locale = Locale(identifier: localeIdentifier)
        self.locale = locale
        self.clock = clock
        var calendar = Calendar(identifier: LocaleFormats.calendarIdentifier(localeIdentifier, locale) ?? .gregorian)
        calendar.locale = locale
        calendar.timeZone = TimeZone(identifier: "UTC")!
        self.calendar = calendar
        words = RowWords.forLanguage(LocaleFormats.languageCode(localeIdentifier))
        header = LocaleFormats.formatter(locale, calendar, .full, .none)
        time = LocaleFormats.formatter(locale, calendar, .none, .short)
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.locale = locale
        firstWeekday = gregorian.firstWeekday
    }

    /// A formatter of this locale and calendar, in UTC (days are written from their midnight UTC).
    private static func formatter(_ locale: Locale, _ calendar: Calendar, _ date: DateFormatter.Style,
        _ time: DateFormatter.Style) -> DateFormatter {
        let f = DateFormatter()
        f.locale = locale
        f.calendar = calendar
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateStyle = date
        f.timeStyle = time
        return f
    }

    private func make(_ date: DateFormatter.Style, _ time: DateFormatter.Style) -> DateFormatter {
        LocaleFormats.formatter(locale, calendar, date, time)
    }

    private func make(template: String) -> DateFormatter {
        let f = make(.none, .none)
        f.setLocalizedDateFormatFromTemplate(template)
        return f
    }

    /// A formatter of the locale's own calendar in UTC with these styles,
    /// made on first use (`TimeFormat`'s `%c %x %X`).
    package func styled(_ date: DateFormatter.Style, _ time: DateFormatter.Style) -> DateFormatter {
        let key = Int(date.rawValue) * 8 + Int(time.rawValue)
        if let made = styledFormatters[key] { return made }
        let f = DateFormatter()
        f.locale = locale
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateStyle = date
        f.timeStyle = time
        styledFormatters[key] = f
        return f
    }

    /// The calendar a locale names with `@calendar=` (ICU's keyword), if any.
    static func calendarIdentifier(_ id: String, _ locale: Locale) -> Calendar.Identifier? {
        guard id.lowercased().contains("@calendar=") else { return nil }
        return locale.calendar.identifier
    }

    /// `pt` of `pt_BR`, `zh` of `zh-Hans_CN`.
    static func languageCode(_ id: String) -> String {
        String(id.prefix { $0.isASCII && $0.isLetter }).lowercased()
    }

    /// How `--group-by month` cuts: Gregorian months, or the locale's calendar's.
    package var monthGrouping: SectionGrouping {
        calendar.identifier == .gregorian ? .month : .calendarMonth(calendar)
    }

    /// The header of a month of `calendar` that contains this day.
    func monthHeader(containing day: CivilDate) -> String { month.string(from: day.midnightUTC) }

    /// A month header: "March 2025", "März 2025", "2025年3月".
    func monthHeader(year: Int, month m: Int) -> String {
        month.string(from: CivilDate(year: year, month: m, day: 1).midnightUTC)
    }

    /// The day of the month in the locale's calendar and digits: "26", "۶".
    func dayNumber(_ day: CivilDate) -> String { dayOfMonth.string(from: day.midnightUTC) }

    /// The weekdays' short names, Sunday first: "Sun", "So.".
    var shortWeekdays: [String] { calendar.shortStandaloneWeekdaySymbols }

    /// A short day for rows of week and month sections: "Sat 1", "Sa. 1.".
    func weekdayAndDay(_ day: CivilDate) -> String { weekdayAndDay.string(from: day.midnightUTC) }

    /// A range of days in the locale's style: "March 3 – 9, 2025".
    func dayRange(_ first: CivilDate, _ last: CivilDate) -> String {
        interval.string(from: first.midnightUTC, to: last.midnightUTC)
    }

    /// "Today" (0) or "Tomorrow" (1) in the locale's words, capitalised.
    func relativeDay(_ offset: Int) -> String {
        var utcCalendar = Calendar(identifier: .gregorian)
        utcCalendar.timeZone = TimeZone(identifier: "UTC")!
        var style = Date.RelativeFormatStyle(allowedFields: [.day], presentation: .named, unitsStyle: .wide)
        style.locale = locale
        style.calendar = utcCalendar
        // The words do not depend on the date: format against the real clock,
        // in UTC, where a day is always 86,400 seconds.
        let word = style.format(Date() + TimeInterval(offset * 86400))
        return word.prefix(1).uppercased(with: locale) + word.dropFirst()
    }

    /// The section header for a day: the locale's long date style, with the weekday.
    package func dayHeader(_ day: CivilDate) -> String { header.string(from: day.midnightUTC) }

    /// A compact date, for "due" notes.
    func mediumDate(_ day: CivilDate) -> String { shortDate.string(from: day.midnightUTC) }

    /// The locale's short time style for an instant in the display zone
    /// (U+202F, ICU's narrow space before AM/PM, becomes a plain space so that
    /// every terminal and mail client shows it alike).
    package func shortTime(_ instant: Date) -> String { timeOfDay(minutes: clock.secondsIntoDay(of: instant) / 60) }

    /// The short time style of a time of day: minutes since midnight.
    func timeOfDay(minutes minute: Int) -> String {
        if let cached = timeCache[minute] { return cached }
        let text = time.string(from: Date(timeIntervalSince1970: TimeInterval(minute * 60)))
            .replacingOccurrences(of: "\u{202F}", with: " ")
        timeCache[minute] = text
        return text
    }
}
