/// Where items come from: one input file (or standard input) is one calendar.
public struct CalendarInfo: Sendable, Hashable {
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
