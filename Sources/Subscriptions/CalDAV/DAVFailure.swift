/// Why a CalDAV account could not be brought up to date: decided where it
/// happens, worded once (`description`) where the account's one warning
/// is made. No case holds a URL: an account's path may be a secret.
enum DAVFailure: Error, Equatable, CustomStringConvertible {
    /// The transfer itself failed (libcurl's result, already in words).
    case transfer(String)
    /// The server answered this status where another was due.
    case status(Int)
    /// The answer is not a multistatus that can be read (libxml2's words).
    case unreadable(String)
    /// The answer has a DOCTYPE: how XXE and billion-laughs bodies come.
    /// No item is to blame; the whole sync stops.
    case hostile(String)
    case tooManyRedirects(Int)
    /// A redirect from https to http.
    case insecureRedirect
    /// The server of a `davs://` account named an `http://` address (a
    /// principal, a home, a calendar): anyone on the way could answer it.
    case insecureAddress
    /// The server named an address that is not http(s), or holds a login.
    case unaskableAddress
    /// Discovery found no `current-user-principal`.
    case noPrincipal
    /// The principal names no `calendar-home-set`.
    case noHomeSet
    /// The copy could not be written or locked (the cache's own words).
    case copy(String)

    /// The status of the answer, when the failure is one.
    var status: Int? {
        if case .status(let status) = self { return status }
        return nil
    }

    var description: String {
        switch self {
        case .transfer(let words), .unreadable(let words), .hostile(let words), .copy(let words): words
        case .status(let status): DAVFailure.words(status: status)
        case .tooManyRedirects(let count): "more than \(count) redirects"
        case .insecureRedirect: "redirected from https to another scheme (refused)"
        case .insecureAddress: "the server named a plain http address for a davs:// account (refused)"
        case .unaskableAddress: "the server named an address that cannot be asked"
        case .noPrincipal:
            "no CalDAV account found there (no current-user-principal at the URL or /.well-known/caldav)"
        case .noHomeSet: "the account names no calendar-home-set"
        }
    }

    static func words(status: Int) -> String {
        switch status {
        case 401, 403: Credentials.refusedLogin(status: status, choice: nil)
        default: "the server answered HTTP \(status)"
        }
    }
}
