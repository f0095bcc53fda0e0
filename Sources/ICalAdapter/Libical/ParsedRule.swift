import Foundation
import Synchronization
internal import CLibical

/// A recurrence rule read from text or from a property, with no allocation
/// left to free and nothing borrowed from a component.
///
/// libical's rule: `icalrecurrencetype_from_string` copies an `RSCALE`
/// value (RFC 7529) with `strdup` into the returned struct, and nothing
/// frees it; a rule from a property (`icalproperty_get_rrule`) points into
/// the property instead. The struct is a value that is copied freely (into
/// records, to the expander), so it cannot own the copy: the copy is freed
/// here at once and the rule points at one kept for the process, one per
/// distinct value. Real calendars name one or two calendars; past
/// `maxScales` distinct values a rule's RSCALE reads as one libical does
/// not know, which it cannot expand (as it cannot expand the misspelt
/// names that fill such a file).
enum ParsedRule {
    static let maxScales = 1_024

    private struct Scales: ~Copyable {
        var byName: [String: UnsafeMutablePointer<CChar>] = [:]
        let unknown = strdup("X-UNKNOWN-SCALE")!
    }

    private static let scales = Mutex(Scales())

    /// The rule `text` as libical reads it (no frequency when it cannot).
    static func read(_ text: String) -> icalrecurrencetype {
        var rule = icalrecurrencetype_from_string(text)
        guard let copy = rule.rscale else { return rule }
        rule.rscale = kept(String(cString: copy))
        free(copy)
        return rule
    }

    /// A rule read from a property, its RSCALE pointed at the copy kept
    /// for the process: the property's own is freed with its component,
    /// which the rule outlives (a record is expanded after its component
    /// is freed).
    static func detached(_ property: icalrecurrencetype) -> icalrecurrencetype {
        var rule = property
        if let name = rule.rscale { rule.rscale = kept(String(cString: name)) }
        return rule
    }

    private static func kept(_ name: String) -> UnsafeMutablePointer<CChar> {
        scales.withLock { scales in
            if let kept = scales.byName[name] { return kept }
            guard scales.byName.count < maxScales else { return scales.unknown }
            let kept = strdup(name)!
            scales.byName[name] = kept
            return kept
        }
    }
}
