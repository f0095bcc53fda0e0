/// The agenda's order, written once. Rows go by
///
/// 1. day, then all-day-like rows before timed ones, then time of day, in
///    one number (`AgendaRow.sortKey`);
/// 2. their items (`ItemKey`): title, events before reminders, calendar
///    name, calendar path, UID; ranked once per item (`ItemRanks`), so that
///    rows compare two integers;
/// 3. for rows of one item, or of items equal in all of that (rare: a
///    series listed twice on one day and time, copies of one item): the
///    occurrence's start, then which day of the occurrence the row is.
///
/// Rows that tie in all of these keep their input order (a stable sort),
/// so that output is deterministic.
enum AgendaOrder {
    /// Steps 1 and 2 for two rows, given their sort keys and item ranks:
    /// whether the first goes first; `tie` (step 3) when both are equal.
    @inline(__always)
    static func precedes(_ keyA: Int64, _ rankA: Int32, _ keyB: Int64, _ rankB: Int32, else tie: () -> Bool?) -> Bool? {
        if keyA != keyB { return keyA < keyB }
        if rankA != rankB { return rankA < rankB }
        return tie()
    }

    /// Step 3: whether `a` goes before `b`, rows equal in steps 1 and 2;
    /// nil when they tie here too (input order decides).
    static func sameItem(_ a: AgendaRow, _ b: AgendaRow, _ occurrences: AgendaOccurrences) -> Bool? {
        let at = occurrences[a].start?.wall ?? .distantPast, bt = occurrences[b].start?.wall ?? .distantPast
        if at != bt { return at < bt }
        if a.dayIndex != b.dayIndex { return a.dayIndex < b.dayIndex }
        return nil
    }

    /// Step 2: what is compared of an item, in its order.
    struct ItemKey: Sendable {
        let title: String
        let kind: Occurrence.Kind
        let calendarName: String
        let calendarPath: String
        let uid: String

        /// The first eight bytes of an ASCII title, zero-padded, read as a
        /// big-endian number: two such titles whose keys differ compare as
        /// their keys do, without a string comparison. Titles that are not
        /// ASCII have none (Unicode ordering then needs the whole string).
        let titlePrefix: UInt64?

        init(_ occurrence: Occurrence) {
            title = occurrence.title
            kind = occurrence.kind
            calendarName = occurrence.calendar.name
            calendarPath = occurrence.calendar.path
            uid = occurrence.uid
            var prefix: UInt64 = 0
            var shift = 56
            var ascii = true
            for byte in title.utf8 {
                if byte >= 0x80 {
                    ascii = false
                    break
                }
                if shift >= 0 { prefix |= UInt64(byte) << UInt64(shift) }
                shift -= 8
            }
            titlePrefix = ascii ? prefix : nil
        }

        /// Compared in place (`ItemRanks` keeps the keys in memory of its
        /// own): a copy would count five strings up and down.
        static func precedes(_ a: UnsafePointer<ItemKey>, _ b: UnsafePointer<ItemKey>) -> Bool {
            if let pa = a.pointee.titlePrefix, let pb = b.pointee.titlePrefix, pa != pb { return pa < pb }
            if a.pointee.title != b.pointee.title { return a.pointee.title < b.pointee.title }
            if a.pointee.kind != b.pointee.kind { return rank(a.pointee.kind) < rank(b.pointee.kind) }
            let (x, y) = (a.pointee, b.pointee)
            if x.calendarName != y.calendarName { return x.calendarName < y.calendarName }
            if x.calendarPath != y.calendarPath { return x.calendarPath < y.calendarPath }
            return a.pointee.uid < b.pointee.uid
        }

        /// Events before reminders.
        static func rank(_ kind: Occurrence.Kind) -> Int {
            switch kind {
            case .event: 0
            case .reminder: 1
            }
        }
    }
}
