import AgendaCore
import CRE2
import Foundation
import Synchronization

/// `--grep`'s regular expression, matched by RE2 in time that grows with
/// the text and the pattern, never more: a pattern with nested quantifiers
/// (`(a+)+$`) or `.*` over a long description, which a backtracking engine
/// takes minutes over, cannot stall a cron job. RE2's syntax is Perl's
/// without backreferences and lookaround. Smart case, as in ripgrep and fd:
/// a pattern with no upper-case letter ignores case; only the letters it
/// matches count, not those of an escape (`\S`, `\p{Lu}`), a group's name
/// or a flag.
final class RegexPattern: TextPattern, @unchecked Sendable {
    /// Owned here, freed in deinit; RE2 allows matching from several threads at once.
    private let compiled: UnsafeMutableRawPointer

    struct Invalid: Error {
        let reason: String
    }

    /// RE2's time per byte grows with the compiled program when its DFA
    /// cannot hold the pattern's states (`a.{200}Z` over a long text): 1,000
    /// instructions keep a search under a few seconds for megabytes of text,
    /// and hold any pattern a person types (`.{120}`, fifty alternatives).
    static let largestProgram: Int32 = 1000

    init(_ pattern: String) throws(Invalid) {
        let ignoreCase = !RegexPattern.hasUpperCaseLiteral(pattern)
        var error: UnsafeMutablePointer<CChar>? = nil
        var bytes = Array(pattern.utf8)
        let compiled = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                cre2_compile($0.baseAddress, $0.count, ignoreCase ? 1 : 0, RegexPattern.largestProgram, &error)
            }
        }
        guard let compiled else {
            let reason = error.map { String(cString: $0) } ?? "out of memory"
            cre2_free_error(error)
            throw Invalid(reason: reason)
        }
        self.compiled = compiled
        self.source = pattern
    }

    deinit { cre2_free(compiled) }

    /// Whether a letter the pattern matches is upper case. Skipped: an
    /// escape with its braces (`\W`, `\P{Greek}`, `\x{41}`, `\xAB`), a group's
    /// name (`(?P<Name>`, `(?<Name>`) and flags (`(?U)`, `(?i:`), whose
    /// letters say what to match, not what matches. An escaped letter that
    /// stands for itself (within `\Q...\E`) counts as typed.
    static func hasUpperCaseLiteral(_ pattern: String) -> Bool {
        let c = Array(pattern.unicodeScalars)
        var i = 0
        var quoted = false  // inside \Q...\E every character is itself
        /// Past `{...}` at j, or past `width` characters when there is no brace.
        func skipArgument(at j: Int, width: Int) -> Int {
            guard j < c.count, c[j] == "{" else { return j + width }
            var k = j
            while k < c.count, c[k] != "}" { k += 1 }
            return k + 1
        }
        while i < c.count {
            let s = c[i]
            if quoted {
                if s == "\\", i + 1 < c.count, c[i + 1] == "E" { quoted = false; i += 2; continue }
                if s.properties.isUppercase { return true }
                i += 1
                continue
            }
            switch s {
            case "\\":
                guard i + 1 < c.count else { return false }
                let next = c[i + 1]
                switch next {
                case "Q": quoted = true; i += 2
                case "p", "P": i = skipArgument(at: i + 2, width: 1)
                case "x": i = skipArgument(at: i + 2, width: 2)
                default:
                    // \A \B \D \S \W \Z \C are classes and anchors; a
                    // punctuation escape is itself and never upper case.
                    i += 2
                }
            case "(":
                guard i + 1 < c.count, c[i + 1] == "?" else { i += 1; continue }
                var k = i + 2
                if k < c.count, c[k] == "P" { k += 1 }
                if k < c.count, c[k] == "<" {
                    while k < c.count, c[k] != ">" { k += 1 }
                } else {
                    while k < c.count, c[k] != ":", c[k] != ")" { k += 1 }
                }
                i = k + 1
            default:
                if s.properties.isUppercase { return true }
                i += 1
            }
        }
        return false
    }

    /// The time all matches of one run may take together, in nanoseconds.
    /// RE2 is linear in the text, but when its DFA cannot hold a pattern's
    /// states (`a[ab]{30}c`: 2^30 of them) it falls back to a matcher whose
    /// time per byte grows with the pattern: 20 MB of descriptions took 51 s.
    /// Past this budget the run ends with a usage error that says so; a
    /// pattern RE2 matches fast reads gigabytes in it.
    static let budget: UInt64 = 5_000_000_000
    /// The time spent so far, and whether a thread past the budget is telling so.
    private let spent = Mutex<(nanoseconds: UInt64, told: Bool)>((0, false))

    /// The bytes of one field matched (a description of megabytes: its
    /// first MB). The budget is looked at between matches, and one match
    /// cannot be stopped: this bounds the time of one.
    static let largestText = 1 << 20

    func matches(_ text: String) -> Bool {
        var text = text
        let started = RegexPattern.now()
        let found = text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) {
                cre2_search(compiled, $0.baseAddress, min($0.count, RegexPattern.largestText)) == 1
            }
        }
        let elapsed = RegexPattern.now() &- started
        let (over, first) = spent.withLock { spent in
            spent.nanoseconds &+= elapsed
            let over = spent.nanoseconds > RegexPattern.budget
            defer { if over { spent.told = true } }
            return (over, over && !spent.told)
        }
        if over { overBudget(tells: first) }
        return found
    }

    /// The pattern as given, for the error past the budget.
    private let source: String

    /// Reached on a worker thread: the run is abandoned there (`ProcessEnd.abandon`),
    /// told once: the first thread past the budget says so and ends the run;
    /// any other waits for that end.
    private func overBudget(tells: Bool) -> Never {
        guard tells else { while true { pause() } }
        let seconds = RegexPattern.budget / 1_000_000_000
        StandardError.write("ics-agenda: --grep: \"\(PrintableText.escaped(source))\" takes too long to match over "
            + "this input (more than \(seconds) s: RE2 could not build its fast matcher for it); "
            + "make the pattern simpler\n")
        ProcessEnd.abandon(64)
    }

    private static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }
}
