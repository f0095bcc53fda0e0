/// The agenda's order between items (events and reminders) that fall on the
/// same day, rank and second: title, events before reminders, calendar
/// name, calendar path, UID (`AgendaBuilder.agendaOrder`), as one number
/// per item.
///
/// Rows tie often (all-day rows, meetings on the quarter hour), and every
/// tie used to compare strings through several objects; those comparisons
/// and the reference counting around them were a tenth of the run on a
/// 100,000-component calendar. Items are ranked once here, and rows then
/// compare two integers.
enum ItemRanks {
    /// - Parameter items: lists of items, each given by one of its occurrences.
    /// - Returns: the rank of each item, list by list. Items with equal sort
    ///   fields share a rank (so does an item listed twice), so that their
    ///   rows keep their input order, as a stable sort by `agendaOrder` keeps them.
    static func ranks(of items: [[Occurrence]]) -> [[Int32]] {
        let fields = items.joined().map(SortFields.init)
        var order = Array(fields.indices)
        var ranks = [Int32](repeating: 0, count: fields.count)
        // Compared in place: copying the fields out would count five strings up and down.
        fields.withUnsafeBufferPointer { fields in
            order.sort { SortFields.precedes(fields, $0, $1) }
            var rank: Int32 = 0
            for (position, index) in order.enumerated() {
                if position > 0 && SortFields.precedes(fields, order[position - 1], index) { rank += 1 }
                ranks[index] = rank
            }
        }
        var start = 0
        return items.map { list in
            defer { start += list.count }
            return Array(ranks[start..<(start + list.count)])
        }
    }

    /// What `agendaOrder` compares of an item, in its order.
    private struct SortFields {
        let title: String
        let isReminder: Bool
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
            isReminder = occurrence.isReminder
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

        static func precedes(_ fields: UnsafeBufferPointer<SortFields>, _ i: Int, _ j: Int) -> Bool {
            let a = fields.baseAddress! + i, b = fields.baseAddress! + j
            if let pa = a.pointee.titlePrefix, let pb = b.pointee.titlePrefix, pa != pb { return pa < pb }
            if a.pointee.title != b.pointee.title { return a.pointee.title < b.pointee.title }
            if a.pointee.isReminder != b.pointee.isReminder { return !a.pointee.isReminder }
            if a.pointee.calendarName != b.pointee.calendarName { return a.pointee.calendarName < b.pointee.calendarName }
            if a.pointee.calendarPath != b.pointee.calendarPath { return a.pointee.calendarPath < b.pointee.calendarPath }
            return a.pointee.uid < b.pointee.uid
        }
    }
}
