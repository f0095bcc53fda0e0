import AgendaSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `--credential-helper PROGRAM`: a program that gives passwords as git's
/// credential helpers do (`git-credential-libsecret`, a script around
/// `pass`). It is run as `PROGRAM get` (the words of PROGRAM, then `get`)
/// and told `protocol=`, `host=` (with `:port` when not the default),
/// `path=` and, when the URL names one, `username=` lines, then a blank
/// line; it answers `username=` and `password=` lines (other keys are left
/// alone). What it is told and answers is never printed.
struct CredentialHelper: Sendable {
    /// The program and its own arguments, as `ConfigWords` split PROGRAM.
    let words: [String]
    var timeLimit: TimeInterval = 10

    /// What is told of it: the last part of its program's path.
    var name: String { (words.first ?? "").split(separator: "/").last.map(String.init) ?? "" }

    /// Why it gave no password, in words that quote nothing it was told
    /// and follow its name (`exited with status 1`).
    struct Failure: Error, Equatable {
        let reason: String
    }

    /// The login it gives for `place`: its `username` (else the URL's
    /// user, else none) and its password.
    func login(for place: Credentials.Place) -> Result<Netrc.Login, Failure> {
        guard let request = CredentialHelper.request(for: place) else {
            return .failure(Failure(reason: "was not asked: the URL's user holds a line end"))
        }
        let process = HelperProcess(arguments: words + ["get"], timeLimit: timeLimit)
        switch process.run(request: request) {
        case .answered(let output):
            let answer = CredentialHelper.fields(of: output)
            guard let password = answer["password"], !password.isEmpty else {
                return .failure(Failure(reason: "gave no password"))
            }
            return .success(Netrc.Login(user: answer["username"] ?? place.user ?? "", password: password))
        case .notStarted(let code):
            return .failure(Failure(reason: "cannot be run: " + String(cString: strerror(code))))
        case .exited(let code): return .failure(Failure(reason: "exited with status \(code)"))
        case .signalled(let signal): return .failure(Failure(reason: "ended by signal \(signal)"))
        case .timedOut:
            return .failure(Failure(reason: "took longer than \(Int(timeLimit.rounded(.up))) s and was stopped"))
        case .tooLong: return .failure(Failure(reason: "printed more than \(process.maxOutput >> 10) KB"))
        case .lost: return .failure(Failure(reason: "could not be waited for"))
        }
    }

    /// What the helper is told on its standard input for `place`; nil when
    /// a value would hold a line end (a user written with `%0A`), which
    /// would tell it a line of its own, as git refuses to.
    static func request(for place: Credentials.Place) -> [UInt8]? {
        let values = [place.host, place.path, place.user ?? ""]
        guard !values.contains(where: { $0.unicodeScalars.contains { $0 == "\n" || $0 == "\r" || $0 == "\0" } }) else {
            return nil
        }
        var text = "protocol=\(place.isHTTPS ? "https" : "http")\nhost=\(place.host)\npath=\(place.path)\n"
        if let user = place.user { text += "username=\(user)\n" }
        return Array((text + "\n").utf8)
    }

    /// The `key=value` lines of an answer (the first of each key; a line
    /// end may be CRLF); a line without `=` is left out.
    static func fields(of output: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for bytes in output.split(separator: 0x0A) {
            let line = String(decoding: bytes.last == 0x0D ? bytes.dropLast() : bytes, as: UTF8.self)
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals])
            if fields[key] == nil { fields[key] = String(line[line.index(after: equals)...]) }
        }
        return fields
    }
}
