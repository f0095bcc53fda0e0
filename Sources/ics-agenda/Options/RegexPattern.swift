import AgendaCore
import CRE2

/// `--grep`'s regular expression, matched by RE2 in time that grows with
/// the text and the pattern, never more: a pattern with nested quantifiers
/// (`(a+)+$`) or `.*` over a long description, which a backtracking engine
/// takes minutes over, cannot stall a cron job. RE2's syntax is Perl's
/// without backreferences and lookaround. Smart case, as in ripgrep and fd:
/// a pattern with no upper-case letter ignores case.
final class RegexPattern: TextPattern, @unchecked Sendable {
    /// Owned here, freed in deinit; RE2 allows matching from several threads at once.
    private let compiled: UnsafeMutableRawPointer

    struct Invalid: Error {
        let reason: String
    }

    init(_ pattern: String) throws(Invalid) {
        let ignoreCase = !pattern.contains { $0.isUppercase }
        var error: UnsafeMutablePointer<CChar>? = nil
        var bytes = Array(pattern.utf8)
        let compiled = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cre2_compile($0.baseAddress, $0.count, ignoreCase ? 1 : 0, &error) }
        }
        guard let compiled else {
            let reason = error.map { String(cString: $0) } ?? "out of memory"
            cre2_free_error(error)
            throw Invalid(reason: reason)
        }
        self.compiled = compiled
    }

    deinit { cre2_free(compiled) }

    func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { cre2_search(compiled, $0.baseAddress, $0.count) == 1 }
        }
    }
}
