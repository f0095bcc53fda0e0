import Foundation

/// `--group-by`: day sections (the default), or the same rows gathered into
/// weeks (starting on the locale's first weekday) or months.
package enum SectionGrouping: Sendable, Equatable {
    case day
    /// `firstWeekday`: 1 = Sunday ... 7 = Saturday, as Foundation's Calendar numbers them.
    case week(firstWeekday: Int)
    case month
    /// Months of another calendar than the Gregorian (a locale's
    /// `@calendar=islamic`, `@calendar=persian`): sections start on its first days.
    case calendarMonth(Calendar)

    package func group(_ daySections: [AgendaSection]) -> [AgendaSection] {
        if self == .day { return daySections }
        var result: [AgendaSection] = []
        var rows: [AgendaRow] = []
        var current: AgendaSection.Period? = nil
        // Every day section of one agenda keeps the same occurrences.
        let occurrences = daySections.first?.occurrences ?? .none
        let overlaps = daySections.first?.overlaps ?? .none
        for section in daySections {
            let period = section.day.map(period(of:)) ?? .undated
            if period != current, let current {
                result.append(AgendaSection(period: current, rows: rows[...], occurrences: occurrences,
                    overlaps: overlaps))
                rows.removeAll()
            }
            current = period
            rows += section.rows
        }
        if let current {
            result.append(AgendaSection(period: current, rows: rows[...], occurrences: occurrences, overlaps: overlaps))
        }
        return result
    }

    package func period(of day: CivilDate) -> AgendaSection.Period {
        switch self {
        case .day: return .day(day)
        case .week(let first): return .week(starting: day.adding(days: -((day.weekday - first + 7) % 7)))
        case .month: return .month(year: day.year, month: day.month)
        case .calendarMonth(let calendar):
            let date = day.midnightUTC
            let dayOfMonth = calendar.component(.day, from: date)
            return .calendarMonth(firstDay: day.adding(days: 1 - dayOfMonth))
        }
    }
}
