import Foundation

/// What a grid's cell says of an item (`GridItem`): its title with its
/// marks, its calendar's colour, and the short time it starts.
package struct GridWords {
    let wording: RowWording
    let showCalendar: Bool

    package init(wording: RowWording, showCalendar: Bool = false) {
        self.wording = wording
        self.showCalendar = showCalendar
    }

    /// The words of a row, short enough for a cell: what changes how the
    /// item counts comes first, where a cut cannot take it (`(x) ` cancelled
    /// or declined, `! ` overdue, `? ` not yet accepted), then `[ ] ` before a
    /// reminder, the title (its tabs and line separators as blanks), its
    /// priority and percentage, and with `--show-calendar` its calendar.
    func title(_ item: GridItem) -> String {
        let (row, occurrence) = (item.row, item.occurrence)
        let words = wording.title(row, occurrence)
        var text = words.struck != nil ? "(x) " : ""
        if case .overdue = row.timing { text += "! " }
        if case .event(let event) = occurrence.item, event.isUnconfirmed { text += "? " }
        text += words.checkbox + GridWords.oneLine(words.text)
        // "(day 2 of 3)" and "?" are left out: a grid shows the days an item covers, and "?" is in front.
        let dayOf = row.dayCount > 1 ? wording.formats.words.dayOf(row.dayIndex, row.dayCount) : nil
        for mark in words.marks where mark != dayOf && mark != "?" { text += " " + mark }
        if showCalendar { text += " [\(GridWords.oneLine(occurrence.calendar.name))]" }
        return text
    }

    /// The short time it starts, when it is shown.
    func time(_ item: GridItem) -> String? { item.time.map(wording.formats.shortTime) }

    func color(_ item: GridItem) -> String? { item.occurrence.calendar.color }

    /// Tabs, and the line ends `RowWording.singleLine` leaves (U+2028,
    /// U+2029, NEL), as blanks: a cell is one line of known width.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\t" || $0 == "\u{2028}" || $0 == "\u{2029}"
            || $0 == "\u{85}" }) else {
            return text
        }
        return String(String.UnicodeScalarView(text.unicodeScalars.map {
            ["\t", "\u{2028}", "\u{2029}", "\u{85}"].contains($0) ? " " : $0
        }))
    }
}
