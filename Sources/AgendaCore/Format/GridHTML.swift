import Foundation

/// What `week` and `month` with `--format html` share
/// (`WeekHTMLFormatter`, `MonthHTMLFormatter`): one self-contained page
/// for mail (inline styles only, as `HTMLFormatter`), its tables, the day
/// headers, and the items, which carry their calendar's colour as a bar.
struct GridHTML {
    let formats: LocaleFormats
    let words: GridWords
    let today: CivilDate
    let html: HTMLFormatter

    init(formats: LocaleFormats, words: GridWords, today: CivilDate) {
        self.formats = formats
        self.words = words
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
        let time = words.time(item).map { "<span style=\"color:#57606a\">\(html.escape($0))</span> " } ?? ""
        let color = html.escape(words.color(item) ?? "#8c959f")
        return "<div style=\"border-left:3px solid \(color);padding-left:4px;margin:2px 0\">"
            + "\(time)\(html.escape(words.title(item)))</div>"
    }

    func dayHeader(_ day: CivilDate) -> String {
        let label = html.escape(formats.weekdayAndDay(day))
        let style = GridHTML.cell + ";background:#f6f8fa;text-align:left"
        return day == today
            ? "<th style=\"\(style);color:#0969da\">\(label)</th>" : "<th style=\"\(style)\">\(label)</th>"
    }
}
