/// Where items come from: one input file (or standard input) is one calendar.
///
/// What the user calls it (`--rename`), its colour and whether `--calendar`
/// chose it are set once, after every input is read and before any row is
/// built or written (`CalendarChoice`, on the main thread): from then on a
/// calendar is only read, by as many threads as there are.
package final class CalendarInfo: @unchecked Sendable, Hashable {
    package static func == (a: CalendarInfo, b: CalendarInfo) -> Bool {
        a.name == b.name && a.source == b.source && a.path == b.path
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(path)
    }

    /// `X-WR-CALNAME`, else the file name without its extension; `stdin` for
    /// `-`; or what `--rename` names it.
    package private(set) var name: String
    /// The directory that holds the file, as the user named it; `stdin` for `-`.
    package let source: String
    /// The file's path as given or found; `-` for standard input.
    package let path: String
    /// `#rrggbb`: `--calendar-color`, else what the calendar says
    /// (`CalendarColor`); nil when none is known.
    package private(set) var color: String?
    /// Whether `--calendar` chose it, as its names were matched (the name,
    /// a vdir folder's, either in any case); nil: chosen by its name alone.
    package private(set) var chosen: Bool?

    /// Each is kept printable (`PrintableText`): a name with a line break
    /// or a terminal escape, from the file or its name, is shown escaped in
    /// every format.
    package init(name: String, source: String, path: String, color: String? = nil) {
        self.name = PrintableText.escaped(name)
        self.source = PrintableText.escaped(source)
        self.path = PrintableText.escaped(path)
        self.color = color.flatMap(CalendarColor.normalized)
    }

    /// `--rename`: called before the agenda is built.
    package func rename(to new: String) { name = PrintableText.escaped(new) }

    /// `--calendar-color`, or a colour found beside the calendar (a vdir's
    /// `color` file): called before the agenda is built.
    package func setColor(_ color: String) { self.color = CalendarColor.normalized(color) ?? self.color }

    /// `--calendar`'s choice: called before the agenda is built.
    package func choose(_ chosen: Bool) { self.chosen = chosen }

    /// The name of the folder a vdir collection is (its path's last part),
    /// which `--calendar` also matches; nil for a file, standard input or a URL.
    package var folderName: String? {
        guard path != "-", !path.contains("://") else { return nil }
        let last = path.split(separator: "/").last.map(String.init) ?? path
        let lower = last.lowercased()
        return lower.hasSuffix(".ics") || lower.hasSuffix(".ical") || last.isEmpty ? nil : last
    }
}
