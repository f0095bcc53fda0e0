import Foundation

/// `--format text`: one section per day under the locale's long date
/// header, then one row per occurrence with its time column aligned across
/// the whole agenda. Week and month sections add a day column.
///
///     Saturday, March 1, 2025 (Today)
///       all day      Team offsite (day 2 of 3)
///       9:00 AM      Standup
///       due 5:00 PM  [ ] Send the report !!!
///
/// A timed busy row that overlaps others that day ends with
/// `(overlaps Review, Standup)`: after the title, so the columns stay aligned.
package struct TextFormatter: OutputFormatter {
    package let wording: RowWording
    package let style: TerminalStyle
    /// Append each row's calendar name (`--show-calendar`).
    package let showCalendar: Bool
    /// "Today" and "Tomorrow" beside those days' headers; nil with `--no-relative`.
    package let today: CivilDate?
    /// How many threads write rows.
    package let threads: Int
    /// How the marks are found (tests ask each way).
    var ways = NamedOverlaps.Ways()

    package init(formats: LocaleFormats, style: TerminalStyle, showCalendar: Bool = false, today: CivilDate? = nil,
        threads: Int = 1) {
        wording = RowWording(formats: formats)
        self.style = style
        self.showCalendar = showCalendar
        self.today = today
        self.threads = threads
    }

    /// Rows are written piece by piece into blocks of bytes (`BlockWriter`), no line built as a String first: a
    /// large agenda has hundreds of thousands of rows.
    ///
    /// What asks the locale's formatters (not thread-safe) is worked out first, on this thread: headers, time and
    /// day labels, overdue notes. Then the `threads` write the rows, each given what its day overlaps by title.
    package func write(_ sections: [AgendaSection], to out: inout some ByteOutputStream) {
        // A row's labels are numbers in a table of the distinct ones: an
        // agenda of 250,000 rows has a few thousand.
        var table = LabelTable()
        let labels = sections.map { $0.rows.map { table.number(wording.timeLabel($0)) } }
        let dayLabels = sections.map { dayColumn(of: $0, in: &table) }
        let widths = table.widths
        let width = labels.joined().reduce(0) { max($0, widths[Int($1)]) }
        let dayWidth = dayLabels.joined().reduce(0) { max($0, widths[Int($1)]) }
        var overdueNotes: [CivilDate: String] = [:]
        for section in sections {
            for row in section.rows {
                if case .overdue(let since) = row.timing, overdueNotes[since] == nil {
                    overdueNotes[since] = wording.overdueNote(since)
                }
            }
        }
        let lines = TextLines(
            sections: sections, headers: sections.map { style.bold(wording.header($0.period, relativeTo: today)) },
            labels: labels, labelTexts: table.texts, labelWidths: widths, width: width,
            dayLabels: dayLabels, dayWidth: dayWidth,
            overdueNotes: overdueNotes, style: style, showCalendar: showCalendar, words: wording.formats.words)
        let titles = (sections.first?.overlaps ?? .none).named(.titles, ways: ways)
        BlockWriter(threads: threads, blockRows: TextFormatter.blockRows).write(sections, to: &out, state: {},
            day: { titles.day(sortDay: $0) }) { row, place, overlaps, _, block in
            lines.write(row, at: place, overlaps: overlaps, to: block)
        }
    }

    /// About how many rows the threads write between two writes to the output (a few hundred KB of text): five
    /// days of a busy calendar.
    static let blockRows = 4096

    /// In week and month sections, the first row of each day names the
    /// day (and so do the other rows of its item that day, as before);
    /// one pass over the section: a day's rows are together.
    /// A day's section has no day column: none (not a blank label a row, a megabyte for the 100k calendar).
    func dayColumn(of section: AgendaSection, in table: inout LabelTable) -> [Int32] {
        guard section.day == nil else { return [] }
        let none = table.number("")
        let occurrences = section.occurrences
        var labels: [Int32] = []
        labels.reserveCapacity(section.rows.count)
        var first: AgendaRow? = nil
        for row in section.rows {
            guard let day = row.day else {
                labels.append(none)
                continue
            }
            if first?.day != day { first = row }
            let named = occurrences[first!].itemIdentity == occurrences[row].itemIdentity
                && first!.dayIndex == row.dayIndex
            labels.append(named ? table.number(wording.formats.weekdayAndDay(day)) : none)
        }
        return labels
    }
}

