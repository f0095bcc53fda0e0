/// A span written as on a command line: `90m`, `2h`, `3d`, `1h30m`
/// (`min`, `hours` and the like too), for `next --within` and `free --min`.
package enum DurationText {
    package struct Invalid: Error, CustomStringConvertible {
        package let text: String
        package var description: String {
            "cannot read \"\(text)\" as a duration (use forms such as 30m, 90m, 2h, 1h30m, 3d)"
        }
    }

    /// The span in seconds.
    package static func seconds(_ text: String) throws -> Int {
        let units: [(names: [String], seconds: Int)] = [
            (["d", "day", "days"], 86400), (["h", "hr", "hrs", "hour", "hours"], 3600),
            (["m", "min", "mins", "minute", "minutes"], 60), (["s", "sec", "secs", "second", "seconds"], 1),
        ]
        var total = 0
        var rest = Substring(text.lowercased())
        guard !rest.isEmpty else { throw Invalid(text: text) }
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 9, let n = Int(digits) else { throw Invalid(text: text) }
            rest = rest.dropFirst(digits.count)
            let name = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(name.count)
            guard let unit = units.first(where: { $0.names.contains(String(name)) }) else { throw Invalid(text: text) }
            total += n * unit.seconds
        }
        guard total <= 3660 * 86400 else { throw Invalid(text: text) }
        return total
    }

    /// `1 h 30 min`, `45 min`, `2 h`: a span of whole minutes as rows show it.
    package static func words(minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        if h == 0 { return "\(m) min" }
        return m == 0 ? "\(h) h" : "\(h) h \(m) min"
    }
}
