/// The agenda's order between items (events and reminders) that fall on the
/// same day, rank and second (`AgendaOrder.ItemKey`), as one number per item.
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
            order.sort { AgendaOrder.ItemKey.precedes(fields.base + Int($0), fields.base + Int($1)) }
            self.fields = fields
            self.order = order
        }
    }

    /// - Returns: the rank of each item, list by list. Items with equal sort
    ///   fields share a rank (so does an item in two lists), so that their
    ///   rows keep their input order (`AgendaOrder`).
    static func ranks(of lists: [SortedItems]) -> [[Int32]] {
        var ranks = lists.map { [Int32](repeating: 0, count: $0.count) }
        var next = [Int](repeating: 0, count: lists.count)  // each list's first item not yet ranked
        var previous: UnsafePointer<AgendaOrder.ItemKey>? = nil
        var rank: Int32 = 0
        // A merge of the sorted lists (one per placing thread, a handful).
        func head(_ l: Int) -> UnsafePointer<AgendaOrder.ItemKey> {
            UnsafePointer(lists[l].fields.base + Int(lists[l].order[next[l]]))
        }
        while true {
            var best = -1
            for l in lists.indices where next[l] < lists[l].count {
                if best < 0 || AgendaOrder.ItemKey.precedes(head(l), head(best)) { best = l }
            }
            guard best >= 0 else { break }
            let item = head(best)
            if let previous, AgendaOrder.ItemKey.precedes(previous, item) { rank += 1 }
            ranks[best][Int(lists[best].order[next[best]])] = rank
            previous = item
            next[best] += 1
        }
        return ranks
    }

    /// The sort keys of a thread's items, in memory of their own (so that
    /// `ranks` can compare fields of several threads in place).
    fileprivate final class FieldStore: @unchecked Sendable {
        let base: UnsafeMutablePointer<AgendaOrder.ItemKey>
        let count: Int

        init(_ items: [Occurrence]) {
            count = items.count
            base = .allocate(capacity: max(count, 1))
            for (i, item) in items.enumerated() { (base + i).initialize(to: AgendaOrder.ItemKey(item)) }
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }
}
