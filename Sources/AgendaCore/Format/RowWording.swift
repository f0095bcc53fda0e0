import Foundation

/// The words of a row, shared by the text, Markdown and HTML formats: the
/// time column (`all day`, `9:00 AM`, `until 8:15 AM`, `due 5:00 PM`,
/// `overdue`) and the title with its marks (`[ ]`, `!!!`, `40%`,
/// `day 2 of 3`, `?` for a meeting not accepted, `cancelled`, `declined`).
package struct RowWording {
    package let formats: LocaleFormats

    package init(formats: LocaleFormats) {
        self.formats = formats
    }

    func timeLabel(_ row: AgendaRow) -> String {
        switch row.timing {
        case .allDay: formats.words.allDay
        case .starts(let t): formats.shortTime(t)
        case .continues(let t): formats.words.until(formats.shortTime(t))
        case .due(let t): t.map { formats.words.due(formats.shortTime($0)) } ?? formats.words.due
        case .overdue: formats.words.overdue
        case .undated: formats.words.noDate
        }
    }

    package struct Title {
        /// `[ ] ` or `[x] ` for reminders.
        var checkbox = ""
        package var text: String
        /// Priority, percentage, `(day 2 of 3)`: shown after the title.
        package var marks: [String] = []
        /// For an overdue reminder: `(due Thursday, February 20, 2025)`.
        package var overdueNote: String?
        /// For a cancelled occurrence, or one I declined: the word after
        /// the struck-through title (`cancelled`, `declined`).
        var struck: String?
    }

    package func title(_ row: AgendaRow, _ occurrence: Occurrence) -> Title {
        var note: String? = nil
        if case .overdue(let since) = row.timing { note = overdueNote(since) }
        return RowWording.title(row, occurrence, overdueNote: note, words: formats.words)
    }

    /// `(due Thursday, February 20, 2025)`, for a reminder overdue since that day.
    package func overdueNote(_ since: CivilDate) -> String { formats.words.overdueNote(formats.dayHeader(since)) }

    /// The title without asking the locale's formatters (which are not
    /// thread-safe): an overdue reminder's note is given.
    static func title(_ row: AgendaRow, _ occurrence: Occurrence, overdueNote: String?, words: RowWords) -> Title {
        let text = occurrence.title.isEmpty ? words.noTitle : RowWording.singleLine(occurrence.title)
        var title = Title(text: text)
        switch occurrence.item {
        case .event: break
        case .reminder(let reminder):
            title.checkbox = reminder.isCompleted ? "[x] " : "[ ] "
            if let marks = RowWording.priorityMarks(reminder.priority) { title.marks.append(marks) }
            if let percent = reminder.percentComplete, (1...99).contains(percent), !reminder.isCompleted {
                title.marks.append("\(percent)%")
            }
            if case .overdue = row.timing { title.overdueNote = overdueNote }
        }
        if row.dayCount > 1 { title.marks.append(words.dayOf(row.dayIndex, row.dayCount)) }
        if case .event(let event) = occurrence.item, event.isUnconfirmed { title.marks.append("?") }
        title.struck = occurrence.isCancelled ? words.cancelled : occurrence.isDeclined ? words.declined : nil
        return title
    }

    /// Text of the input as a row shows it (text, Markdown, HTML, the
    /// overlap marks): one line, its line breaks as spaces, then the one
    /// rule for text that reaches a terminal (`PrintableText.escaped`).
    /// Checking the bytes first spares nearly every row the scalar walk.
    static func singleLine(_ text: String) -> String {
        // Most text has none of it: a look at its bytes (C0, DEL, and the lead bytes of C1 and of the bidi controls).
        guard RowWording.mayHoldControls(text) else { return text }
        var oneLine = String.UnicodeScalarView()
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            if scalar == "\n" && afterCR { continue }  // CRLF: one blank
            oneLine.append(scalar == "\n" || scalar == "\r" ? " " : scalar)
        }
        return PrintableText.escaped(String(oneLine))
    }

    /// Whether `text` has a byte of C0 or DEL, or a lead byte of C1 or of
    /// the bidi controls: a loop over its bytes in place (every row's title
    /// is looked at).
    static func mayHoldControls(_ text: String) -> Bool {
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            for b in bytes where b < 0x20 || b == 0x7F || b == 0xC2 || b == 0xE2 { return true }
            return false
        }
        return text.utf8.withContiguousStorageIfAvailable(scan) ?? Array(text.utf8).withUnsafeBufferPointer(scan)
    }

    /// `!!!` high (1 to 4), `!!` medium (5), `!` low (6 to 9), as reminder apps mark them.
    static func priorityMarks(_ priority: Int?) -> String? {
        switch priority {
        case .some(1...4): "!!!"
        case .some(5): "!!"
        case .some(6...9): "!"
        default: nil
        }
    }

    func isOverdue(_ row: AgendaRow) -> Bool {
        if case .overdue = row.timing { return true }
        return false
    }

    /// The section header: the day in the locale's long date style (with
    /// "Today"/"Tomorrow" when `relativeTo` is given), the week's dates, or
    /// the month.
    package func header(_ period: AgendaSection.Period, relativeTo today: CivilDate?) -> String {
        switch period {
        case .day(let day):
            let text = formats.dayHeader(day)
            guard let today else { return text }
            if day == today { return "\(text) (\(formats.relativeDay(0)))" }
            if day == today.adding(days: 1) { return "\(text) (\(formats.relativeDay(1)))" }
            return text
        case .week(let start): return formats.dayRange(start, start.adding(days: 6))
        case .month(let year, let month): return formats.monthHeader(year: year, month: month)
        case .calendarMonth(let first): return formats.monthHeader(containing: first)
        case .undated: return formats.words.noDateHeader
        }
    }
}
