import Foundation

/// One calendar the home lists, and how it is to be asked what it holds.
struct DAVChange {
    let entry: DAVCopy.CalendarEntry
    let listed: Multistatus.Response
    /// What the copy holds of it; nil when nothing (or a state refused).
    let old: DAVCopy.CalendarState?
    let ask: Ask

    enum Ask: Equatable {
        /// RFC 6578: what changed since this token.
        case changesSince(String)
        /// Every member's ETag (`PROPFIND Depth: 1`): the first time, on a
        /// server without sync reports, and once a day against drift.
        case listing
    }

    /// The calendar's `sync-token` in the home's listing.
    var token: String? { listed.text(DAVNamespace.dav, "sync-token") }
    var ctag: String? { listed.text(DAVNamespace.calendarServer, "getctag") }
}

/// What one changed calendar is to become.
struct DAVPlan {
    let entry: DAVCopy.CalendarEntry
    /// Its state once every item of `fetch` is in the copy.
    var state: DAVCopy.CalendarState
    /// The token, ctag and listing time kept while an item is still owed
    /// or the listing was cut: the old ones, so that the next run asks for
    /// the same changes again.
    let fallback: (syncToken: String?, ctag: String?, listed: Date?)
    var fetch: [DAVCopy.Item]
    var removed: [DAVCopy.Item]
    /// The server cut its listing (a 507 for the calendar itself): nothing
    /// it left out is taken as gone, and the copy is not complete.
    var cut = false
}

/// An item asked for and not had: its href and why.
struct DAVUnreadItem: Equatable {
    let href: String
    let reason: Reason

    enum Reason: Equatable {
        /// Left out of the multiget's answer.
        case notAnswered
        /// Answered with this status (404: not found).
        case status(Int)
        /// Its answer could not be read (libxml2's words: an element over its limits).
        case unreadable(String)
        /// Its calendar data is not iCalendar.
        case notCalendar
    }
}

/// What a sync did besides bringing the copy up to date: told in the
/// account's one warning.
struct DAVSyncReport {
    /// Items that could not be had: the copy keeps what it had of them,
    /// with the old token, so the next run asks again.
    var unread: [DAVUnreadItem] = []
    /// Calendars (and the account: "") whose state was refused and fetched again whole.
    var refusedStates: [String] = []
    /// Calendars whose listing the server cut short: asked again on the next run.
    var cutListings: [String] = []
}
