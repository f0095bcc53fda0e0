import Foundation
import Subscriptions
import Testing

/// The netrc read once a run and handed to each transfer (issue 46):
/// read as curl 7.84 and later read it.
@Suite struct NetrcTests {
    @Test func aMachineGivesItsLoginAndOnlyToItsHost() {
        let netrc = Netrc(
            parsing:
                "machine cal.example.com login alice password wonderland\nmachine other.example password x login bob\n")
        #expect(netrc.login(for: "cal.example.com") == Netrc.Login(user: "alice", password: "wonderland"))
        #expect(netrc.login(for: "CAL.Example.COM") == Netrc.Login(user: "alice", password: "wonderland"))
        #expect(netrc.login(for: "other.example") == Netrc.Login(user: "bob", password: "x"))
        #expect(netrc.login(for: "example.com") == nil)
    }

    @Test func keywordsAreReadInAnyCaseAndOverLines() {
        let netrc = Netrc(parsing: "MACHINE host\n\tLogin alice\n\tPASSWORD secret\n")
        #expect(netrc.login(for: "host") == Netrc.Login(user: "alice", password: "secret"))
    }

    @Test func theLastLineNeedsNoLineEnd() {
        #expect(Netrc(parsing: "machine host login alice password pw").login(for: "host")?.password == "pw")
    }

    @Test func lineEndsMayBeCRLF() {
        let netrc = Netrc(parsing: "machine host\r\nlogin alice\r\npassword pw\r\n\r\nmachine b login c password d\r\n")
        #expect(netrc.login(for: "host") == Netrc.Login(user: "alice", password: "pw"))
        #expect(netrc.login(for: "b") == Netrc.Login(user: "c", password: "d"))
    }

    @Test func defaultIsForEveryHostNotNamedBeforeIt() {
        let netrc = Netrc(
            parsing:
                "machine a login one password 1\ndefault login anyone password any\nmachine b login two password 2\n")
        #expect(netrc.login(for: "a")?.user == "one")
        #expect(netrc.login(for: "elsewhere")?.user == "anyone")
        // curl takes the first entry that fits, and `default` fits every host.
        #expect(netrc.login(for: "b")?.user == "anyone")
    }

    @Test func quotedStringsHoldBlanksQuotesAndBackslashes() {
        let netrc = Netrc(parsing: #"machine host login "alice smith" password "a \"quoted\" pass\\word#1""# + "\n")
        #expect(netrc.login(for: "host") == Netrc.Login(user: "alice smith", password: #"a "quoted" pass\word#1"#))
        let escapes = Netrc(parsing: #"machine h login u password "tab\there""#)
        #expect(escapes.login(for: "h")?.password == "tab\there")
    }

    @Test func aQuotedStringLeftOpenGivesNoLoginAtAll() {
        let netrc = Netrc(parsing: "machine a login u password p\nmachine b login v password \"open\n")
        #expect(netrc.entries.isEmpty)
        #expect(netrc.login(for: "a") == nil)
        #expect(netrc.problem != nil)
    }

    @Test func aHashStartsACommentToTheEndOfItsLine() {
        let netrc = Netrc(
            parsing: "# my logins\nmachine host # the calendar\n  login alice # me\n  password pass#word\n")
        #expect(netrc.login(for: "host") == Netrc.Login(user: "alice", password: "pass#word"))
    }

    @Test func aMacroIsSkippedToTheBlankLineAfterIt() {
        let text =
            "macdef init\nmachine evil login mallory password stolen\ncd /pub\n\nmachine host login alice password pw\n"
        let netrc = Netrc(parsing: text)
        #expect(netrc.login(for: "evil") == nil)
        #expect(netrc.login(for: "host") == Netrc.Login(user: "alice", password: "pw"))
        let inMachine = Netrc(parsing: "machine host login alice\nmacdef x\npassword wrong\n\npassword pw\n")
        #expect(inMachine.login(for: "host")?.password == "pw")
    }

    @Test func accountIsReadAndNotTakenForAKeyword() {
        let netrc = Netrc(parsing: "machine host account login login alice password pw\n")
        #expect(netrc.entries == [Netrc.Entry(machine: "host", login: "alice", password: "pw", account: "login")])
    }

    @Test func aValueThatIsAKeywordIsAValue() {
        let netrc = Netrc(parsing: "machine a login u password machine\nmachine b login v password w\n")
        #expect(netrc.login(for: "a")?.password == "machine")
        #expect(netrc.login(for: "b")?.user == "v")
    }

    /// The URL names a user: the password of that user's entry for the host.
    @Test func aUserNamedInTheURLFindsItsOwnPassword() {
        let netrc = Netrc(parsing: "machine host login bob password b\nmachine host login alice password a\n")
        #expect(netrc.login(for: "host")?.user == "bob")
        #expect(netrc.login(for: "host", user: "alice") == Netrc.Login(user: "alice", password: "a"))
        #expect(netrc.login(for: "host", user: "carol") == nil)
    }

    @Test func theFileIsNamedByNETRCThenHOME() {
        #expect(Netrc.location(environment: ["NETRC": "/x/netrc", "HOME": "/home/a"]) == "/x/netrc")
        #expect(Netrc.location(environment: ["NETRC": "", "HOME": "/home/a"]) == "/home/a/.netrc")
        #expect(Netrc.location(environment: [:])?.hasSuffix("/.netrc") == true)
    }

    /// A netrc that is a FIFO is read once, to its end, by whoever opens it first.
    @Test func aFIFOIsReadToItsEnd() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ics-agenda-netrc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("netrc").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "printf 'machine host login alice password pw' > \"$0\"", fifo]
        try writer.run()
        let netrc = Netrc.load(environment: ["NETRC": fifo])
        writer.waitUntilExit()
        #expect(netrc.problem == nil)
        #expect(netrc.login(for: "host") == Netrc.Login(user: "alice", password: "pw"))
    }

    @Test func aFileThatIsNotThereIsNoLoginAndNothingToTell() {
        let netrc = Netrc.load(environment: ["NETRC": "/nonexistent/netrc"])
        #expect(netrc.entries.isEmpty)
        #expect(netrc.problem == nil)
        let folder = Netrc.load(environment: ["NETRC": "/"])
        #expect(folder.problem?.hasPrefix("$NETRC cannot be read") == true, "\(folder.problem ?? "")")
    }
}
