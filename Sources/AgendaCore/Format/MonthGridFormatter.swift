import Foundation

/// `ics-agenda month` as text: each month as a grid of weeks down and
/// weekdays across, in `width` columns; each cell its day's number (today's
/// in brackets) and up to `lines` items (`+N` on the last line when more);
/// days of the month before and after are left empty.
///
///                             March 2025
///     ┌──────────┬──────────┬──────────┬ …
///     │Sun       │Mon       │Tue       │
///     ├──────────┼──────────┼──────────┼ …
///     │          │          │          │
package struct MonthGridFormatter: OutputFormatter {
    package let canvas: GridCanvas
    /// Lines of items under each day's number.
    package let lines: Int

    /// A day's cell must hold this much for the grid to be drawn.
    package static let minimumColumn = 6
    /// Cells narrower than this show titles without their times.
    static let widthForTimes = 16

    package init(canvas: GridCanvas, lines: Int) {
        self.canvas = canvas
        self.lines = max(1, lines)
    }

    var text: GridText { canvas.text }
    var style: TerminalStyle { canvas.style }
    var width: Int { canvas.width }

    var columnWidth: Int { (width - 1) / 7 - 1 }

    package var fits: Bool { columnWidth >= MonthGridFormatter.minimumColumn }

    package func write(_ layout: MonthLayout, to out: inout some ByteOutputStream) {
        let cw = columnWidth
        let bar = String(repeating: text.horizontal, count: cw)
        func border(_ left: String, _ middle: String, _ right: String) -> String {
            text.unicode ? left + Array(repeating: bar, count: 7).joined(separator: middle) + right
                : "+" + Array(repeating: bar, count: 7).joined(separator: "+") + "+"
        }
        let weekdays = canvas.formats.shortWeekdays
        for (number, month) in layout.months.enumerated() {
            if number > 0 { out.write("\n") }
            emit(text.centred(text.plain(canvas.formats.monthHeader(containing: month.first)), 7 * (cw + 1) + 1), &out)
            emit(border("┌", "┬", "┐"), &out)
            emit(text.vertical + (0..<7).map { text.fit(weekdays[(layout.firstWeekday - 1 + $0) % 7], cw) }
                .joined(separator: text.vertical) + text.vertical, &out)
            for week in month.weeks {
                emit(border("├", "┼", "┤"), &out)
                for line in 0...lines {
                    emit(text.vertical + week.map { cellLine($0, line, cw) }.joined(separator: text.vertical)
                        + text.vertical, &out)
                }
            }
            emit(border("└", "┴", "┘"), &out)
        }
    }

    func emit(_ line: String, _ out: inout some ByteOutputStream) {
        out.write(GridText.trimmed(line) + "\n")
    }

    /// Line `line` of a day's cell: 0 its number, then its items.
    func cellLine(_ day: MonthLayout.Day, _ line: Int, _ width: Int) -> String {
        guard day.inMonth else { return String(repeating: " ", count: width) }
        if line == 0 {
            let number = canvas.formats.dayNumber(day.date)
            return day.date == canvas.today ? style.bold(text.fit("[\(number)]", width)) : text.fit(number, width)
        }
        let items = day.items
        let index = line - 1
        if items.count > lines && index == lines - 1 { return text.fit("+\(items.count - index)", width) }
        guard index < items.count else { return String(repeating: " ", count: width) }
        let item = items[index]
        // The title first: a narrow cell leaves the time out rather than show only it.
        let time = width >= MonthGridFormatter.widthForTimes ? canvas.words.time(item).map { $0 + " " } ?? "" : ""
        return style.tinted(text.fit(time + canvas.words.title(item), width), canvas.words.color(item))
    }
}
