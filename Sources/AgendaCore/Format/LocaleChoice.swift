import Foundation

/// Picks the locale for headers and times: `--locale`, else `LC_ALL`,
/// `LC_TIME`, `LANG` in that order, else `en_US`. Foundation's
/// `Locale.current` ignores these variables on Linux, so they are read here.
package enum LocaleChoice {
    /// Whether `value` can name a locale at all: after the encoding and
    /// modifiers are cut off (`normalize`), ASCII letters, digits, `_`, `-`
    /// and `.`, beginning with a letter. Foundation crashes on an identifier
    /// with any other character (`é`, U+FFFD; found by the command-line fuzz
    /// target), so `--locale` refuses one and the environment's is passed over.
    package static func isWellFormed(_ value: String) -> Bool {
        let name = value.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0))
        }
    }

    package static func identifier(explicit: String?, environment: [String: String]) -> String {
        if let explicit, isWellFormed(explicit), let id = normalize(explicit) { return id }
        for key in ["LC_ALL", "LC_TIME", "LANG"] {
            if let value = environment[key], !value.isEmpty {
                // The first variable that is set decides, as in POSIX.
                return isWellFormed(value) ? normalize(value) ?? "en_US" : "en_US"
            }
        }
        return "en_US"
    }

    /// The ICU calendar keywords Foundation can format with (`@calendar=`):
    /// any other value (a typo, or `dangi`, `ethioaa`, `islamic-rgsa`, which
    /// it names but cannot make) crashes Foundation's date formatters.
    package static let calendars: Set<String> = [
        "buddhist", "chinese", "coptic", "ethiopic", "ethiopic-amete-alem", "gregorian", "hebrew", "indian", "islamic",
        "islamic-civil", "islamic-tbla", "islamic-umalqura", "iso8601", "japanese", "persian", "roc",
    ]

    /// The calendar keyword of `value` when it is one Foundation cannot
    /// format with (`th_TH@calendar=buddist` → `buddist`); nil otherwise.
    package static func unknownCalendar(in value: String) -> String? {
        guard let keyword = calendarKeyword(of: value) else { return nil }
        return calendars.contains(keyword.lowercased()) ? nil : keyword
    }

    static func calendarKeyword(of value: String) -> String? {
        guard let at = value.firstIndex(of: "@") else { return nil }
        let keywords = value[value.index(after: at)...].split(separator: ";")
        return keywords.first { $0.lowercased().hasPrefix("calendar=") }.map { String($0.dropFirst(9)) }
    }

    /// `de_DE.UTF-8@euro` → `de_DE`; `C` and `POSIX` → nil (no language of
    /// their own). ICU's calendar keyword stays when Foundation knows the
    /// calendar (`th_TH@calendar=gregorian`); another is dropped.
    static func normalize(_ value: String) -> String? {
        var id = Substring(value)
        var calendar = ""
        if let at = id.firstIndex(of: "@") {
            if let keyword = calendarKeyword(of: value)?.lowercased(), calendars.contains(keyword) {
                calendar = "@calendar=" + keyword
            }
            id = id[..<at]
        }
        if let dot = id.firstIndex(of: ".") { id = id[..<dot] }
        let s = id.replacingOccurrences(of: "-", with: "_")
        if s.isEmpty || s == "C" || s == "POSIX" { return nil }
        return s + calendar
    }
}
