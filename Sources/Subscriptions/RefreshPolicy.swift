import AgendaCore
import Foundation

/// When a kept copy is read as it is and when its server is asked, and
/// the words for a copy read instead of a fresh one: one rule for URL
/// subscriptions and CalDAV accounts (CONTRACT.md, *Subscriptions*).
struct RefreshPolicy: Sendable {
    /// How old a copy may be before the server is asked again; 0 always asks.
    var refresh: TimeInterval
    /// Read copies only; ask nothing.
    var offline: Bool

    /// How far in the future a copy's time may be before its age is unknown.
    static let tolerance: TimeInterval = 60

    enum Decision: Equatable {
        /// Read the copy as it is (`age` nil: its time is in the future).
        case readCopy(age: TimeInterval?)
        /// Ask the server.
        case ask
        /// No copy, and nothing may be asked (`--offline`).
        case nothingToRead
    }

    /// How old a copy confirmed at `confirmed` is at `now`; nil when its
    /// time is in the future beyond `tolerance` (a clock that was wrong
    /// when it was kept, or is now): then it is never young enough to be
    /// read without asking.
    static func age(of confirmed: Date, at now: Date) -> TimeInterval? {
        let age = now.timeIntervalSince(confirmed)
        return age < -tolerance ? nil : max(0, age)
    }

    /// What to do for a copy confirmed at `confirmed` (nil: none kept).
    func decide(confirmed: Date?, now: Date) -> Decision {
        guard let confirmed else { return offline ? .nothingToRead : .ask }
        let age = RefreshPolicy.age(of: confirmed, at: now)
        if offline { return .readCopy(age: age) }
        if refresh > 0, let age, age < refresh { return .readCopy(age: age) }
        return .ask
    }

    /// Told of a copy read whose time is in the future.
    static let futureCopy =
        "its copy's time is in the future (the clock was wrong when it was kept, or is now): its age is unknown"

    /// Told of an input with no copy under `--offline`.
    static let noCopyOffline = "no copy of it is kept (--offline fetches nothing); left out"

    /// The end of the warning for a copy read because a refresh failed.
    static func copyRead(age: TimeInterval?) -> String {
        age.map { "read the copy from \(CalendarListFormatter.describe(age: $0)) ago" }
            ?? "read the copy, whose time is in the future (the clock was wrong when it was kept, or is now)"
    }
}
