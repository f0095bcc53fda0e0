import Foundation

/// What a grid is drawn with, the week's and the month's alike: the words of
/// its items (and through them the locale's formats), box drawing or ASCII,
/// colour or none, the terminal's width, and today.
package struct GridCanvas {
    package let words: GridWords
    let formats: LocaleFormats
    let text: GridText
    let style: TerminalStyle
    package let width: Int
    let today: CivilDate

    package init(words: GridWords, unicode: Bool, style: TerminalStyle, width: Int, today: CivilDate) {
        self.words = words
        formats = words.wording.formats
        text = GridText(unicode: unicode)
        self.style = style
        self.width = width
        self.today = today
    }
}
