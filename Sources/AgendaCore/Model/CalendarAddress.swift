/// Calendar user addresses as `--me` and ATTENDEE compare them: without
/// `mailto:` and without regard to case.
package enum CalendarAddress {
    package static func normalized(_ address: String) -> String {
        var text = Substring(address)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        if text.lowercased().hasPrefix("mailto:") { text = text.dropFirst(7) }
        return text.lowercased()
    }
}
