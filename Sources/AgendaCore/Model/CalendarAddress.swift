/// Calendar user addresses as `--me` and ATTENDEE compare them: without
/// `mailto:` and without regard to case.
package enum CalendarAddress {
    package static func normalized(_ address: String) -> String {
        let text = address.trimmingWhitespace().lowercased()
        return text.hasPrefix("mailto:") ? String(text.dropFirst(7)) : text
    }
}