/// Everything the rows of a text agenda need once the locale's formatters
/// have been asked: safe to use from several threads.
private struct TextLines: @unchecked Sendable {
    let sections: [AgendaSection]
    let headers: [String]
    /// By section and row, numbers in `labelTexts` (and `labelWidths`).
    let labels: [[Int32]]
    let labelTexts: [String]
    let labelWidths: [Int]
    /// The time column's width, across the whole agenda.
    let width: Int
    let dayLabels: [[Int32]]
    let dayWidth: Int
    let overdueNotes: [CivilDate: String]
    let style: TerminalStyle
    let showCalendar: Bool
    let words: RowWords

    /// A row, after its section's header when it is the first (and a blank line before all but the first section).
    func write(_ row: AgendaRow, at place: BlockWriter.Place, overlaps: DayOverlaps, to block: BlockBuffer) {
        func put(_ s: String) { block.append(s) }
        let index = place.section, i = place.index
        if place.opensSection {
            if index > 0 { block.append(0x0A) }
            put(headers[index])
            block.append(0x0A)
        }
        let occurrence = sections[index].occurrences[row]
        block.append(spaces: 2)
        if dayWidth > 0 {
            // A day's section (no day column of its own) pads it blank.
            let day = dayLabels[index].isEmpty ? nil : Int(dayLabels[index][i])
            put(style.dim(day.map { labelTexts[$0] } ?? ""))
            block.append(spaces: dayWidth - (day.map { labelWidths[$0] } ?? 0) + 2)
        }
        let number = Int(labels[index][i])
        let label = labelTexts[number]
        if case .overdue = row.timing { put(style.red(label)) } else { put(style.dim(label)) }
        block.append(spaces: width - labelWidths[number] + 2)
        var note: String? = nil
        if case .overdue(let since) = row.timing { note = overdueNotes[since] }
        let t = RowWording.title(row, occurrence, overdueNote: note, words: words)
        if let struck = t.struck {
            var text = t.checkbox + t.text
            for mark in t.marks { text += " " + mark }
            if let note = t.overdueNote { text += " " + style.red(note) }
            put(style.strike(text) + " (\(struck))")
        } else {
            put(t.checkbox)
            // Unstyled, the calendar (one object every row's thread counts references to) is not asked.
            put(style.enabled ? style.tinted(t.text, occurrence.calendar.color) : t.text)
            for mark in t.marks {
                block.append(0x20)
                put(mark)
            }
            if let note = t.overdueNote {
                block.append(0x20)
                put(style.red(note))
            }
            if row.overlap >= 0 {
                // Written in place, in red when styled: no string a row.
                let before = block.count
                block.append(0x20)
                if style.enabled { put(TerminalStyle.redOn) }
                if overlaps.writeMark(row, to: block) {
                    if style.enabled { put(TerminalStyle.off) }
                } else {
                    block.count = before
                }
            }
        }
        if showCalendar {
            block.append(spaces: 2)
            let tag = "[\(RowWording.singleLine(occurrence.calendar.name))]"
            put(occurrence.calendar.color == nil ? style.dim(tag) : style.tinted(tag, occurrence.calendar.color))
        }
        block.append(0x0A)
    }
}

/// The distinct labels of a text agenda (time column, day column), numbered as met.
struct LabelTable {
    var texts: [String] = []
    var widths: [Int] = []
    private var numbers: [String: Int32] = [:]

    mutating func number(_ text: String) -> Int32 {
        if let known = numbers[text] { return known }
        let n = Int32(texts.count)
        numbers[text] = n
        texts.append(text)
        widths.append(displayWidth(text))
        return n
    }
}
