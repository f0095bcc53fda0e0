import AgendaCore
import ArgumentParser
import Foundation
import Subscriptions

/// How calendars given by URL are fetched (CONTRACT.md, *Subscriptions*).
struct SubscriptionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("How old a URL's cached copy may be before the server is asked again: " +
        "15m (default), 1h, 1d; 0 always asks.", valueName: "duration"))
    var refresh = "15m"

    @Flag(name: .long, help: "Read URLs from their cached copies only; fetch nothing.")
    var offline = false

    @Option(name: .long, help: ArgumentHelp("A program that gives the passwords of URLs and CalDAV accounts as " +
        "git's credential helpers do (run without a shell as PROGRAM get); else they come from ~/.netrc.",
        valueName: "program"))
    var credentialHelper: String?

    func validate() throws {
        _ = try refreshSeconds()
        _ = try helperWords()
    }

    /// `--credential-helper` split into words as a configuration line is
    /// (`ConfigWords`): the program, then its own arguments; nil when not given.
    func helperWords() throws -> [String]? {
        guard let credentialHelper else { return nil }
        let words: [String]
        do { words = try ConfigWords.split(credentialHelper[...]) } catch {
            throw ValidationError("--credential-helper: \(error)")
        }
        guard !words.isEmpty else { throw ValidationError("--credential-helper: give the program to run") }
        return words
    }

    /// `--refresh` in seconds: `0`, or a duration (`15m`).
    func refreshSeconds() throws -> Int {
        if refresh == "0" { return 0 }
        do { return try DurationText.seconds(refresh) } catch { throw ValidationError("--refresh: \(error)") }
    }

    /// The fetch these options ask for, with the cache the environment names.
    func fetch(environment: [String: String]) throws -> SubscriptionFetch {
        let folder = SubscriptionCache.location(environment: environment)
        var fetch = SubscriptionFetch(cache: SubscriptionCache(folder: folder))
        fetch.refresh = TimeInterval((try? refreshSeconds()) ?? 15 * 60)
        fetch.offline = offline
        fetch.userAgent = "ics-agenda/\(Version.number)"
        fetch.credentials = Credentials(environment: environment, helper: try helperWords())
        if let seconds = try SubscriptionOptions.timeout(environment) { fetch.limitTransfers(toSeconds: seconds) }
        return fetch
    }

    /// `ICS_AGENDA_TIMEOUT`: how many seconds a whole transfer may take
    /// (default 30, connecting at most 10 of them), for a status bar that
    /// cannot wait that long; whole seconds from 1 to 300.
    static func timeout(_ environment: [String: String]) throws -> Int? {
        guard let text = environment["ICS_AGENDA_TIMEOUT"], !text.isEmpty else { return nil }
        guard text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let seconds = Int(text),
            (1...300).contains(seconds) else {
            StandardError.write("ics-agenda: ICS_AGENDA_TIMEOUT \"\(PrintableText.escaped(text))\": takes whole " +
                "seconds from 1 to 300\n")
            throw ExitCode.validationFailure
        }
        return seconds
    }
}
