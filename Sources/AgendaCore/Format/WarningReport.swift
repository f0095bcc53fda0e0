/// How warnings about the input are told on stderr (`--verbose`, `--quiet`).
package enum WarningDetail: Sendable {
    /// Each kind of damage once per file, with how often it occurred; the
    /// line named is the first it occurred on.
    case summary
    /// Every place of every kind of damage (`--verbose`).
    case every
    /// Nothing (`--quiet`); the exit status does not change.
    case none
}

/// The lines that tell one file's warnings, in the order of their first
/// place. Every mode tells the same damage (the adapter decides what is
/// damage, `DamageKind`); only how much of it is said differs, and
/// `--strict` fails on exactly what `.every` lists.
package enum WarningReport {
    package static func lines(_ diagnostics: [Diagnostic], detail: WarningDetail) -> [String] {
        switch detail {
        case .none: return []
        case .every:
            return diagnostics.flatMap { d in
                d.morePlaces == 0 ? [d.description]
                    : [d.description, Diagnostic(path: d.path, line: nil,
                        message: "\(d.morePlaces) more place\(d.morePlaces == 1 ? "" : "s") of the warning above not " +
                        "listed (at most 10000 warnings a file are kept)").description]
            }
        case .summary:
            // Warnings of one kind may come from different files only when a
            // caller passes several files' warnings at once: keyed by both.
            var order: [Diagnostic] = []
            var counts: [Key: Int] = [:]
            for d in diagnostics {
                let key = Key(path: d.path, kind: d.kind)
                if let n = counts[key] {
                    counts[key] = n + 1 + d.morePlaces
                } else {
                    counts[key] = 1 + d.morePlaces
                    order.append(d)
                }
            }
            return order.map { first in
                let n = counts[Key(path: first.path, kind: first.kind)]!
                return n == 1 ? first.description : "\(first.description) (\(n) times in this file; --verbose " +
                    "lists each)"
            }
        }
    }

    private struct Key: Hashable {
        let path: String
        let kind: String
    }
}
