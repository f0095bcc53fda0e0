import Foundation

/// What the overlap answers name, made once for a formatter's run (`Overlaps.named`): the UIDs of overlapping rows
/// ranked (JSON) or their titles grouped (the text formats' marks). Names are words, so they are made here, in
/// `Format/`; `Group/` numbers them (`ItemNames`) and answers with their numbers.
extension Overlaps {
    /// What the rows overlap, named one way; the names are made here, once for the agenda.
    package func named(_ naming: NamedOverlaps.Naming, ways: NamedOverlaps.Ways = NamedOverlaps.Ways())
        -> NamedOverlaps {
        NamedOverlaps(overlaps: self, naming: naming, names: naming == .uids ? rankUIDs() : groupTitles(), ways: ways)
    }

    /// Ranks the UIDs of overlapping rows once, item by item (a series shares its UID), so that a row's list sorts
    /// as numbers: each escaped as a JSON string.
    func rankUIDs() -> ItemNames {
        var uidOfItem = [Int32](repeating: -2, count: itemRanks.count)
        var items: [(uid: [UInt8], item: Int32)] = []
        for (i, row) in spanRows.enumerated() where overlapping[i] {
            let item = rows[Int(row)].item
            guard uidOfItem[Int(item)] == -2 else { continue }
            uidOfItem[Int(item)] = -1
            let uid = occurrences[rows[Int(row)]].uid
            if !uid.isEmpty { items.append((Array(uid.utf8), item)) }
        }
        items.sort { $0.uid.lexicographicallyPrecedes($1.uid) }  // byte by byte, as memcmp
        var uidBytes: [UInt8] = [], uidBounds: [Int] = [0]
        var previous: [UInt8]? = nil
        for (uid, item) in items {
            if uid != previous {
                JSONText.append(String(decoding: uid, as: UTF8.self), to: &uidBytes)
                uidBounds.append(uidBytes.count)
                previous = uid
            }
            uidOfItem[Int(item)] = Int32(uidBounds.count - 2)
        }
        return ItemNames(ofItem: uidOfItem, bytes: uidBytes, bounds: uidBounds)
    }

    /// Numbers the distinct titles of overlapping rows in title order, once: item ranks put titles in order
    /// (ItemRanks sorts by title first), so equal titles are neighbours. Each item's group, and the groups' titles as
    /// rows show them, one after another.
    func groupTitles() -> ItemNames {
        var titled: [(rank: Int32, item: Int32, row: Int32)] = []
        var seen = [Bool](repeating: false, count: itemRanks.count)
        for (i, row) in spanRows.enumerated() where overlapping[i] && !seen[Int(rows[Int(row)].item)] {
            seen[Int(rows[Int(row)].item)] = true
            titled.append((itemRanks[Int(rows[Int(row)].item)], rows[Int(row)].item, row))
        }
        titled.sort { $0.rank < $1.rank }
        var titleGroup = [Int32](repeating: -1, count: itemRanks.count)
        var titleBytes: [UInt8] = [], titleBounds: [Int] = [0]
        var previousTitle: String? = nil
        for (_, item, row) in titled {
            let occurrence = occurrences[rows[Int(row)]]
            if occurrence.title != previousTitle {
                titleBytes += Overlaps.oneLine(occurrence).utf8
                titleBounds.append(titleBytes.count)
                previousTitle = occurrence.title
            }
            titleGroup[Int(item)] = Int32(titleBounds.count - 2)
        }
        return ItemNames(ofItem: titleGroup, bytes: titleBytes, bounds: titleBounds)
    }

    /// A title as a row shows it: one line, `(no title)` when empty.
    static func oneLine(_ o: Occurrence) -> String {
        let title = o.title
        if title.isEmpty { return "(no title)" }
        return RowWording.singleLine(title)
    }
}
