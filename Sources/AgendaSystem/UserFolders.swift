import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where the user's files are, in one place (the XDG Base Directory
/// specification): the configuration, the copies of URL calendars and
/// CalDAV accounts, the alarms' state, and the home folder the netrc and
/// `~` in paths start from.
package enum UserFolders {
    /// `$HOME` when set and not empty, else the home the user database
    /// gives (a cron job without `HOME`), else `/`.
    package static func home(environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        if let entry = getpwuid(geteuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
        return "/"
    }

    /// `$VARIABLE` when it is an absolute path (the specification says to
    /// ignore a relative one), else `fallback` below the home folder.
    static func base(_ variable: String, fallback: String, environment: [String: String]) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        return home(environment: environment) + "/" + fallback
    }

    /// `$XDG_CONFIG_HOME/ics-agenda`, else `~/.config/ics-agenda`.
    package static func config(environment: [String: String]) -> String {
        base("XDG_CONFIG_HOME", fallback: ".config", environment: environment) + "/ics-agenda"
    }

    /// `$XDG_CACHE_HOME/ics-agenda`, else `~/.cache/ics-agenda`.
    package static func cache(environment: [String: String]) -> String {
        base("XDG_CACHE_HOME", fallback: ".cache", environment: environment) + "/ics-agenda"
    }

    /// `$XDG_STATE_HOME/ics-agenda`, else `~/.local/state/ics-agenda`.
    package static func state(environment: [String: String]) -> String {
        base("XDG_STATE_HOME", fallback: ".local/state", environment: environment) + "/ics-agenda"
    }
}
