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
