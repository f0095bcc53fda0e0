import Foundation

/// `--format text`: one section per day under the locale's long date
/// header, then one row per occurrence with its time column aligned across
/// the whole agenda. Week and month sections add a day column.
///
///     Saturday, March 1, 2025 (Today)
///       all day      Team offsite (day 2 of 3)
///       9:00 AM      Standup
///       due 5:00 PM  [ ] Send the report !!!
public struct TextFormatter {
    public let wording: RowWording
    public let style: TerminalStyle
    /// Append each row's calendar name (`--show-calendar`).
    public let showCalendar: Bool
    /// "Today" and "Tomorrow" beside those days' headers; nil with `--no-relative`.
    public let today: CivilDate?

    public init(formats: LocaleFormats, style: TerminalStyle, showCalendar: Bool = false, today: CivilDate? = nil) {
        wording = RowWording(formats: formats)
        self.style = style
        self.showCalendar = showCalendar
        self.today = today
    }

    /// Rows are written piece by piece, with no line built first: a large
    /// agenda has hundreds of thousands of them.
    public func write(_ sections: [AgendaSection], to out: inout some TextOutputStream) {
        let labels = sections.map { $0.rows.map(wording.timeLabel) }
        let labelWidths = labels.map { $0.map(displayWidth) }
        let width = labelWidths.joined().max() ?? 0
        let dayLabels = sections.map { section in section.rows.map { dayLabel($0, in: section) } }
        let dayWidth = dayLabels.joined().map(displayWidth).max() ?? 0
        for (index, section) in sections.enumerated() {
            if index > 0 { out.write("\n") }
            out.write(style.bold(wording.header(section.period, relativeTo: today)))
            out.write("\n")
            for (i, row) in section.rows.enumerated() {
                out.write("  ")
                if dayWidth > 0 {
                    let day = dayLabels[index][i]
                    out.write(style.dim(day))
                    TextFormatter.writeSpaces(dayWidth - displayWidth(day) + 2, to: &out)
                }
                let label = labels[index][i]
                out.write(wording.isOverdue(row) ? style.red(label) : style.dim(label))
                TextFormatter.writeSpaces(width - labelWidths[index][i] + 2, to: &out)
                writeTitle(row, to: &out)
                if showCalendar {
                    out.write("  ")
                    out.write(style.dim("[\(row.occurrence.calendar.name)]"))
                }
                out.write("\n")
            }
        }
    }

    private static let spaces = String(repeating: " ", count: 64)

    static func writeSpaces(_ count: Int, to out: inout some TextOutputStream) {
        var left = count
        while left > 0 {
            let n = min(left, 64)
            out.write(n == 64 ? spaces : String(spaces.utf8.prefix(n))!)
            left -= n
        }
    }

    /// The same text as `title(_:)`, written in pieces.
    func writeTitle(_ row: AgendaRow, to out: inout some TextOutputStream) {
        let t = wording.title(row)
        if t.isCancelled { return out.write(title(row)) }
        out.write(t.checkbox)
        out.write(t.text)
        for mark in t.marks {
            out.write(" ")
            out.write(mark)
        }
        if let note = t.overdueNote {
            out.write(" ")
            out.write(style.red(note))
        }
    }

    /// In week and month sections, the first row of each day names the day.
    func dayLabel(_ row: AgendaRow, in section: AgendaSection) -> String {
        guard section.day == nil, let day = row.day else { return "" }
        let first = section.rows.first { $0.day == day }
        return first.map { $0.occurrence.itemIdentity == row.occurrence.itemIdentity && $0.dayIndex == row.dayIndex } == true
            ? wording.formats.weekdayAndDay(day) : ""
    }

    func title(_ row: AgendaRow) -> String {
        let t = wording.title(row)
        var text = t.checkbox + t.text
        for mark in t.marks { text += " " + mark }
        if let note = t.overdueNote { text += " " + style.red(note) }
        if t.isCancelled { text = style.strike(text) + " (cancelled)" }
        return text
    }
}
