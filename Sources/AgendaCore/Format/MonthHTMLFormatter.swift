import Foundation

/// `month --format html`: each month as a table of its weeks.
package struct MonthHTMLFormatter: OutputFormatter {
    let grid: GridHTML

    package init(formats: LocaleFormats, words: GridWords, today: CivilDate) {
        grid = GridHTML(formats: formats, words: words, today: today)
    }

    package func write(_ layout: MonthLayout, to out: inout some ByteOutputStream) {
        var body = ""
        let weekdays = grid.formats.shortWeekdays
        for month in layout.months {
            let header = grid.html.escape(grid.formats.monthHeader(containing: month.first))
            body += "<h2 style=\"font-size:16px;margin:16px 0 8px\">\(header)</h2>\n"
            body += GridHTML.table + "\n<tr>"
            body += (0..<7).map { column in
                let weekday = grid.html.escape(weekdays[(layout.firstWeekday - 1 + column) % 7])
                return "<th style=\"\(GridHTML.cell);background:#f6f8fa\">\(weekday)</th>"
            }.joined()
            body += "</tr>\n"
            for week in month.weeks {
                body += "<tr>"
                for day in week {
                    guard day.inMonth else {
                        body += "<td style=\"\(GridHTML.cell);background:#f6f8fa\"></td>"
                        continue
                    }
                    let digits = grid.html.escape(grid.formats.dayNumber(day.date))
                    let number = day.date == grid.today ? "<b style=\"color:#0969da\">\(digits)</b>" : digits
                    body += "<td style=\"\(GridHTML.cell);height:5em\">"
                        + "<div style=\"color:#57606a\">\(number)</div>"
                        + day.items.map(grid.item).joined() + "</td>"
                }
                body += "</tr>\n"
            }
            body += "</table>\n"
        }
        let title = layout.months.first.map { grid.formats.monthHeader(containing: $0.first) } ?? "Calendar"
        grid.page(title, body, to: &out)
    }
}
