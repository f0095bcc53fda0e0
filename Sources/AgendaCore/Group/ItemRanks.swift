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
    /// One thread's items, each given by one of its occurrences, in agenda order.
    struct SortedItems: Sendable {
        fileprivate let fields: FieldStore
        /// Indices into `fields` in agenda order.
        fileprivate let order: [Int32]
        var count: Int { order.count }

        /// Sorted on the thread that met the items: only the merge is left for `ranks`.
        init(_ items: [Occurrence]) {
            let fields = FieldStore(items)
            var order = Array(0..<Int32(items.count))
            // Compared in place: copying the fields out would count five strings up and down.
            order.sort { SortFields.precedes(fields.base + Int($0), fields.base + Int($1)) }
            self.fields = fields
            self.order = order
        }
    }

    /// - Returns: the rank of each item, list by list. Items with equal sort
    ///   fields share a rank (so does an item in two lists), so that their
    ///   rows keep their input order, as a stable sort by `agendaOrder` keeps them.
    static func ranks(of lists: [SortedItems]) -> [[Int32]] {
        var ranks = lists.map { [Int32](repeating: 0, count: $0.count) }
        var next = [Int](repeating: 0, count: lists.count)  // each list's first item not yet ranked
        var previous: UnsafePointer<SortFields>? = nil
        var rank: Int32 = 0
        // A merge of the sorted lists (one per placing thread, a handful).
        func head(_ l: Int) -> UnsafePointer<SortFields> { UnsafePointer(lists[l].fields.base + Int(lists[l].order[next[l]])) }
        while true {
            var best = -1
            for l in lists.indices where next[l] < lists[l].count {
                if best < 0 || SortFields.precedes(head(l), head(best)) { best = l }
            }
            guard best >= 0 else { break }
            let item = head(best)
            if let previous, SortFields.precedes(previous, item) { rank += 1 }
            ranks[best][Int(lists[best].order[next[best]])] = rank
            previous = item
            next[best] += 1
        }
        return ranks
    }

    /// The sort fields of a thread's items, in memory of their own (so that
    /// `ranks` can compare fields of several threads in place).
    fileprivate final class FieldStore: @unchecked Sendable {
        let base: UnsafeMutablePointer<SortFields>
        let count: Int

        init(_ items: [Occurrence]) {
            count = items.count
            base = .allocate(capacity: max(count, 1))
            for (i, item) in items.enumerated() { (base + i).initialize(to: SortFields(item)) }
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }

    /// What `agendaOrder` compares of an item, in its order.
    fileprivate struct SortFields: Sendable {
        let title: String
        let kindRank: Int
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
            kindRank = occurrence.kind.agendaRank
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

        static func precedes(_ a: UnsafePointer<SortFields>, _ b: UnsafePointer<SortFields>) -> Bool {
            if let pa = a.pointee.titlePrefix, let pb = b.pointee.titlePrefix, pa != pb { return pa < pb }
            if a.pointee.title != b.pointee.title { return a.pointee.title < b.pointee.title }
            if a.pointee.kindRank != b.pointee.kindRank { return a.pointee.kindRank < b.pointee.kindRank }
            if a.pointee.calendarName != b.pointee.calendarName { return a.pointee.calendarName < b.pointee.calendarName }
            if a.pointee.calendarPath != b.pointee.calendarPath { return a.pointee.calendarPath < b.pointee.calendarPath }
            return a.pointee.uid < b.pointee.uid
        }
    }
}

extension Occurrence.Kind {
    /// Where the kind goes among items that tie on title: events first.
    var agendaRank: Int {
        switch self {
        case .event: 0
        case .reminder: 1
        }
    }
}
