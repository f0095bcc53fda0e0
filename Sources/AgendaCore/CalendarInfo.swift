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

    public init(name: String, source: String, path: String) {
        self.name = name
        self.source = source
        self.path = path
    }
}
