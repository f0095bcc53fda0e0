import AgendaCore
import Foundation

/// Finds properties inside a framed component, for warnings: their line
/// numbers and values as written. The lines of one property are indexed
/// once, when the first warning about it asks, so that a component with ten
/// thousand bad values costs ten thousand lookups, not ten thousand passes
/// over it; each lookup by value takes the next line with that value, so
/// that every warning names its own line. Lines of other properties are
/// passed over by their bytes: a look for SEQUENCE in an event with a
/// million other lines makes no string of them.
final class LineFinder {
    private let chunk: FramedComponent
    private let buffer: UnsafeBufferPointer<UInt8>
    private var byName: [String: [(line: Int, value: String)]] = [:]
    /// Per property and value (as `value` cuts it), the entries of `byName`, and how many were taken.
    private var byValue: [String: (entries: [Int], taken: Int)] = [:]

    init(_ chunk: FramedComponent, _ buffer: UnsafeBufferPointer<UInt8>) {
        self.chunk = chunk
        self.buffer = buffer
    }

    /// - Parameter value: when given, the line of that value (a line whose
    ///   value starts with it, or lists it, when none is exactly it; the
    ///   first line of the property otherwise).
    func find(_ property: String, value wanted: String? = nil) -> (line: Int, value: String)? {
        let name = property.uppercased()
        guard let entries = entries(of: name), let first = entries.first else { return nil }
        guard let wanted else { return first }
        let key = name + "\u{0}" + LineFinder.cut(wanted)
        // The value, one item of a list, or the start of a value the line's end cut short (folded).
        for key in [key, name + "\u{1}" + wanted, name + "\u{2}" + String(wanted.prefix(LineFinder.prefixLength))] {
            if var slot = byValue[key] {
                let e = slot.entries[min(slot.taken, slot.entries.count - 1)]
                slot.taken += 1
                byValue[key] = slot
                return entries[e]
            }
        }
        for e in entries {
            let v = e.value.hasSuffix("…") ? String(e.value.dropLast()) : e.value
            if wanted.hasPrefix(v) || v.split(separator: ",").contains(where: { $0 == wanted }) { return e }
        }
        return first
    }

    /// The value of the first line of `property` as libical reads it: its
    /// folds joined (also a fold inside the name, `PRI` then ` ORITY:1`),
    /// nothing cut; for the checks of values as written (`WrittenValues`),
    /// which must see what libical saw.
    func written(_ property: String) -> String? {
        let name = Array(property.uppercased().utf8)
        for line in ContentLines(buffer, in: chunk.range) {
            // The logical line, made only when its name matches, or when a fold
            // comes before the line's first `:` or `;` (the name may go on there).
            let first = line.firstText(in: buffer)
            let matches = LineFinder.names(name, at: 0, before: first.count, first)
            guard matches || (line.isFolded && !first.contains(where: { $0 == 0x3A || $0 == 0x3B })) else { continue }
            let logical = line.unfolded(in: buffer)
            let hit = logical.withUnsafeBufferPointer { LineFinder.names(name, at: 0, before: $0.count, $0) }
            guard hit else { continue }
            let k = logical.withUnsafeBufferPointer { LineScan.valueColon(in: $0, from: 0, before: $0.count) }
            return String(decoding: logical[min(k + 1, logical.count)...], as: UTF8.self)
        }
        return nil
    }

    /// The line a libical message that names no property is about
    /// (`LibicalWording.Locator`), and the property on it when the message
    /// is about one of its parameters.
    func find(_ locator: LibicalWording.Locator) -> (line: Int, property: String?)? {
        marked.find(locator)
    }

    private lazy var marked = MarkedLines(chunk, buffer)

    /// The `occurrence`-th line (from 0) of a property.
    func find(_ property: String, occurrence: Int) -> (line: Int, value: String)? {
        guard let entries = entries(of: property.uppercased()), occurrence < entries.count else { return nil }
        return entries[occurrence]
    }

    /// How much of a value's start finds a folded line.
    static let prefixLength = 40

    /// The text as `value(at:)` shows it: at most 80 characters.
    private static func cut(_ text: String) -> String { text.count > 80 ? String(text.prefix(80)) + "…" : text }

    private func entries(of name: String) -> [(line: Int, value: String)]? {
        if byName[name] == nil { index(name) }
        return byName[name]
    }

    /// One pass over the component: every line of the property `name` (upper-cased).
    private func index(_ name: String) {
        var found: [(line: Int, value: String)] = []
        let wanted = Array(name.utf8)
        var line = chunk.firstLine
        var i = chunk.range.lowerBound
        let end = chunk.range.upperBound
        while i < end {
            let lineEnd = LineScan.lineFeed(in: buffer, from: i, before: end)
            if LineFinder.names(wanted, at: i, before: lineEnd, buffer) {
                let value = LineFinder.value(at: i, until: end, buffer)
                let entry = found.count
                byValue[name + "\u{0}" + value, default: ([], 0)].entries.append(entry)
                if value.contains(",") {
                    for item in value.split(separator: ",") {
                        byValue[name + "\u{1}" + item, default: ([], 0)].entries.append(entry)
                    }
                }
                if value.count >= LineFinder.prefixLength {
                    byValue[name + "\u{2}" + String(value.prefix(LineFinder.prefixLength)),
                        default: ([], 0)].entries.append(entry)
                }
                found.append((line, value))
            }
            line += 1
            i = lineEnd + 1
        }
        byName[name] = found
    }

    /// Whether the line at `start` (not a fold) is of the property `name`
    /// (upper-case ASCII): the name, in any case, then `:` or `;`.
    private static func names(_ name: [UInt8], at start: Int, before lineEnd: Int,
        _ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lineEnd - start > name.count else { return false }
        for (j, byte) in name.enumerated() {
            let b = buffer[start + j]
            guard b == byte || (b >= 0x61 && b <= 0x7A && b - 0x20 == byte) else { return false }
        }
        let after = buffer[start + name.count]
        return after == 0x3A || after == 0x3B
    }

    /// The text after the first unquoted colon of the line starting at `start`.
    private static func value(at start: Int, until end: Int, _ buffer: UnsafeBufferPointer<UInt8>) -> String {
        let i = LineScan.valueColon(in: buffer, from: start, before: end)
        var stop = i
        while stop < end && buffer[stop] != 0x0A && buffer[stop] != 0x0D { stop += 1 }
        let from = min(i + 1, stop)
        // no control characters in a warning
        let text = TextBytes.string(UnsafeBufferPointer(rebasing: buffer[from..<stop]))
        return text.count > 80 ? String(text.prefix(80)) + "…" : text
    }
}
