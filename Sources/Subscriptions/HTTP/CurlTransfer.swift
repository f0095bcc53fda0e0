internal import CCurl
import Foundation

/// One HTTP GET through libcurl: the easy handle and the header list it
/// sends are owned here and freed with it; the body and the response's
/// validators are gathered as they come. libcurl does the HTTP, the TLS
/// (certificates always verified), redirects and decoding; the login
/// comes from the netrc read once a run (`Netrc`), for this URL's host.
final class CurlTransfer {
    /// Limits every transfer keeps (CONTRACT.md, *Subscriptions*).
    struct Limits: Sendable {
        var connectSeconds = 10
        var totalSeconds = 30
        var maxBytes = 64 << 20
        var maxRedirects = 5
    }

    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    let url: SubscriptionURL
    let limits: Limits
    /// The body as it arrives (of the last response, after redirects).
    private(set) var body: [UInt8] = []
    /// The last response's validators, each kept only when well formed.
    private(set) var validators = HTTPValidators.none
    /// The header last read was a validator: a line that continues it
    /// (obs-fold) makes it one that cannot be sent back.
    private var lastHeader = ""
    /// Set when the body grew beyond `limits.maxBytes`: the transfer was stopped.
    private(set) var tooLarge = false
    /// The strings handed to libcurl, kept alive for as long as the handle
    /// (libcurl copies most, but not all, of them).
    private var texts: [UnsafeMutablePointer<CChar>] = []
    /// libcurl's own detail of a failure (`CURLOPT_ERRORBUFFER`), owned
    /// here and freed with the handle. It may hold the URL: only `detail`,
    /// with the address taken out of it, is ever told.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// - Parameter login: the netrc's login for the URL's host; libcurl
    ///   sends it to that host only, not after a redirect to another
    ///   (`CURLOPT_UNRESTRICTED_AUTH` is never set).
    /// A WebDAV request in place of a GET (`CalDAV/`): its method, body and
    /// headers. libcurl then follows no redirect (after a 301-303 it would
    /// send the method again, or a GET): the caller reads `location` and
    /// follows it itself.
    struct DAVMethod {
        let name: String
        let body: [UInt8]
        let headers: [String]
    }

    /// The `Location` of the last response, as sent (a redirect of a
    /// `DAVMethod` request, which libcurl did not follow).
    private(set) var location: String?

