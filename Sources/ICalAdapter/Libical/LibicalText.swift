internal import CLibical

/// Text a libical `*_r` function returns (`icalcomponent_as_ical_string_r`,
/// `icalrecurrencetype_as_string_r`, ...), as a String.
///
/// libical's rule: the `_r` functions return a buffer the caller owns and
/// frees with `icalmemory_free_buffer` (the ones without `_r` use libical's
/// ring buffer instead). It is freed here, once it is copied; nil when
/// libical returned none.
func takeLibicalText(_ buffer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let buffer else { return nil }
    defer { icalmemory_free_buffer(buffer) }
    return String(cString: buffer)
}

/// Frees this thread's ring of libical's temporary buffers (the functions
/// without `_r`; `icalrecur_iterator_new` takes one for each rule). Each
/// thread's ring keeps up to 2,500 of them until it is freed: half a
/// megabyte a thread, held to the end of a run. Called once a thread has
/// read its share of components, when nothing of theirs is still in use.
func freeLibicalTemporaryBuffers() {
    icalmemory_free_ring()
}
