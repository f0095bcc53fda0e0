/// Says which part of a recurrence rule libical could not read.
///
/// libical refuses a whole RRULE for one bad part and says only "Can't
/// parse as RECUR value": each part is tried again on its own, beside a
/// FREQ known to be good, to name the one at fault.
enum RuleDiagnosis {
    /// Words for a warning about a rule value libical refused.
    static func explain(_ value: String) -> String {
        let parts = value.split(separator: ";", omittingEmptySubsequences: true).map(String.init)
        let shown = value.count > 80 ? String(value.prefix(80)) + "…" : value
        let bad = parts.filter { part in
            !RecurrenceRule.parses(part.uppercased().hasPrefix("FREQ=") ? part : "FREQ=DAILY;" + part)
        }
        if !bad.isEmpty {
            let list = bad.prefix(3).map { $0.count > 40 ? String($0.prefix(40)) + "…" : $0 }.joined(separator: ", ")
            return "cannot read \"\(shown)\": \(list) \(bad.count == 1 ? "is" : "are") not valid"
        }
        let names = parts.map { $0.prefix { $0 != "=" }.uppercased() }
        if !names.contains("FREQ") { return "cannot read \"\(shown)\": it has no FREQ" }
        if names.contains("UNTIL") && names.contains("COUNT") {
            return "cannot read \"\(shown)\": it has both UNTIL and COUNT"
        }
        if names.filter({ $0 == "FREQ" }).count > 1 { return "cannot read \"\(shown)\": it has FREQ twice" }
        return "cannot read \"\(shown)\" as a recurrence rule"
    }

    /// A refused rule as its writer plainly meant it, when only slips of
    /// syntax stand in the way: separators escaped as in TEXT
    /// (`FREQ=DAILY\;COUNT=10`), the property name written twice
    /// (`RRULE:RRULE:FREQ=…`), a stray word of letters and digits, a COUNT
    /// below 1 beside an UNTIL (which bounds the rule anyway). The mended
    /// text is read by libical; nil when these are not what is wrong.
    static func mended(_ value: String) -> (rule: String, changes: String)? {
        var text = value
        var changes: [String] = []
        if text.contains("\\;") || text.contains("\\,") {
            text = text.replacingOccurrences(of: "\\;", with: ";").replacingOccurrences(of: "\\,", with: ",")
            changes.append("escaped separators read as plain")
        }
        while text.uppercased().hasPrefix("RRULE:") {
            text.removeFirst("RRULE:".count)
            changes.append("the repeated name RRULE: left out")
        }
        var parts = text.split(separator: ";", omittingEmptySubsequences: true).map(String.init)
        // A stray word (letters and digits only); anything else without "="
        // may be a part cut short, and is not guessed at.
        func isWord(_ part: String) -> Bool {
            !part.isEmpty && part.utf8.allSatisfy {
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
            }
        }
        for part in parts where isWord(part) {
            let shown: String = part.count > 40 ? String(part.prefix(40)) + "…" : part
            changes.append("\"" + shown + "\" left out")
        }
        parts.removeAll(where: isWord)
        func part(named name: String) -> String? {
            parts.first { $0.uppercased().hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
        if part(named: "UNTIL") != nil, let count = part(named: "COUNT"), (Int(count) ?? 0) < 1 {
            parts.removeAll { $0.uppercased().hasPrefix("COUNT=") }
            changes.append("COUNT=\(count) left out beside UNTIL")
        }
        let rule = parts.joined(separator: ";")
        guard !changes.isEmpty, rule != value, RecurrenceRule.parses(rule) else { return nil }
        return (rule, changes.joined(separator: ", "))
    }

}
