/// What every formatter is: it writes one kind of value (the agenda's
/// sections, `free`'s slots, `next`'s entries, the calendar list) in one
/// format to a byte stream. Formatting is done here, in `Format/`, and
/// nowhere else: the stages before hand on values, never text.
package protocol OutputFormatter<Subject> {
    associatedtype Subject
    func write(_ subject: Subject, to out: inout some ByteOutputStream)
}

/// How the listings of `calendars` and `free` are written: text for a
/// person, JSON Lines for a program.
package enum ListingFormat: String, Sendable, CaseIterable {
    case text, json
}
