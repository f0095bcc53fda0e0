import Foundation

/// The week grid's content (`ics-agenda week`): the days side by side, the
/// items of each day placed as blocks on half hours of the wall clock, and
/// what lasts all day (or 24 hours and more) in a band of lanes on top, one
/// lane per item over every day it touches. Blocks that share a half hour
/// are set side by side: each has a lane of its cluster (the blocks joined
/// by overlapping) and the cluster's lane count. Wall-clock time, so that a
/// day of 23 or 25 hours (a change of clocks) is drawn as its clocks read.
package struct WeekLayout: Sendable {
    /// Half hours: a line of the grid each.
    static let slotsPerHour = 2
    static let slotSeconds = 3600 / slotsPerHour

    package struct Block: Sendable {
        package let item: GridItem
        /// The half hours it covers on its day, `start..<end` (one at least).
        package let start: Int
        package let end: Int
        /// Its place among the blocks it overlaps, and how many places there are.
        package internal(set) var lane = 0
        package internal(set) var lanes = 1
    }

    package struct BandItem: Sendable {
        package let item: GridItem
        /// The columns (indexes of `days`) it covers.
        let firstColumn: Int
        var lastColumn: Int
        package internal(set) var lane = 0
        /// It began before the first day shown.
        package var continues = false
    }

    package let days: [CivilDate]
    package private(set) var band: [BandItem] = []
    package private(set) var bandLanes = 0
    /// Each day's blocks, by column.
    package private(set) var blocks: [[Block]]
    /// By column, how many timed items end before the hours shown, and how many start after them (`--hours`).
    package private(set) var earlier: [Int]
    package private(set) var later: [Int]
    /// The half hours shown, `firstSlot..<endSlot`.
    let firstSlot: Int
    let endSlot: Int

    /// - Parameter sections: the agenda's day sections over `days` (others are ignored).
    /// - Parameter minutes: `--hours` as minutes of the day; nil: from the
    ///   earliest to the latest timed item, and at least 08:00-18:00.
    package init(
        sections: [AgendaSection], days: [CivilDate], clock: ZoneClock, minutes: (start: Int, end: Int)? = nil
    ) {
        self.days = days
        var blocks = Array(repeating: [Block](), count: days.count)
        var band: [BandItem] = []
        // An item in the band keeps one entry over its days: found again by its occurrence on the next day.
        var bandIndex: [AgendaOccurrences.Index: Int] = [:]
        let column = Dictionary(uniqueKeysWithValues: days.enumerated().map { ($1, $0) })
        for section in sections {
            guard let day = section.day, let c = column[day] else { continue }
            for row in section.rows {
                let occurrence = section.occurrences[row]
                func item(_ time: Date?) -> GridItem { GridItem(row: row, occurrence: occurrence, time: time) }
                func addToBand(_ time: Date?) {
                    let id = row.source
                    if let at = bandIndex[id], band[at].lastColumn == c - 1 {
                        band[at].lastColumn = c
                        return
                    }
                    bandIndex[id] = band.count
                    band.append(BandItem(item: item(time), firstColumn: c, lastColumn: c, continues: row.dayIndex > 1))
                }
                // A day or more of the wall clock (midnight to midnight over a change of clocks too) is the band's.
                let span = occurrence.span(in: clock)
                let long = span.map {
                    clock.wallClock(of: $0.end).timeIntervalSince(clock.wallClock(of: $0.start)) >= 86400
                } ?? false
                switch row.timing {
                case .allDay, .due(nil), .overdue, .undated:
                    addToBand(nil)
                case .starts(let start) where long:
                    addToBand(start)
                case .continues where long:
                    addToBand(nil)
                case .starts(let start):
                    let end = span?.end ?? start
                    let from = clock.secondsIntoDay(of: start)
                    let to = clock.civilDate(of: end) > day ? 86400 : clock.secondsIntoDay(of: end)
                    blocks[c].append(WeekLayout.block(item(start), from, to))
                case .continues(let until):
                    blocks[c].append(WeekLayout.block(item(nil), 0, clock.secondsIntoDay(of: until)))
                case .due(let at?):
                    let from = clock.secondsIntoDay(of: at)
                    blocks[c].append(WeekLayout.block(item(at), from, from))
                }
            }
        }
        if let minutes {
            firstSlot = minutes.start / (60 / WeekLayout.slotsPerHour)
            endSlot = max(firstSlot + 1,
                (minutes.end + 60 / WeekLayout.slotsPerHour - 1) / (60 / WeekLayout.slotsPerHour))
        } else {
            // Whole hours, from the earliest to the latest block, 08:00-18:00 at least.
            let all = blocks.joined()
            let earliest = min(8 * WeekLayout.slotsPerHour, all.map(\.start).min() ?? .max)
            let latest = max(18 * WeekLayout.slotsPerHour, all.map(\.end).max() ?? 0)
            firstSlot = earliest / WeekLayout.slotsPerHour * WeekLayout.slotsPerHour
            endSlot = min(24 * WeekLayout.slotsPerHour, (latest
                + WeekLayout.slotsPerHour - 1) / WeekLayout.slotsPerHour * WeekLayout.slotsPerHour)
        }
        let (first, end) = (firstSlot, endSlot)
        earlier = blocks.map { $0.filter { $0.end <= first }.count }
        later = blocks.map { $0.filter { $0.start >= end }.count }
        self.blocks = blocks.map {
            WeekLayout.placedSideBySide($0.filter { $0.end > first && $0.start < end }, first: first, end: end)
        }
        (self.band, bandLanes) = WeekLayout.placedInLanes(band)
    }

    /// A block over `from..<to` seconds of its day: the half hours it touches, one at least.
    package static func block(_ item: GridItem, _ from: Int, _ to: Int) -> Block {
        let start = min(from / slotSeconds, 24 * slotsPerHour - 1)
        let end = max(start + 1, min(24 * slotsPerHour, (to + slotSeconds - 1) / slotSeconds))
        return Block(item: item, start: start, end: end)
    }

    /// The blocks of one day, cut to the hours shown, each given a
    /// lane: the lowest free when it starts, in order of start, the longer
    /// first; every block of a cluster gets the cluster's lane count.
    package static func placedSideBySide(_ blocks: [Block], first: Int, end: Int) -> [Block] {
        var placed = blocks.map { b -> Block in
            let s = min(max(b.start, first), end - 1)
            return Block(item: b.item, start: s, end: max(s + 1, min(b.end, end)))
        }
        let order = placed.indices.sorted {
            (placed[$0].start, -placed[$0].end, $0) < (placed[$1].start, -placed[$1].end, $1)
        }
        var laneEnds: [Int] = []  // the slot each lane is free from
        var cluster: [Int] = []
        var clusterEnd = 0
        func closeCluster() {
            for i in cluster { placed[i].lanes = laneEnds.count }
            cluster = []
            laneEnds = []
        }
        for i in order {
            if !cluster.isEmpty && placed[i].start >= clusterEnd { closeCluster() }
            if cluster.isEmpty { clusterEnd = placed[i].end }
            if let free = laneEnds.firstIndex(where: { $0 <= placed[i].start }) {
                laneEnds[free] = placed[i].end
                placed[i].lane = free
            } else {
                placed[i].lane = laneEnds.count
                laneEnds.append(placed[i].end)
            }
            cluster.append(i)
            clusterEnd = max(clusterEnd, placed[i].end)
        }
        closeCluster()
        return order.map { placed[$0] }
    }

    /// Band items in lanes: in order of their first day (the longer first),
    /// each in the lowest lane free over all its days.
    static func placedInLanes(_ items: [BandItem]) -> ([BandItem], Int) {
        let order = items.indices.sorted {
            let a = items[$0], b = items[$1]
            return (a.firstColumn, -a.lastColumn, $0) < (b.firstColumn, -b.lastColumn, $1)
        }
        var laneEnds: [Int] = []  // the last column each lane holds
        var placed: [BandItem] = []
        for i in order {
            var item = items[i]
            if let free = laneEnds.firstIndex(where: { $0 < item.firstColumn }) {
                item.lane = free
                laneEnds[free] = item.lastColumn
            } else {
                item.lane = laneEnds.count
                laneEnds.append(item.lastColumn)
            }
            placed.append(item)
        }
        return (placed, laneEnds.count)
    }
}
