import Foundation

/// What the overlap answers name, made once for the agenda when first
/// asked for: the UIDs of overlapping rows ranked (JSON) and their titles
/// grouped (the text formats' marks).
extension Overlaps {
    /// Ranks the UIDs of overlapping rows (`spanRows` where `overlapping`)
    /// once, item by item (a series shares its UID), so that a row's list
    /// sorts as numbers.
    static func rankUIDs(
        rows spanRows: [Int32], overlapping: [Bool], of rows: [AgendaRow], occurrences: AgendaOccurrences,
        items itemCount: Int
    ) -> ItemNames {
        var uidOfItem = [Int32](repeating: -2, count: itemCount)
        var items: [(uid: [UInt8], item: Int32)] = []
        for (i, row) in spanRows.enumerated() where overlapping[i] {
            let item = rows[Int(row)].item
            guard uidOfItem[Int(item)] == -2 else { continue }
            uidOfItem[Int(item)] = -1
            let uid = occurrences[rows[Int(row)]].uid
            if !uid.isEmpty { items.append((Array(uid.utf8), item)) }
        }
        items.sort { a, b in
            a.uid.withUnsafeBufferPointer { x in
                b.uid.withUnsafeBufferPointer { y in
                    let c = memcmp(x.baseAddress!, y.baseAddress!, min(x.count, y.count))
                    return c != 0 ? c < 0 : x.count < y.count
                }
            }
        }
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

    /// Numbers the distinct titles of overlapping rows (`spanRows` where
    /// `overlapping`) in title order, once: item ranks put titles in order
    /// (ItemRanks sorts by title first), so equal titles are neighbours.
    /// Each item's group, and the groups' titles as rows show them, one after another.
    static func groupTitles(
        rows spanRows: [Int32], overlapping: [Bool], of rows: [AgendaRow], occurrences: AgendaOccurrences,
        itemRanks: [Int32]
    ) -> ItemNames {
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
}

/// Names given to an agenda's items, numbered in their order: the UIDs of
/// overlapping rows ranked (`Overlaps.rankUIDs`), each escaped as a JSON
/// string, or their titles grouped (`Overlaps.groupTitles`), as rows show them.
final class ItemNames: Sendable {
    /// By item number: the number of its name. For titles -1 when the item
    /// has no overlapping row; for UIDs -1 when it has no UID, -2 when it
    /// has no overlapping row.
    let ofItem: [Int32]
    /// The names in order, one after another: name n is `bytes[bounds[n]..<bounds[n + 1]]`.
    let bytes: [UInt8]
    let bounds: [Int]

    init(ofItem: [Int32], bytes: [UInt8], bounds: [Int]) {
        self.ofItem = ofItem
        self.bytes = bytes
        self.bounds = bounds
    }

    /// The number of the name of a span's row (`rows`: the agenda's): its UID's rank, its title's group.
    func number(of span: Overlaps.Span, in rows: [AgendaRow]) -> Int32 { ofItem[Int(rows[Int(span.row)].item)] }
}
