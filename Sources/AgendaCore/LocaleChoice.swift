import Foundation

/// Picks the locale for headers and times: `--locale`, else `LC_ALL`,
/// `LC_TIME`, `LANG` in that order, else `en_US`. Foundation's
/// `Locale.current` ignores these variables on Linux, so they are read here.
public enum LocaleChoice {
    public static func identifier(explicit: String?, environment: [String: String]) -> String {
        if let explicit, let id = normalize(explicit) { return id }
        for key in ["LC_ALL", "LC_TIME", "LANG"] {
            if let value = environment[key], !value.isEmpty {
                // The first variable that is set decides, as in POSIX.
                return normalize(value) ?? "en_US"
            }
        }
        return "en_US"
    }

    /// `de_DE.UTF-8@euro` → `de_DE`; `C` and `POSIX` → nil (no language of
    /// their own). ICU's calendar keyword stays: `th_TH@calendar=gregorian`.
    static func normalize(_ value: String) -> String? {
        var id = Substring(value)
        var calendar = ""
        if let at = id.firstIndex(of: "@") {
            let keywords = id[id.index(after: at)...].split(separator: ";")
            if let keyword = keywords.first(where: { $0.lowercased().hasPrefix("calendar=") }),
                keyword.dropFirst(9).allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }), keyword.count > 9
            {
                calendar = "@calendar=" + keyword.dropFirst(9).lowercased()
            }
            id = id[..<at]
        }
        if let dot = id.firstIndex(of: ".") { id = id[..<dot] }
        let s = id.replacingOccurrences(of: "-", with: "_")
        if s.isEmpty || s == "C" || s == "POSIX" { return nil }
        return s + calendar
    }
}
