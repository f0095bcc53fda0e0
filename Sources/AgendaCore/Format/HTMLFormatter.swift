import Foundation

/// `--format html`: one self-contained document with inline styles only (no
/// stylesheet, no script, no images), as mail clients want it.
package struct HTMLFormatter: OutputFormatter {
    package let wording: RowWording
    package let today: CivilDate?
    package let title: String
    /// `--show-calendar`: each row names its calendar after the title.
    package let showCalendar: Bool

    package init(formats: LocaleFormats, today: CivilDate? = nil, title: String = "Agenda",
        showCalendar: Bool = false) {
        wording = RowWording(formats: formats)
        self.today = today
        self.title = title
        self.showCalendar = showCalendar
    }

    package func write(_ sections: [AgendaSection], to out: inout some ByteOutputStream) {
        // An empty agenda prints nothing at all, so that cron mails nothing.
        guard !sections.isEmpty else { return }
        out.write(pageStart(title: title, fontSize: 15))
        let titles = (sections.first?.overlaps ?? .none).named(.titles)
        for section in sections {
            out.write("<h2 style=\"margin:20px 0 6px;font-size:16px;border-bottom:1px solid " +
                "#d0d7de;padding-bottom:4px\">")
            out.write(escape(wording.header(section.period, relativeTo: today)) + "</h2>\n")
            out.write("<table role=\"presentation\" cellspacing=\"0\" " +
                "cellpadding=\"0\" style=\"border-collapse:collapse;width:100%\">\n")
            for (row, mark) in zip(section.rows, titles.marks(section.rows)) {
                out.write(self.row(row, section.occurrences[row], showDay: section.day == nil, overlap: mark))
            }
            out.write("</table>\n")
        }
        out.write("</body>\n</html>\n")
    }

    /// A page's head and the opening of its body, in the locale's language
    /// (`fa_IR@calendar=persian` is `fa-IR`); `week` and `month` write theirs with it too.
    func pageStart(title: String, fontSize: Int) -> String {
        let language = wording.formats.locale.identifier.prefix { $0 != "@" }.replacingOccurrences(of: "_", with: "-")
        // Arabic, Hebrew, Persian, Urdu, ...: the page reads from the right.
        let direction = Locale.Language(identifier: String(language)).characterDirection == .rightToLeft
            ? " dir=\"rtl\"" : ""
        return """
            <!DOCTYPE html>
            <html lang="\(escape(language))"\(direction)>
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            </head>
            <body style="margin:0;padding:16px;background:#ffffff;color:#1f2328;\
            font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;font-size:\(fontSize)px;line-height:1.4">

            """
    }

    func row(_ row: AgendaRow, _ occurrence: Occurrence, showDay: Bool, overlap: String = "") -> String {
        let t = wording.title(row, occurrence)
        let overdue = wording.isOverdue(row)
        let labelColor = overdue ? "#cf222e" : "#57606a"
        var cells = ""
        let cell = "padding:3px 12px 3px 0;vertical-align:top;white-space:nowrap"
        if showDay {
            let day = row.day.map(wording.formats.weekdayAndDay) ?? ""
            cells += "<td style=\"\(cell);color:#57606a\">\(escape(day))</td>"
        }
        cells += "<td style=\"\(cell);color:\(labelColor)\">\(escape(wording.timeLabel(row)))</td>"
        var title = escape(t.checkbox.isEmpty ? t.text : (t.checkbox == "[x] " ? "☑ " : "☐ ") + t.text)
        if let struck = t.struck { title = "<s>\(title)</s> (\(escape(struck)))" }
        for mark in t.marks { title += " <span style=\"color:#57606a\">\(escape(mark))</span>" }
        if let note = t.overdueNote { title += " <span style=\"color:#cf222e\">\(escape(note))</span>" }
        if !overlap.isEmpty { title += " <span style=\"color:#9a6700\">\(escape(overlap))</span>" }
        if showCalendar { title += " <span style=\"color:#57606a\">[\(escape(occurrence.calendar.name))]</span>" }
        if let location = occurrence.location {
            // Its line breaks shown as such; the document's row stays one line.
            let lines = escape(location).replacingOccurrences(of: "\r\n", with: "\n")
                .replacingOccurrences(of: "\r", with: "\n")
                .replacingOccurrences(of: "\n", with: "<br>")
            title += "<br><span style=\"color:#57606a;font-size:13px\">\(lines)</span>"
        }
        // A calendar's colour as a bar before the title (its value is `#rrggbb`, checked when it was read).
        let bar = occurrence.calendar.color.map { ";border-left:4px solid \($0);padding-left:6px" } ?? ""
        cells += "<td style=\"padding:3px 0;vertical-align:top;width:100%\(bar)\">\(title)</td>"
        return "<tr>\(cells)</tr>\n"
    }

    /// Text as HTML: markup characters as entities, and control characters
    /// (C0 but tab and line ends, DEL, C1: HTML forbids them in text, and
    /// a browser shows some as Windows-1252 letters) shown escaped as the
    /// terminal formats show them (`PrintableText`, `\x85`). Line ends stay
    /// for the caller (a location's become `<br>`).
    func escape(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n", "\r", "\t": out.unicodeScalars.append(scalar)
            case _ where PrintableText.needsEscape(scalar): out += PrintableText.escaped(String(scalar))
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
