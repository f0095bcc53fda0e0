import AgendaCore
import AgendaSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The logins of a netrc file (`$NETRC`, else `~/.netrc`), read once a run
/// and handed to each transfer (`CURLOPT_USERNAME`, `CURLOPT_PASSWORD`).
/// libcurl would read the file again for every transfer, and a netrc that
/// is a stream (`NETRC=<(pass show netrc)`, a FIFO) can be read once: the
/// second URL of a host would go without its login. Read as curl 7.84 and
/// later read it: `machine NAME`, `default`, `login`, `password`,
/// `account`, `macdef` bodies skipped to a blank line, quoted strings with
/// `\"` and `\\` escapes, `#` comments.
package struct Netrc: Sendable {
    /// One `machine` (or `default`: `machine` nil) entry, in file order.
    package struct Entry: Sendable, Equatable {
        package var machine: String?
        package var login: String?
        package var password: String?
        package var account: String?

        package init(machine: String?, login: String? = nil, password: String? = nil, account: String? = nil) {
            self.machine = machine
            self.login = login
            self.password = password
            self.account = account
        }
    }

    /// A login and its password, for one host.
    package struct Login: Sendable, Equatable {
        package let user: String
        package let password: String

        package init(user: String, password: String) {
            self.user = user
            self.password = password
        }
    }

    package let entries: [Entry]
    /// Why the file could not be read, when it is there but could not be
    /// (too large, a folder, a stream that gave nothing in time): told with
    /// a refused login.
    package let problem: String?

    /// The most a netrc is read of: a file of logins is a few lines.
    static let largest = 1 << 20
    /// How long a netrc that is a stream may take to come.
    static let patience: Int32 = 10_000

    package init(entries: [Entry], problem: String? = nil) {
        self.entries = entries
        self.problem = problem
    }

    /// Reads `text` as curl does: a quoted string left open makes the
    /// whole file unreadable (curl then gives no login at all).
    package init(parsing text: String) {
        switch Netrc.parse(Array(text.utf8)) {
        case .success(let entries): self.init(entries: entries)
        case .failure(let why): self.init(entries: [], problem: why.reason)
        }
    }

    /// The file the environment names: `$NETRC` when set and not empty,
    /// else `.netrc` in `$HOME`, else in the user's home directory.
    package static func location(environment: [String: String]) -> String? {
        if let netrc = environment["NETRC"], !netrc.isEmpty { return netrc }
        return UserFolders.home(environment: environment) + "/.netrc"
    }

    /// The netrc the environment names, read once; no entries when there
    /// is none.
    package static func load(environment: [String: String]) -> Netrc {
        guard let path = location(environment: environment) else { return Netrc(entries: []) }
        let shown = (environment["NETRC"] ?? "").isEmpty ? "~/.netrc" : "$NETRC"
        switch read(path).flatMap(parse) {
        case .success(let entries): return Netrc(entries: entries)
        case .failure(let why): return Netrc(entries: [], problem: why.reason.map { "\(shown) \($0)" })
        }
    }

    /// The login for `host` (a name or an address, without port or
    /// brackets, in any case): the first entry for it, or `default`,
    /// whichever comes first, as curl takes it. With `user` (the URL
    /// names one), the first such entry with that login.
    package func login(for host: String, user: String? = nil) -> Login? {
        for entry in entries where entry.machine.map({ $0.lowercased() == host.lowercased() }) ?? true {
            if let user {
                guard entry.login == user else { continue }
                return entry.password.map { Login(user: user, password: $0) }
            }
            guard let login = entry.login else { return nil }
            return Login(user: login, password: entry.password ?? "")
        }
        return nil
    }

    /// The file's bytes, at most `largest`: a regular file, a device
    /// (`/dev/null`), or a stream read to its end, waiting `patience` at
    /// most for it to come (a FIFO whose writer has not opened it yet reads
    /// as ended: it is waited for once). A failure without a reason is a
    /// file that is not there: no logins, nothing to tell.
    static func read(_ path: String) -> Result<[UInt8], Failure> {
        // Not O_NOFOLLOW: ~/.netrc is often a link into a folder of dotfiles.
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.openWithoutWaiting(path, followingLinks: true)
        } catch {
            return .failure(Failure(error == .noSuchFileOrDirectory ? nil :
                "cannot be read: \(String(cString: strerror(error.rawValue)))"))
        }
        defer { try? fd.close() }
        let isFIFO = (try? Stat(fd))?.type == .fifo
        var waited = false
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = Date().addingTimeInterval(TimeInterval(patience) / 1000)
        while bytes.count <= largest {
            switch chunk.withUnsafeMutableBytes({ raw in Result { () throws(Errno) in try fd.readOnce(into: raw) } }) {
            case .success(let n) where n > 0:
                bytes += chunk[..<n]
                continue
            case .success:  // its end, or a FIFO's writer that has not come yet
                if !isFIFO || !bytes.isEmpty || waited { return .success(bytes) }
            case .failure(let error) where error.isWouldBlock:
                break
            case .failure(let error):
                return .failure(Failure("cannot be read: \(String(cString: strerror(error.rawValue)))"))
            }
            // A stream that has not written yet, or whose writer has not come.
            waited = true
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            if left == 0 || !fd.waitUntilReadable(milliseconds: left) {
                return .failure(Failure("gave nothing to read in \(patience / 1000) s"))
            }
        }
        return .failure(Failure("is larger than \(largest >> 20) MB"))
    }

    struct Failure: Error {
        let reason: String?
        init(_ reason: String?) { self.reason = reason }
    }

    /// The entries of a netrc, in order. Tokens are parted by blanks and
    /// line ends; one that starts with `"` runs to the next `"` on its line,
    /// `\"`, `\\`, `\n`, `\r`, `\t` read as in C; one that starts with `#`
    /// makes the rest of its line a comment; the lines after `macdef NAME`
    /// are a macro, up to a line that is empty. Keywords in any case.
    static func parse(_ bytes: [UInt8]) -> Result<[Entry], Failure> {
        var entries: [Entry] = []
        var keyword: String?  // the keyword whose value comes next
        var inMacro = false
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if inMacro {
                if line.isEmpty || line.first == 0x0D { inMacro = false }
                continue
            }
            var tokens: [String] = []
            guard tokenize(line, into: &tokens) else {
                return .failure(Failure("has a quoted string that does not end"))
            }
            for token in tokens {
                if keyword == "macdef" {  // its name: the rest of the line goes with it
                    inMacro = true
                    break
                }
                if let pending = keyword {
                    keyword = nil
                    switch pending {
                    case "machine": entries.append(Entry(machine: token))
                    case "login": entries.indices.last.map { entries[$0].login = token }
                    case "password": entries.indices.last.map { entries[$0].password = token }
                    default: entries.indices.last.map { entries[$0].account = token }
                    }
                    continue
                }
                switch token.lowercased() {
                case "default": entries.append(Entry(machine: nil))
                case let word where ["machine", "login", "password", "account", "macdef"].contains(word): keyword = word
                default: break  // unknown: skipped, as curl skips it
                }
            }
            if keyword == "macdef" {
                keyword = nil
                inMacro = true
            }
        }
        return .success(entries)
    }

    /// The tokens of one line; false when a quoted one does not end on it.
    private static func tokenize(_ line: ArraySlice<UInt8>, into tokens: inout [String]) -> Bool {
        let space: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0B, 0x0C]
        var i = line.startIndex
        while i < line.endIndex {
            if space.contains(line[i]) {
                i += 1
                continue
            }
            if line[i] == UInt8(ascii: "#") { return true }
            var token: [UInt8] = []
            if line[i] != UInt8(ascii: "\"") {
                while i < line.endIndex, !space.contains(line[i]) {
                    token.append(line[i])
                    i += 1
                }
                tokens.append(String(decoding: token, as: UTF8.self))
                continue
            }
            i += 1
            var closed = false
            while i < line.endIndex {
                var c = line[i]
                i += 1
                if c == UInt8(ascii: "\"") {
                    closed = true
                    break
                }
                if c == UInt8(ascii: "\\") {
                    guard i < line.endIndex else { return false }
                    c = line[i]
                    i += 1
                    switch c {
                    case UInt8(ascii: "n"): c = 0x0A
                    case UInt8(ascii: "r"): c = 0x0D
                    case UInt8(ascii: "t"): c = 0x09
                    default: break
                    }
                }
                token.append(c)
            }
            guard closed else { return false }
            tokens.append(String(decoding: token, as: UTF8.self))
        }
        return true
    }
}
