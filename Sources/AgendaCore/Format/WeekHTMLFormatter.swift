import Foundation

/// `week --format html`: the week as a table of the days across, an
/// all-day row and a row per hour.
package struct WeekHTMLFormatter: OutputFormatter {
    let grid: GridHTML

    package init(formats: LocaleFormats, words: GridWords, today: CivilDate) {
        grid = GridHTML(formats: formats, words: words, today: today)
    }

    package func write(_ layout: WeekLayout, to out: inout some ByteOutputStream) {
        guard let first = layout.days.first, let last = layout.days.last else { return }
        let title = grid.formats.dayRange(first, last)
        var body = "<h2 style=\"font-size:16px;margin:0 0 8px\">\(grid.html.escape(title))</h2>\n"
        body += GridHTML.table + "\n<tr><th style=\"width:5em\"></th>"
        body += layout.days.map(grid.dayHeader).joined() + "</tr>\n"
        if !layout.band.isEmpty {
            body += "<tr><td style=\"\(GridHTML.cell);color:#57606a\">"
                + "\(grid.html.escape(grid.formats.words.allDay))</td>"
            for c in layout.days.indices {
                body += "<td style=\"\(GridHTML.cell)\">"
                    + layout.band.filter { $0.firstColumn <= c && c <= $0.lastColumn }.sorted { $0.lane < $1.lane }
                        .map { grid.item($0.item) }.joined() + "</td>"
            }
            body += "</tr>\n"
        }
        let perHour = WeekLayout.slotsPerHour
        for hour in (layout.firstSlot / perHour)..<((layout.endSlot + perHour - 1) / perHour) {
            body += "<tr><td style=\"\(GridHTML.cell);color:#57606a;white-space:nowrap\">"
                + "\(grid.html.escape(grid.formats.timeOfDay(minutes: hour * 60)))</td>"
            for c in layout.days.indices {
                let starting = layout.blocks[c].filter { $0.start / perHour == hour }
                body += "<td style=\"\(GridHTML.cell)\">" + starting.map { grid.item($0.item) }.joined() + "</td>"
            }
            body += "</tr>\n"
        }
        body += "</table>\n"
        grid.page(title, body, to: &out)
    }
}
