internal import CLibical

/// A component with very many lines, parsed a part at a time and joined.
///
/// libical removes every property it cannot read (an empty `ATTENDEE:`, a
/// `GEO:x`) from its component's list by searching the list from its head,
/// so a component with a hundred thousand such lines took time that grows
/// with the square of them (minutes). Parsed in parts of at most
/// `linesPerPart` lines, each search is short, and moving the parts'
/// properties and components into the first part takes constant time each
/// (each is taken from the head of its list). Properties keep their order.
struct ComponentParts {
    /// Lines of the component's own (a property, or a whole inner component) in one part.
    static let linesPerPart = 500
    /// Texts shorter than this have too few lines to be worth a look.
    static let minimumBytes = 64 * 1024

    /// The component's first line (`BEGIN:...`), its last (`END:...`), and
    /// where each of its own lines starts in between (an inner component's
    /// lines count as one).
    private let header: Range<Int>
    private let footer: Range<Int>
    private let units: [Int]

    /// nil when the text is short, has few lines of its own, or is not one
    /// component from BEGIN to END (then libical reads it whole, as ever).
    init?(_ text: UnsafeBufferPointer<UInt8>) {
        guard text.count >= ComponentParts.minimumBytes else { return nil }
        var starts: [Int] = []
        var depth = 0
        var header: Range<Int>? = nil
        var footer: Range<Int>? = nil
        var i = 0
        let n = text.count
        while i < n {
            // One logical line: up to a line feed not followed by a fold.
            var end = i
            while end < n {
                if text[end] == 0x0A, !ContentLines.isFold(text, at: end + 1, before: n) { break }
                end += 1
            }
            let next = min(end + 1, n)
            if ComponentParts.starts(text, at: i, with: "BEGIN:") {
                if depth == 0 {
                    guard header == nil else { return nil }
                    header = i..<next
                } else if depth == 1 {
                    starts.append(i)
                }
                depth += 1
            } else if ComponentParts.starts(text, at: i, with: "END:") {
                depth -= 1
                if depth == 0 {
                    footer = i..<next
                    break
                }
                guard depth > 0 else { return nil }
            } else if depth == 1 {
                starts.append(i)
            } else if depth == 0, text[i] != 0x0A, text[i] != 0x0D, text[i] != 0 {
                return nil
            }
            i = next
        }
        guard let header, let footer, starts.count > ComponentParts.linesPerPart else { return nil }
        self.header = header
        self.footer = footer
        self.units = starts + [footer.lowerBound]
    }

    /// Parses every part and joins them into the first; the caller owns
    /// what it returns (`OwnedComponent`).
    func parse(_ text: UnsafeBufferPointer<UInt8>) -> OpaquePointer? {
        var root: OpaquePointer? = nil
        var part: [CChar] = []
        var first = 0
        while first < units.count - 1 {
            let last = min(first + ComponentParts.linesPerPart, units.count - 1)
            part.removeAll(keepingCapacity: true)
            append(text, header, to: &part)
            append(text, units[first]..<units[last], to: &part)
            append(text, footer, to: &part)
            part.append(0)
            first = last
            let parsed = part.withUnsafeBufferPointer { icalparser_parse_string($0.baseAddress!) }
            guard let parsed else { continue }
            guard let root else {
                root = parsed
                continue
            }
            let emptied = OwnedComponent(parsed)
            ComponentParts.move(from: emptied.pointer, into: root)
        }
        return root
    }

    private func append(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to out: inout [CChar]) {
        let bytes = UnsafeBufferPointer(rebasing: text[range])
        bytes.withMemoryRebound(to: CChar.self) { out.append(contentsOf: $0) }
        if let last = bytes.last, last != 0x0A { out.append(0x0A) }
    }

    /// Takes every property and component of `part`, in order, to the end of `root`'s.
    private static func move(from part: OpaquePointer, into root: OpaquePointer) {
        while let property = icalcomponent_get_first_property(part, ICAL_ANY_PROPERTY) {
            icalcomponent_remove_property(part, property)
            icalcomponent_add_property(root, property)
        }
        while let inner = icalcomponent_get_first_component(part, ICAL_ANY_COMPONENT) {
            icalcomponent_remove_component(part, inner)
            icalcomponent_add_component(root, inner)
        }
    }

    /// Whether `keyword` (upper case) is at `i`, in any case.
    static func starts(_ text: UnsafeBufferPointer<UInt8>, at i: Int, with keyword: StaticString) -> Bool {
        let n = keyword.utf8CodeUnitCount
        guard i + n <= text.count else { return false }
        let k = keyword.utf8Start
        for j in 0..<n where text[i + j] & 0xDF != k[j] & 0xDF { return false }
        return true
    }
}
