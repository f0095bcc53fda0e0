import Foundation

/// Putting rows in agenda order: each placing thread sorts its own rows,
/// and the sorted runs are merged.
extension AgendaBuilder {
    /// Sorts rows into agenda order (`AgendaOrder`), rows that tie keeping
    /// their order (a stable sort). Indices are sorted, not rows: a row is
    /// several words, so moving it costs more than comparing day keys; the
    /// order is then applied in place, a cycle at a time, so that no second
    /// array of rows is made (at 250,000 rows, it was a fifth of the peak).
    static func sort(_ rows: inout [AgendaRow], ranks table: ItemTable, occurrences: AgendaOccurrences) {
        guard rows.count > 1 else { return }
        let keys = rows.map(\.sortKey)
        let ranks = rows.map { table.ranks[Int($0.item)] }
        var order = Array(0..<Int32(rows.count))
        rows.withUnsafeBufferPointer { rows in
            keys.withUnsafeBufferPointer { keys in
                ranks.withUnsafeBufferPointer { ranks in
                    order.sort { a, b in
                        let a = Int(a), b = Int(b)
                        return AgendaOrder.precedes(keys[a], ranks[a], keys[b], ranks[b]) {
                            AgendaOrder.sameItem(rows[a], rows[b], occurrences)
                        } ?? (a < b)
                    }
                }
            }
        }
        // Place i takes the row at order[i]; a place done is marked order[i] == i.
        rows.withUnsafeMutableBufferPointer { rows in
            order.withUnsafeMutableBufferPointer { order in
                for start in 0..<order.count where Int(order[start]) != start {
                    let first = rows[start]
                    var place = start
                    while true {
                        let from = Int(order[place])
                        order[place] = Int32(place)
                        if from == start {
                            rows[place] = first
                            break
                        }
                        rows[place] = rows[from]
                        place = from
                    }
                }
            }
        }
    }

    /// Whether `a` goes before `b` (`AgendaOrder`); false when they tie.
    static func precedes(_ a: AgendaRow, _ b: AgendaRow, ranks table: ItemTable,
        occurrences: AgendaOccurrences) -> Bool {
        AgendaOrder.precedes(a.sortKey, table.ranks[Int(a.item)], b.sortKey, table.ranks[Int(b.item)]) {
            AgendaOrder.sameItem(a, b, occurrences)
        } ?? false
    }

    /// Merges sorted `run` into sorted `rows`, the row of `rows` first on
    /// ties, from the back: `rows` grows by `run`'s length (within its room,
    /// when reserved) and no third array is made.
    static func merge(_ run: [AgendaRow], into rows: inout [AgendaRow], ranks table: ItemTable,
        occurrences: AgendaOccurrences) {
        guard !run.isEmpty else { return }
        var i = rows.count - 1, j = run.count - 1
        rows.append(contentsOf: run)
        rows.withUnsafeMutableBufferPointer { rows in
            var k = rows.count - 1
            while j >= 0 {
                if i >= 0 && precedes(run[j], rows[i], ranks: table, occurrences: occurrences) {
                    rows[k] = rows[i]
                    i -= 1
                } else {
                    rows[k] = run[j]
                    j -= 1
                }
                k -= 1
            }
        }
    }
}
