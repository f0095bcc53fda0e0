import AgendaCore
import ArgumentParser
import Foundation
import Subscriptions

/// How calendars given by URL are fetched (CONTRACT.md, *Subscriptions*).
struct SubscriptionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("How old a URL's cached copy may be before the server is asked again: 15m (default), 1h, 1d; 0 always asks.", valueName: "duration"))
    var refresh = "15m"

    @Flag(name: .long, help: "Read URLs from their cached copies only; fetch nothing.")
    var offline = false

    func validate() throws {
        _ = try refreshSeconds()
    }

    /// `--refresh` in seconds: `0`, or a duration (`15m`).
    func refreshSeconds() throws -> Int {
        if refresh == "0" { return 0 }
        do { return try DurationText.seconds(refresh) } catch { throw ValidationError("--refresh: \(error)") }
    }

    /// The fetch these options ask for, with the cache the environment names.
    func fetch(environment: [String: String]) -> SubscriptionFetch {
        var fetch = SubscriptionFetch(cache: SubscriptionCache(folder: SubscriptionCache.location(environment: environment)))
        fetch.refresh = TimeInterval((try? refreshSeconds()) ?? 15 * 60)
        fetch.offline = offline
        fetch.userAgent = "ics-agenda/\(Version.number)"
        return fetch
    }
}
