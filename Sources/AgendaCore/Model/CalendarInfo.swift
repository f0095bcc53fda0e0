/// Where items come from: one input file (or standard input) is one calendar.
public final class CalendarInfo: Sendable, Hashable {
    public static func == (a: CalendarInfo, b: CalendarInfo) -> Bool {
        a.name == b.name && a.source == b.source && a.path == b.path
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
    }

    /// `X-WR-CALNAME`, else the file name without its extension; `stdin` for `-`.
    public let name: String
    /// The directory that holds the file, as the user named it; `stdin` for `-`.
    public let source: String
    /// The file's path as given or found; `-` for standard input.
    public let path: String

    /// Each is kept printable (`PrintableText`): a name with a line break
    /// or a terminal escape, from the file or its name, is shown escaped in
    /// every format.
    public init(name: String, source: String, path: String) {
        self.name = PrintableText.escaped(name)
        self.source = PrintableText.escaped(source)
        self.path = PrintableText.escaped(path)
    }
}
