import Foundation

/// What the overlap answers name, made once for a formatter's run (`Overlaps.named`): the UIDs of overlapping rows
/// ranked (JSON) or their titles grouped (the text formats' marks).
extension Overlaps {
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

/// Names given to an agenda's items, numbered in their order: the UIDs of overlapping rows ranked
/// (`Overlaps.rankUIDs`), each escaped as a JSON string, or their titles grouped (`Overlaps.groupTitles`).
final class ItemNames: Sendable {
    /// By item number: the number of its name. For titles -1 when the item has no overlapping row; for UIDs -1 when
    /// it has no UID, -2 when it has no overlapping row.
    let ofItem: [Int32]
    /// The names in order, one after another: name n is `bytes[bounds[n]..<bounds[n + 1]]`.
    let bytes: [UInt8]
    let bounds: [Int]

    init(ofItem: [Int32] = [], bytes: [UInt8] = [], bounds: [Int] = [0]) {
        (self.ofItem, self.bytes, self.bounds) = (ofItem, bytes, bounds)
    }
}
