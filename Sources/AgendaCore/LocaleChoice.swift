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

    /// `de_DE.UTF-8@euro` → `de_DE`; `C` and `POSIX` → nil (no language of their own).
    static func normalize(_ value: String) -> String? {
        var id = Substring(value)
        if let dot = id.firstIndex(of: ".") { id = id[..<dot] }
        if let at = id.firstIndex(of: "@") { id = id[..<at] }
        let s = id.replacingOccurrences(of: "-", with: "_")
        if s.isEmpty || s == "C" || s == "POSIX" { return nil }
        return s
    }
}
