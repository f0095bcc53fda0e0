/// `--format markdown`: a heading per section and a list item per row, for
/// mail and notes.
///
///     ## Saturday, March 1, 2025
///
///     - **9:00 AM** Standup
package struct MarkdownFormatter: OutputFormatter {
    package let wording: RowWording
    package let today: CivilDate?
    /// `--show-calendar`: each row ends with its calendar's name, `[Work]`.
    package let showCalendar: Bool

    package init(formats: LocaleFormats, today: CivilDate? = nil, showCalendar: Bool = false) {
        wording = RowWording(formats: formats)
        self.today = today
        self.showCalendar = showCalendar
    }

    package func write(_ sections: [AgendaSection], to out: inout some ByteOutputStream) {
        let titles = (sections.first?.overlaps ?? .none).named(.titles)
        for (index, section) in sections.enumerated() {
            if index > 0 { out.write("\n") }
            out.write("## \(escape(wording.header(section.period, relativeTo: today)))\n\n")
            for (row, overlap) in zip(section.rows, titles.marks(section.rows)) {
                let occurrence = section.occurrences[row]
                let t = wording.title(row, occurrence)
                var line = "- "
                if section.day == nil, let day = row.day { line += "\(escape(wording.formats.weekdayAndDay(day))) " }
                line += "**\(escape(wording.timeLabel(row)))** "
                if !t.checkbox.isEmpty { line += t.checkbox == "[x] " ? "☑ " : "☐ " }
                var title = escape(t.text)
                if let struck = t.struck { title = "~~\(title)~~ (\(escape(struck)))" }
                line += ([title] + t.marks.map(escape) + [t.overdueNote].compactMap { $0 }.map(escape)
                    + (overlap.isEmpty ? [] : ["**\(escape(RowWording.singleLine(overlap)))**"]))
                    .joined(separator: " ")
                // A line break in it would start a new line (or a heading) of the document.
                if let location = occurrence.location { line += " — \(escape(RowWording.singleLine(location)))" }
                if showCalendar { line += " \(escape("[\(RowWording.singleLine(occurrence.calendar.name))]"))" }
                out.write(line + "\n")
            }
        }
    }

    /// Backslash-escapes what Markdown would read as markup.
    func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            if "\\`*_[]<>|~".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }
}
