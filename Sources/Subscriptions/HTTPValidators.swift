/// The validators a copy is asked for again with (`If-None-Match`,
/// `If-Modified-Since`), well formed or not at all. They come from a
/// server, and from a `.meta` file another program (or an older version)
/// may have written: sent back raw, a CR, an LF or another control
/// character in one would be a header of the server's choosing. One that
/// is not well formed is dropped, and the copy is fetched whole next time.
package struct HTTPValidators: Sendable, Equatable {
    /// An entity-tag (RFC 9110 §8.8.3), `W/` and quotes included.
    package let etag: String?
    /// An HTTP-date (RFC 9110 §5.6.7), as the server wrote it.
    package let lastModified: String?

    /// None: the copy is asked for whole.
    package static let none = HTTPValidators(etag: nil, lastModified: nil)

    /// Keeps each of `etag` and `lastModified` only when it is well formed.
    package init(etag: String?, lastModified: String?) {
        self.etag = etag.flatMap { HTTPValidators.isEntityTag($0) ? $0 : nil }
        self.lastModified = lastModified.flatMap { HTTPValidators.isHTTPDate($0) ? $0 : nil }
    }

    /// Longer ones are no entity-tag a server means: the `.meta` file stays small.
    static let longestEntityTag = 1024

    /// `[W/] DQUOTE *etagc DQUOTE`, etagc `%x21 / %x23-7E` (obs-text, bytes
    /// above 0x7F, refused: no server needs them in a version tag).
    static func isEntityTag(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        guard bytes.count <= longestEntityTag else { return false }
        if bytes.starts(with: "W/".utf8) { bytes = bytes.dropFirst(2) }
        guard bytes.count >= 2, bytes.first == 0x22, bytes.last == 0x22 else { return false }
        return bytes.dropFirst().dropLast().allSatisfy { $0 == 0x21 || (0x23...0x7E).contains($0) }
    }

    /// The three shapes of RFC 9110 §5.6.7, printable ASCII and at most
    /// 64 characters: IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, and the
    /// obsolete `Sunday, 06-Nov-94 08:49:37 GMT` and `Sun Nov  6 08:49:37 1994`.
    static func isHTTPDate(_ text: String) -> Bool {
        guard text.utf8.count <= 64, text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else { return false }
        return matches(text, "Www, ## Mmm #### ##:##:## GMT") || matches(text, "Wwwwww, ##-Mmm-## ##:##:## GMT")
            || matches(text, "Www Mmm _# ##:##:## ####")
    }

    static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Whether `text` has `shape`: `Www` a day's name, `Wwwwww` its long
    /// name, `Mmm` a month's, `#` a digit, `_` a digit or a blank; anything
    /// else stands for itself.
    private static func matches(_ text: String, _ shape: String) -> Bool {
        var rest = Substring(text)
        var pattern = Substring(shape)
        func name(_ names: [String]) -> Bool {
            guard let found = names.first(where: { rest.hasPrefix($0) }) else { return false }
            rest = rest.dropFirst(found.count)
            return true
        }
        while let next = pattern.first {
            if pattern.hasPrefix("Wwwwww") {
                guard name(longDays) else { return false }
                pattern = pattern.dropFirst(6)
                continue
            }
            if pattern.hasPrefix("Www") || pattern.hasPrefix("Mmm") {
                guard name(pattern.hasPrefix("W") ? days : months) else { return false }
                pattern = pattern.dropFirst(3)
                continue
            }
            guard let c = rest.first else { return false }
            switch next {
            case "#": guard c.isASCII, c.isNumber else { return false }
            case "_": guard c == " " || (c.isASCII && c.isNumber) else { return false }
            default: guard c == next else { return false }
            }
            rest = rest.dropFirst()
            pattern = pattern.dropFirst()
        }
        return rest.isEmpty
    }
}
