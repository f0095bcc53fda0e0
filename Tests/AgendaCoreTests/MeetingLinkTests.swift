import AgendaCore
import Testing

/// `meeting_url`: the link to join, from the properties that name it, else
/// the first link to a known service in URL, LOCATION or DESCRIPTION.
@Suite struct MeetingLinkTests {
    private func link(in description: String) -> String? {
        MeetingLink.find(explicit: [], url: nil, location: nil, description: description)
    }

    /// A join link of each known service, found inside text and ended where the text ends it.
    @Test(arguments: [
        "https://us02web.zoom.us/j/81234567890?pwd=abc", "https://zoom.us/my/somebody",
            "https://company.zoomgov.com/j/1612345678",
        "https://meet.google.com/abc-mnop-xyz",
            "https://teams.microsoft.com/l/meetup-join/19%3ameeting_abc%40thread.v2/0?context=%7b%7d",
        "https://teams.live.com/meet/9876543210", "https://acme.webex.com/meet/kim",
            "https://acme.webex.com/acme/j.php?MTID=m0123",
        "https://meet.jit.si/TeamRoom42", "https://whereby.com/teamroom",
            "https://global.gotomeeting.com/join/123456789",
        "https://meet.goto.com/123456789", "https://bluejeans.com/123456789", "https://chime.aws/1234567890",
    ])
    func aJoinLinkOfEachServiceIsFound(_ url: String) {
        #expect(link(in: "Join here: \(url)\nThanks") == url)
        #expect(link(in: "Join (\(url)).") == url, "in parentheses, before a full stop")
        #expect(link(in: "Click here<\(url)> to join") == url, "Outlook's plain text")
        #expect(link(in: "<a href=\"\(url.replacing("&", with: "&amp;"))\">Join</a>") == url, "an HTML link")
        #expect(MeetingLink.find(explicit: [], url: nil, location: url, description: nil) == url)
    }

    /// Links of the same services that join nothing, and other sites, are passed over.
    @Test(arguments: [
        "https://us02web.zoom.us/u/kbXyZ", "https://zoom.us/download",
            "https://support.google.com/a/users/answer/9282720",
        "https://teams.microsoft.com/meetingOptions/?organizerId=1", "https://aka.ms/JoinTeamsMeeting",
            "https://help.webex.com",
        "https://developer.webex.com/meeting/docs", "https://example.com/meeting", "https://notzoom.us/j/123",
            "https://meet.google.com/",
    ])
    func linksThatJoinNoMeetingArePassedOver(_ url: String) {
        #expect(link(in: "See \(url) for details") == nil)
        #expect(link(in: "See \(url) first, then join https://meet.jit.si/Room1") == "https://meet.jit.si/Room1")
    }

    @Test func safeLinksAreUnwrapped() {
        let wrapped = "https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fteams.microsoft.com%2Fl%2Fmeetup-join%2F19%253ameeting_x%2540thread.v2%2F0&data=05%7C01&reserved=0"
        #expect(link(in: "Join<\(wrapped)>") == "https://teams.microsoft.com/l/meetup-join/19%3ameeting_x%40thread.v2/0")
        // A wrapped link to anything else is no meeting.
        #expect(link(in: "https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.com%2F&data=1") == nil)
        // A property that names the link is unwrapped too.
        #expect(MeetingLink.find(explicit: [" <\(wrapped)> "], url: nil, location: nil, description: nil)
            == "https://teams.microsoft.com/l/meetup-join/19%3ameeting_x%40thread.v2/0")
    }

    /// The properties that name the link come before any link in the text, in the order given.
    @Test func namedLinksComeFirst() {
        let found = MeetingLink.find(
            explicit: ["https://meet.google.com/aaa-bbbb-ccc", "https://zoom.us/j/1"], url: "https://zoom.us/j/2",
            location: "https://zoom.us/j/3", description: "https://zoom.us/j/4")
        #expect(found == "https://meet.google.com/aaa-bbbb-ccc")
        #expect(MeetingLink.find(explicit: [], url: "https://example.com", location: "https://zoom.us/j/3",
            description: "https://zoom.us/j/4")
            == "https://zoom.us/j/3")
        #expect(MeetingLink.find(explicit: [" "], url: nil, location: "Room 4",
            description: "No link here: call me") == nil)
    }

    /// A named link that is no web link (a dial-in, a file, words) is passed over: `join` hands its line to a browser.
    @Test func namedLinksMustBeWebLinks() {
        for named in ["tel:+1-412-555-0123", "file:///etc/passwd", "-e /usr/bin/xterm", "Dial in via the app"] {
            #expect(MeetingLink.find(explicit: [named], url: nil, location: nil,
                description: "https://zoom.us/j/123") == "https://zoom.us/j/123")
        }
    }

    /// Closing brackets after a link are dropped in one pass: a hostile
    /// description of a link and 200,000 `)` is read at once.
    @Test func manyClosingBracketsAreDroppedInOnePass() {
        #expect(link(in: "(https://zoom.us/j/1" + String(repeating: ")", count: 200_000)) == nil,
            "longer than any link")
        #expect(link(in: "(see https://zoom.us/j/1(a)))...") == "https://zoom.us/j/1(a)")
    }

    /// A link ends at a space or punctuation outside ASCII: a no-break
    /// space, closing quotes and full stops of other scripts are not part
    /// of it; letters are (a room named after someone).
    @Test(arguments: ["\u{A0}Meeting ID: 812", "\u{201D}", "\u{BB}", "\u{3002}", "\u{2026}", "\u{FF09}",
        "\u{2028}next line"])
    func aLinkEndsAtTheFirstCharacterOutsideASCII(_ after: String) {
        #expect(link(in: "Join: https://zoom.us/j/812\(after)") == "https://zoom.us/j/812")
        #expect(link(in: "\u{201C}https://meet.google.com/abc-mnop-xyz\(after)") == "https://meet.google.com/abc-mnop-xyz")
        #expect(link(in: "Join: https://meet.jit.si/Geburtstag-Müller\(after)") == "https://meet.jit.si/Geburtstag-Müller")
    }

    /// Whereby's and Jitsi's own pages are no rooms.
    @Test(arguments: ["https://whereby.com/information/tos", "https://whereby.com/user",
        "https://help.whereby.com/hc/en-us",
        "https://whereby.com/pricing", "https://meet.jit.si/static/close.html", "https://meet.jit.si/external_api.js"])
    func aServicesOwnPagesAreNoRooms(_ url: String) {
        #expect(link(in: "See \(url) first") == nil)
        #expect(link(in: "Room: https://acme.whereby.com/support") == "https://acme.whereby.com/support",
            "an organisation's room")
    }

    @Test func addressesCompareWithoutMailtoOrCase() {
        #expect(CalendarAddress.normalized("MAILTO:Me@Example.COM ") == "me@example.com")
        #expect(CalendarAddress.normalized("mailto:me@example.com") == CalendarAddress.normalized("me@EXAMPLE.com"))
    }
}
