import Foundation

/// `--format text`: one section per day under the locale's long date
/// header, then one row per occurrence with its time column aligned across
/// the whole agenda.
///
///     Saturday, November 21, 2026
///       all day   Team offsite (day 2 of 3)
///       9:00 AM   Standup
///       due       [ ] Send the report
public struct TextFormatter {
    public let formats: LocaleFormats
    public let style: TerminalStyle
    /// Append each row's calendar name (`--show-calendar`).
    public let showCalendar: Bool

    public init(formats: LocaleFormats, style: TerminalStyle, showCalendar: Bool = false) {
        self.formats = formats
        self.style = style
        self.showCalendar = showCalendar
    }

    public func write(_ sections: [AgendaSection], to out: inout some TextOutputStream) {
        let labels = sections.map { $0.rows.map(timeLabel) }
        let width = labels.joined().map(displayWidth).max() ?? 0
        for (index, section) in sections.enumerated() {
            if index > 0 { out.write("\n") }
            out.write(style.bold(section.day.map(formats.dayHeader) ?? "No date"))
            out.write("\n")
            for (row, label) in zip(section.rows, labels[index]) {
                let padding = String(repeating: " ", count: width - displayWidth(label))
                let styledLabel = isOverdue(row) ? style.red(label) : style.dim(label)
                let calendar = showCalendar ? "  " + style.dim("[\(row.occurrence.calendar.name)]") : ""
                out.write("  \(styledLabel)\(padding)  \(title(row))\(calendar)\n")
            }
        }
    }

    func isOverdue(_ row: AgendaRow) -> Bool {
        if case .overdue = row.timing { return true }
        return false
    }

    func timeLabel(_ row: AgendaRow) -> String {
        switch row.timing {
        case .allDay: "all day"
        case .starts(let t): formats.shortTime(t)
        case .continues(let t): "until " + formats.shortTime(t)
        case .due(let t): t.map { "due " + formats.shortTime($0) } ?? "due"
        case .overdue: "overdue"
        case .undated: "no date"
        }
    }

    func title(_ row: AgendaRow) -> String {
        let occurrence = row.occurrence
        var text = occurrence.title.isEmpty ? "(no title)" : occurrence.title
        text = text.replacingOccurrences(of: "\n", with: " ")
        if case .reminder(let reminder) = occurrence.item {
            let box = reminder.isCompleted ? "[x] " : "[ ] "
            text = box + text
            if let marks = priorityMarks(reminder.priority) { text += " " + marks }
            if let percent = reminder.percentComplete, (1...99).contains(percent), !reminder.isCompleted {
                text += " \(percent)%"
            }
            if case .overdue(let since) = row.timing { text += " " + style.red("(due \(formats.dayHeader(since)))") }
        }
        if row.dayCount > 1 { text += " (day \(row.dayIndex) of \(row.dayCount))" }
        if occurrence.isCancelled { text = style.strike(text) + " (cancelled)" }
        return text
    }

    /// `!!!` high (1 to 4), `!!` medium (5), `!` low (6 to 9), as reminder apps mark them.
    func priorityMarks(_ priority: Int?) -> String? {
        switch priority {
        case .some(1...4): "!!!"
        case .some(5): "!!"
        case .some(6...9): "!"
        default: nil
        }
    }
}
