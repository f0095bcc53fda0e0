/// The version of ics-agenda: what `--version` prints, and the version of
/// the Debian package `make deb` builds (scripts/deb.sh reads it here).
/// Raise it with each release; a test keeps the man page's --version item
/// the same.
enum Version {
    static let number = "0.9.0"
}
