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
