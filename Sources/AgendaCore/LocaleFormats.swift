import Foundation

/// The locale's own date and time styles, with formatters made once and
/// their results cached (a DateFormatter call costs microseconds; an agenda
/// asks for the same 1,440 times of day over and over).
public final class LocaleFormats {
    public let locale: Locale
    public let clock: ZoneClock
    private let header: DateFormatter
    private let shortDate: DateFormatter
    private let time: DateFormatter
    private var timeCache: [Int: String] = [:]

    public init(localeIdentifier: String, clock: ZoneClock) {
        let locale = Locale(identifier: localeIdentifier)
        self.locale = locale
        self.clock = clock
        func make(_ date: DateFormatter.Style, _ time: DateFormatter.Style) -> DateFormatter {
            let f = DateFormatter()
            f.locale = locale
            f.timeZone = TimeZone(identifier: "UTC")
            f.dateStyle = date
            f.timeStyle = time
            return f
        }
        header = make(.full, .none)
        shortDate = make(.medium, .none)
        time = make(.none, .short)
    }

    /// The section header for a day: the locale's long date style, with the weekday.
    public func dayHeader(_ day: CivilDate) -> String { header.string(from: day.midnightUTC) }

    /// A compact date, for "due" notes.
    public func mediumDate(_ day: CivilDate) -> String { shortDate.string(from: day.midnightUTC) }

    /// The locale's short time style for an instant in the display zone
    /// (U+202F, ICU's narrow space before AM/PM, becomes a plain space so that
    /// every terminal and mail client shows it alike).
    public func shortTime(_ instant: Date) -> String {
        let minute = clock.secondsIntoDay(of: instant) / 60
        if let cached = timeCache[minute] { return cached }
        let text = time.string(from: Date(timeIntervalSince1970: TimeInterval(minute * 60)))
            .replacingOccurrences(of: "\u{202F}", with: " ")
        timeCache[minute] = text
        return text
    }
}
