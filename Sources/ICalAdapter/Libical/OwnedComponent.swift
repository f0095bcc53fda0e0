internal import CLibical

/// A libical component that this code owns: freed when the value ends,
/// unless it is handed over (`handOver`) to what takes ownership of it.
///
/// libical's rule, written once here: a component from
/// `icalparser_parse_string`, `icalcomponent_new*` or `icalcomponent_new_clone`
/// is the caller's to free with `icalcomponent_free`; one passed to
/// `icaltimezone_set_component` becomes the zone's when the call succeeds
/// (it has a TZID), and stays the caller's when it fails.
struct OwnedComponent: ~Copyable {
    /// Borrowed by libical calls while this value lives; not to be freed.
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Ownership passes to the caller (libical, after a call that took it):
    /// the component is no longer freed here.
    consuming func handOver() -> OpaquePointer {
        let pointer = self.pointer
        discard self
        return pointer
    }

    deinit { icalcomponent_free(pointer) }
}

/// A libical component borrowed from what owns it (an `OwnedComponent`, a
/// zone, a parent component), valid while the owner is.
struct BorrowedComponent {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    var kind: ComponentKind { ComponentKind(icalcomponent_isa(pointer)) }
}

/// The kinds of component the agenda tells apart.
enum ComponentKind {
    case event, todo, timezone, other

    init(_ kind: icalcomponent_kind) {
        switch kind {
        case ICAL_VEVENT_COMPONENT: self = .event
        case ICAL_VTODO_COMPONENT: self = .todo
        case ICAL_VTIMEZONE_COMPONENT: self = .timezone
        default: self = .other
        }
    }
}

extension OwnedComponent {
    /// The component in a text of one component (NUL-ended), as libical's
    /// parser reads it; nil when it finds none. The corresponding libical
    /// function is `icalparser_parse_string`.
    static func parse(_ text: [CChar]) -> OwnedComponent? {
        // A text that does not start with a BEGIN line (a file cut while it
        // was read: the framing saw the line, now its pages read as zeros) is
        // no component: libical would print "Encountered END before BEGIN" on
        // stderr. A component of very many lines is read in parts (`ComponentParts`).
        var startsWithBegin = false
        let parted = text.withUnsafeBufferPointer { chars in
            chars.withMemoryRebound(to: UInt8.self) { bytes -> OpaquePointer? in
                let whole = UnsafeBufferPointer(rebasing: bytes[..<max(0, bytes.count - 1)])  // less the NUL
                let first = whole.firstIndex { !TextBytes.isBlankOrLineEnd($0) } ?? whole.count
                startsWithBegin = ComponentParts.starts(whole, at: first, with: "BEGIN")
                return startsWithBegin ? ComponentParts(whole)?.parse(whole) : nil
            }
        }
        guard startsWithBegin else { return nil }
        if let parted { return OwnedComponent(parted) }
        let pointer = text.withUnsafeBufferPointer { icalparser_parse_string($0.baseAddress!) }
        guard let pointer else { return nil }
        return OwnedComponent(pointer)
    }

    var borrowed: BorrowedComponent { BorrowedComponent(pointer) }
    var kind: ComponentKind { borrowed.kind }
}
