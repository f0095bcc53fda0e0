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
