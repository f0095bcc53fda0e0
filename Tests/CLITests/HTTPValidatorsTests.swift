import Subscriptions
import Testing

/// Validators are sent back as headers: only well-formed ones are kept
/// (issue 46; RFC 9110 §8.8.3 entity-tags, §5.6.7 HTTP-dates).
@Suite struct HTTPValidatorsTests {
    @Test(arguments: [#""v1""#, #"W/"v1""#, "\"\"", #""!#$%&'()*+,-./09:;<=>?@AZ[\]^_`az{|}~""#, #"W/"""#])
    func aWellFormedEntityTagIsKept(_ tag: String) {
        #expect(HTTPValidators(etag: tag, lastModified: nil).etag == tag)
    }

    @Test(arguments: [
        "v1", #""v1"#, #"v1""#, #""v"1""#, "\"v\u{01}\"", "\"v\"\r\nX-Injected: yes", "\"v\"\rX: y", "\"v\n\"",
        "\"v\u{7F}\"",
        "\"caf\u{E9}\"", "\"a b\"", "\"a\tb\"", #"w/"v1""#, #"W/ "v1""#, #" "v1""#, #""v1" "#, "\"", "",
        "\"" + String(repeating: "x", count: 2000) + "\"",
    ])
    func anEntityTagThatIsNotWellFormedIsDropped(_ tag: String) {
        #expect(HTTPValidators(etag: tag, lastModified: nil).etag == nil)
    }

    @Test(arguments: [
        "Mon, 03 Mar 2025 08:00:00 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        "Sun Nov 16 08:49:37 1994",
    ])
    func anHTTPDateIsKept(_ date: String) {
        #expect(HTTPValidators(etag: nil, lastModified: date).lastModified == date)
    }

    @Test(arguments: [
        "Mon, 03 Mar 2025 08:00:00 GMT\u{07}", "Mon, 03 Mar 2025 08:00:00 GMT\r\nX-Injected: yes", "yesterday", "",
        "Mon, 03 Mar 2025 08:00:00 UTC", "Mon, 3 Mar 2025 08:00:00 GMT",
        "Mon, 03 Mar 2025 08:00:00" + String(repeating: " ", count: 60) + "GMT",
        "Mon, 03 Xyz 2025 08:00:00 GMT", "Mon, 03 Mar 2025 08:00:00 GMT ", "Mon, 03 Mar 2025 08:00:00 G\u{C9}T",
    ])
    func aLastModifiedThatIsNotAnHTTPDateIsDropped(_ date: String) {
        #expect(HTTPValidators(etag: nil, lastModified: date).lastModified == nil)
    }

    @Test func eachIsKeptOrDroppedAlone() {
        let validators = HTTPValidators(etag: "bad", lastModified: "Mon, 03 Mar 2025 08:00:00 GMT")
        #expect(validators.etag == nil)
        #expect(validators.lastModified == "Mon, 03 Mar 2025 08:00:00 GMT")
    }
}
