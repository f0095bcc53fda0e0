import AgendaCore

/// The warnings of one file, kept in the order they are given: at most
/// `maxDiagnostics` of them (an endless stream of damaged components would
/// otherwise fill memory), the rest counted on the first of their kind.
struct DiagnosticLog {
    let path: String
    private(set) var diagnostics: [Diagnostic] = []
    /// The first warning of each kind, by its place in `diagnostics`.
    private var firstOfKind: [String: Int] = [:]
    private var unwritten = 0
    /// Every warning given, kept or counted.
    private(set) var given = 0
    /// The text repairs told so far (`ComponentWarnings.oncePerFile`): one warning each a file.
    private var toldOnce = Set<DamageKind>()

    /// The warnings one file may give.
    static let maxDiagnostics = 10_000
    /// Kinds first met past `maxDiagnostics` that are still kept, one warning each.
    static let maxKindsPast = 1_000

    init(path: String) {
        self.path = path
    }

    mutating func warn(_ warning: Warning) {
        given += 1
        if diagnostics.count >= DiagnosticLog.maxDiagnostics {
            // Past the limit a kind already told is counted on its first
            // warning; a new kind is kept, up to `maxKindsPast` of them.
            if let first = firstOfKind[warning.kind] {
                if diagnostics[first].morePlaces == 0 { diagnostics[first].morePlacesFrom = warning.line }
                diagnostics[first].morePlaces += 1
                return
            }
            guard diagnostics.count < DiagnosticLog.maxDiagnostics + DiagnosticLog.maxKindsPast else {
                unwritten += 1
                return
            }
        }
        if firstOfKind[warning.kind] == nil { firstOfKind[warning.kind] = diagnostics.count }
        diagnostics.append(Diagnostic(path: path, line: warning.line, message: warning.message, kind: warning.kind,
            damage: warning.damage.rawValue))
    }

    mutating func warn(_ line: Int, _ damage: DamageKind, _ message: String) {
        warn(Warning(line, damage, message))
    }

    /// The warnings of a component in the order a serial read gives them:
    /// framing, then text repairs (the first of each kind a file), then the rest.
    mutating func take(_ warnings: ComponentWarnings) {
        for w in warnings.framing { warn(w) }
        for w in warnings.oncePerFile where toldOnce.insert(w.damage).inserted { warn(w) }
        for w in warnings.rest { warn(w) }
    }

    /// Everything told, in the order of the file (zones are read first, a
    /// cut file is found last), with a last line for those not kept.
    func ordered() -> [Diagnostic] {
        var told = diagnostics
        if unwritten > 0 {
            var rest = Diagnostic(path: path, line: nil,
                message: "\(unwritten) more warning\(unwritten == 1 ? "" : "s") not shown (at most " +
                    "\(DiagnosticLog.maxDiagnostics) a file)")
            rest.standsFor = unwritten
            told.append(rest)
        }
        return told.enumerated().sorted {
            ($0.element.line ?? Int.max, $0.offset) < ($1.element.line ?? Int.max, $1.offset)
        }.map(\.element)
    }
}