    init?(
        _ url: SubscriptionURL, conditions: HTTPValidators, login: Netrc.Login?, limits: Limits, userAgent: String,
        method: DAVMethod? = nil
    ) {
        guard CurlTransfer.unavailable == nil, let handle = ics_curl_easy_init() else { return nil }
        self.handle = handle
        self.url = url
        self.limits = limits
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        // libcurl writes its detail here, and nowhere else: CURLOPT_VERBOSE
        // (which would print to stderr) is never set.
        ics_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer))
        // What keeps the fetch bounded and safe must hold, or there is no fetch.
        var safe = set(CURLOPT_URL, url.address) == CURLE_OK
        safe = safe && set(CURLOPT_PROTOCOLS_STR, "http,https") == CURLE_OK
        // https never falls back to http on a redirect.
        safe = safe && set(CURLOPT_REDIR_PROTOCOLS_STR, url.isHTTPS ? "https" : "http,https") == CURLE_OK
        safe =
            safe && set(CURLOPT_FOLLOWLOCATION, method == nil ? 1 : 0) == CURLE_OK
            && set(CURLOPT_MAXREDIRS, limits.maxRedirects) == CURLE_OK
        if let method {
            safe = safe && set(CURLOPT_CUSTOMREQUEST, method.name) == CURLE_OK
            safe = safe && ics_curl_set_size(handle, CURLOPT_POSTFIELDSIZE_LARGE,
                curl_off_t(method.body.count)) == CURLE_OK
            safe = safe && method.body.withUnsafeBytes {
                ics_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress))
            } == CURLE_OK
        }
        safe = safe && set(CURLOPT_CONNECTTIMEOUT_MS, limits.connectSeconds * 1000) == CURLE_OK
        safe = safe && set(CURLOPT_TIMEOUT_MS, limits.totalSeconds * 1000) == CURLE_OK
        safe = safe && ics_curl_set_size(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxBytes)) == CURLE_OK
        safe = safe && set(CURLOPT_NOSIGNAL, 1) == CURLE_OK
        safe = safe && set(CURLOPT_SSL_VERIFYPEER, 1) == CURLE_OK && set(CURLOPT_SSL_VERIFYHOST, 2) == CURLE_OK
        set(CURLOPT_ACCEPT_ENCODING, "")
        set(CURLOPT_USERAGENT, userAgent)
        // Options win over the URL's own user and password in libcurl: the
        // caller gives none when the URL names them (SubscriptionURL.user).
        if let login {
            if url.user == nil { safe = safe && set(CURLOPT_USERNAME, login.user) == CURLE_OK }
            safe = safe && set(CURLOPT_PASSWORD, login.password) == CURLE_OK
        }
        let environment = ProcessInfo.processInfo.environment
        // As OpenSSL's own tools read them; libcurl alone does not.
        if let file = environment["SSL_CERT_FILE"], !file.isEmpty { set(CURLOPT_CAINFO, file) }
        if let dir = environment["SSL_CERT_DIR"], !dir.isEmpty { set(CURLOPT_CAPATH, dir) }
        // No `Expect: 100-continue` for a WebDAV body: one round trip less.
        var headers: [String] = method.map { $0.headers + ["Expect:"] } ?? ["Accept: text/calendar, */*;q=0.5"]
        // Checked again here, however they came: they are sent as headers.
        let checked = HTTPValidators(etag: conditions.etag, lastModified: conditions.lastModified)
        if let etag = checked.etag { headers.append("If-None-Match: \(etag)") }
        if let lastModified = checked.lastModified { headers.append("If-Modified-Since: \(lastModified)") }
        for header in headers { headerList = ics_curl_slist_append(headerList, header) }
        ics_curl_set_list(handle, CURLOPT_HTTPHEADER, headerList)
        let me = Unmanaged.passUnretained(self).toOpaque()
        ics_curl_set_write(handle, CURLOPT_WRITEFUNCTION, CurlTransfer.receiveBody)
        ics_curl_set_pointer(handle, CURLOPT_WRITEDATA, me)
        ics_curl_set_write(handle, CURLOPT_HEADERFUNCTION, CurlTransfer.receiveHeader)
        ics_curl_set_pointer(handle, CURLOPT_HEADERDATA, me)
        guard safe else { return nil }  // deinit frees the handle
    }

    /// Why libcurl cannot be used, or nil when it is ready: it is opened
    /// (and set up) when the first transfer is made, not at start-up.
    static var unavailable: String? { ics_curl_load().map { String(cString: $0) } }

    deinit {
        ics_curl_easy_cleanup(handle)  // before the buffer it writes to goes
        errorBuffer.deallocate()
        ics_curl_slist_free_all(headerList)
        for text in texts { free(text) }
    }

    /// libcurl's detail of the failure, the address taken out; nil when
    /// there is none or it may still name the address (`TransferFailure.detail`).
    var detail: String? {
        TransferFailure.detail(String(cString: errorBuffer), hiding: url)
    }

    @discardableResult
    private func set(_ option: CURLoption, _ value: Int) -> CURLcode {
        ics_curl_set_long(handle, option, value)
    }

    @discardableResult
    private func set(_ option: CURLoption, _ value: String) -> CURLcode {
        guard let copy = strdup(value) else { return CURLE_OUT_OF_MEMORY }
        texts.append(copy)
        return ics_curl_set_text(handle, option, copy)
    }

    /// The status of the last response (after redirects); 0 when none came.
    var responseCode: Int { ics_curl_response_code(handle) }

    /// Whether the transfer ended on a redirect refused for its scheme:
    /// one was followed, and the address it reached is not of a scheme the
    /// URL may go to. Only the scheme of that address is looked at: it may
    /// be as secret as the URL.
    var redirectRefused: Bool {
        guard ics_curl_info_long(handle, CURLINFO_REDIRECT_COUNT) > 0 else { return false }
        guard let reached = ics_curl_info_text(handle, CURLINFO_EFFECTIVE_URL) else { return true }
        let scheme = String(cString: reached).prefix { $0 != ":" }.lowercased()
        return !(url.isHTTPS ? ["https"] : ["http", "https"]).contains(scheme)
    }

    private static let receiveBody: curl_write_callback = { data, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        let n = size * count
        guard transfer.body.count + n <= transfer.limits.maxBytes else {
            transfer.tooLarge = true
            return 0  // libcurl stops the transfer (CURLE_WRITE_ERROR)
        }
        data!.withMemoryRebound(to: UInt8.self, capacity: n) {
            transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n))
        }
        return n
    }

    /// Each header line of each response: a new status line (a redirect's
    /// next response) forgets the validators of the one before. A
    /// validator that is not well formed (a control character, no quotes)
    /// is dropped, as is one continued on the next line.
    private static let receiveHeader: curl_write_callback = { data, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        let n = size * count
        let bytes = data!.withMemoryRebound(to: UInt8.self, capacity: n) {
            Array(UnsafeBufferPointer(start: $0, count: n))
        }
        transfer.receive(header: bytes)
        return n
    }

    private func receive(header bytes: [UInt8]) {
        var end = bytes.endIndex
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        let line = bytes[..<end]
        if line.first == 0x20 || line.first == 0x09 {  // obs-fold: the header before goes on
            if lastHeader == "etag" { validators = HTTPValidators(etag: nil, lastModified: validators.lastModified) }
            if lastHeader == "last-modified" { validators = HTTPValidators(etag: validators.etag, lastModified: nil) }
            return
        }
        lastHeader = ""
        if line.starts(with: "HTTP/".utf8) {
            validators = .none
            location = nil
            body = []
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            // Blanks around the value are not of it (RFC 9110 §5.5); nothing else is taken away.
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(
                in: CharacterSet(charactersIn: " \t"))
            lastHeader = name
            if name == "etag" { validators = HTTPValidators(etag: value, lastModified: validators.lastModified) }
            if name == "last-modified" { validators = HTTPValidators(etag: validators.etag, lastModified: value) }
            if name == "location" { location = value }
        }
    }
}
