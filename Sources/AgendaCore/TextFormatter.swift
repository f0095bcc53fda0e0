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

    /// Rows are written piece by piece into a block of bytes that goes to
    /// the output whenever it fills: a large agenda has hundreds of
    /// thousands of rows, and no line is built as a String first.
    public func write(_ sections: [AgendaSection], to out: inout some ByteOutputStream) {
        let labels = sections.map { $0.rows.map(wording.timeLabel) }
        let labelWidths = labels.map { $0.map(displayWidth) }
        let width = labelWidths.joined().max() ?? 0
        let dayLabels = sections.map { section in section.rows.map { dayLabel($0, in: section) } }
        let dayWidth = dayLabels.joined().map(displayWidth).max() ?? 0
        var block: [UInt8] = []
        block.reserveCapacity(TextFormatter.blockSize + 4096)
        func put(_ s: String) { block.append(contentsOf: s.utf8) }
        func spaces(_ n: Int) { if n > 0 { block.append(contentsOf: repeatElement(0x20, count: n)) } }
        for (index, section) in sections.enumerated() {
            if index > 0 { block.append(0x0A) }
            put(style.bold(wording.header(section.period, relativeTo: today)))
            block.append(0x0A)
            for (i, row) in section.rows.enumerated() {
                spaces(2)
                if dayWidth > 0 {
                    let day = dayLabels[index][i]
                    put(style.dim(day))
                    spaces(dayWidth - displayWidth(day) + 2)
                }
                let label = labels[index][i]
                put(wording.isOverdue(row) ? style.red(label) : style.dim(label))
                spaces(width - labelWidths[index][i] + 2)
                let t = wording.title(row)
                if t.isCancelled {
                    put(title(row))
                } else {
                    put(t.checkbox)
                    put(t.text)
                    for mark in t.marks {
                        block.append(0x20)
                        put(mark)
                    }
                    if let note = t.overdueNote {
                        block.append(0x20)
                        put(style.red(note))
                    }
                }
                if showCalendar {
                    spaces(2)
                    put(style.dim("[\(row.occurrence.calendar.name)]"))
                }
                block.append(0x0A)
                if block.count >= TextFormatter.blockSize {
                    block.withUnsafeBufferPointer { out.write(bytes: $0) }
                    block.removeAll(keepingCapacity: true)
                }
            }
        }
        block.withUnsafeBufferPointer { out.write(bytes: $0) }
    }

    static let blockSize = 1 << 16

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
