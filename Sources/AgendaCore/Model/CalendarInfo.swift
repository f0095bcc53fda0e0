/// Where items come from: one input file (or standard input) is one calendar.
package final class CalendarInfo: Sendable, Hashable {
    package static func == (a: CalendarInfo, b: CalendarInfo) -> Bool {
        a.name == b.name && a.source == b.source && a.path == b.path
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(path)
    }

    /// `X-WR-CALNAME`, else the file name without its extension; `stdin` for `-`.
    package let name: String
    /// The directory that holds the file, as the user named it; `stdin` for `-`.
    package let source: String
    /// The file's path as given or found; `-` for standard input.
    package let path: String

    /// Each is kept printable (`PrintableText`): a name with a line break
    /// or a terminal escape, from the file or its name, is shown escaped in
    /// every format.
    package init(name: String, source: String, path: String) {
        self.name = PrintableText.escaped(name)
        self.source = PrintableText.escaped(source)
        self.path = PrintableText.escaped(path)
    }
}
