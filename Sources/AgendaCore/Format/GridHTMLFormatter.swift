import Foundation

/// `week` and `month` with `--format html`: one self-contained page for
/// mail (inline styles only, as `HTMLFormatter`): the week as a table of
/// the days across, an all-day row and a row per hour; each month as a
/// table of its weeks. Items carry their calendar's colour as a bar.
package struct GridHTMLFormatter {
    package let formats: LocaleFormats
    package let today: CivilDate
    let html: HTMLFormatter

    package init(formats: LocaleFormats, today: CivilDate) {
        self.formats = formats
        self.today = today
        html = HTMLFormatter(formats: formats)
    }

    static let cell = "border:1px solid #d0d7de;padding:4px;vertical-align:top"
    /// A grid's table, its columns of equal width.
    static let table = "<table cellspacing=\"0\" cellpadding=\"0\" "
        + "style=\"border-collapse:collapse;width:100%;table-layout:fixed\">"

    func page(_ title: String, _ body: String, to out: inout some ByteOutputStream) {
        out.write(html.pageStart(title: title, fontSize: 14) + body + "</body>\n</html>\n")
    }

    func item(_ item: GridItem) -> String {
        let time = item.time.map { "<span style=\"color:#57606a\">\(html.escape($0))</span> " } ?? ""
        let color = html.escape(item.color ?? "#8c959f")
        return "<div style=\"border-left:3px solid \(color);padding-left:4px;margin:2px 0\">"
            + "\(time)\(html.escape(item.title))</div>"
    }

    func dayHeader(_ day: CivilDate) -> String {
        let label = html.escape(formats.weekdayAndDay(day))
        let style = GridHTMLFormatter.cell + ";background:#f6f8fa;text-align:left"
        return day == today
            ? "<th style=\"\(style);color:#0969da\">\(label)</th>" : "<th style=\"\(style)\">\(label)</th>"
    }

    package func write(_ layout: WeekLayout, to out: inout some ByteOutputStream) {
        guard let first = layout.days.first, let last = layout.days.last else { return }
        let title = formats.dayRange(first, last)
        var body = "<h2 style=\"font-size:16px;margin:0 0 8px\">\(html.escape(title))</h2>\n"
        body += GridHTMLFormatter.table + "\n<tr><th style=\"width:5em\"></th>"
        body += layout.days.map(dayHeader).joined() + "</tr>\n"
        if !layout.band.isEmpty {
            body += "<tr><td style=\"\(GridHTMLFormatter.cell);color:#57606a\">"
                + "\(html.escape(formats.words.allDay))</td>"
            for c in layout.days.indices {
                body += "<td style=\"\(GridHTMLFormatter.cell)\">"
                    + layout.band.filter { $0.firstColumn <= c && c <= $0.lastColumn }.sorted { $0.lane < $1.lane }
                        .map { item($0.item) }.joined() + "</td>"
            }
            body += "</tr>\n"
        }
        let perHour = WeekLayout.slotsPerHour
        for hour in (layout.firstSlot / perHour)..<((layout.endSlot + perHour - 1) / perHour) {
            body += "<tr><td style=\"\(GridHTMLFormatter.cell);color:#57606a;white-space:nowrap\">"
                + "\(html.escape(formats.timeOfDay(minutes: hour * 60)))</td>"
            for c in layout.days.indices {
                let starting = layout.blocks[c].filter { $0.start / perHour == hour }
                body += "<td style=\"\(GridHTMLFormatter.cell)\">" + starting.map { item($0.item) }.joined() + "</td>"
            }
            body += "</tr>\n"
        }
        body += "</table>\n"
        page(title, body, to: &out)
    }

    package func write(_ layout: MonthLayout, firstWeekday: Int, to out: inout some ByteOutputStream) {
        var body = ""
        let weekdays = formats.shortWeekdays
        for month in layout.months {
            let header = html.escape(formats.monthHeader(containing: month.first))
            body += "<h2 style=\"font-size:16px;margin:16px 0 8px\">\(header)</h2>\n"
            body += GridHTMLFormatter.table + "\n<tr>"
            body += (0..<7).map { column in
                let weekday = html.escape(weekdays[(firstWeekday - 1 + column) % 7])
                return "<th style=\"\(GridHTMLFormatter.cell);background:#f6f8fa\">\(weekday)</th>"
            }.joined()
            body += "</tr>\n"
            for week in month.weeks {
                body += "<tr>"
                for day in week {
                    guard day.inMonth else {
                        body += "<td style=\"\(GridHTMLFormatter.cell);background:#f6f8fa\"></td>"
                        continue
                    }
                    let digits = html.escape(formats.dayNumber(day.date))
                    let number = day.date == today ? "<b style=\"color:#0969da\">\(digits)</b>" : digits
                    body += "<td style=\"\(GridHTMLFormatter.cell);height:5em\">"
                        + "<div style=\"color:#57606a\">\(number)</div>"
                        + day.items.map(item).joined() + "</td>"
                }
                body += "</tr>\n"
            }
            body += "</table>\n"
        }
        let title = layout.months.first.map { formats.monthHeader(containing: $0.first) } ?? "Calendar"
        page(title, body, to: &out)
    }
}
