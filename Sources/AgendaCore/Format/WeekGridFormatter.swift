import Foundation

/// `ics-agenda week` as text: the days side by side in `width` columns,
/// the hours down the side (a line per half hour), what lasts all day in a
/// band on top, blocks that overlap side by side in their day (as many as
/// fit, then `+N`), today's header in brackets and the current time marked
/// in the hours' column and across today.
///
///              │Mon 2      │[Tue 3]    │Wed 4
///     ─────────┼───────────┼───────────┼──────────
///              │▎Offsite   │→ Offsite  │
///     ─────────┼───────────┼───────────┼──────────
///       9:00 AM│▎Standup   │           │
///              │           │───────────│
package struct WeekGridFormatter: OutputFormatter {
    package let canvas: GridCanvas
    package let now: Date

    /// A day's column must hold this much for the grid to be drawn.
    package static let minimumColumn = 8
    /// Lanes of the band drawn at most; the items of the others are counted (`+N`).
    static let maximumBandLanes = 6
    /// Blocks side by side in a day need this much each (its edge and a word); two share a day at least.
    static let minimumLane = 6

    package init(canvas: GridCanvas, now: Date) {
        self.canvas = canvas
        self.now = now
    }

    /// Too narrow for the days it must show: the caller prints the agenda instead.
    package func fits(_ layout: WeekLayout) -> Bool { WeekGridDrawing(canvas, layout, now: now).fits }

    package func write(_ layout: WeekLayout, to out: inout some ByteOutputStream) {
        WeekGridDrawing(canvas, layout, now: now).write(to: &out)
    }
}

/// One week drawn by a `WeekGridFormatter`: its measures, and its lines.
struct WeekGridDrawing {
    let canvas: GridCanvas
    let layout: WeekLayout
    /// The half hour the current time is in, when today is in view.
    let nowSlot: Int?

    init(_ canvas: GridCanvas, _ layout: WeekLayout, now: Date) {
        self.canvas = canvas
        self.layout = layout
        nowSlot = layout.days.contains(canvas.today)
            ? canvas.formats.clock.secondsIntoDay(of: now) / WeekLayout.slotSeconds : nil
    }

    var text: GridText { canvas.text }
    var style: TerminalStyle { canvas.style }
    var width: Int { canvas.width }

    /// The hours' labels, one per whole hour shown.
    var hourLabels: [String] {
        stride(from: layout.firstSlot / WeekLayout.slotsPerHour,
            to: (layout.endSlot + WeekLayout.slotsPerHour - 1) / WeekLayout.slotsPerHour, by: 1)
            .map { canvas.formats.timeOfDay(minutes: $0 * 60) }
    }

    /// The hours' column: the widest label and the mark of the current time.
    var gutter: Int {
        let first = canvas.formats.timeOfDay(minutes: layout.firstSlot * 60 / WeekLayout.slotsPerHour)
        return ((hourLabels + [first]).map(displayWidth).max() ?? 5) + 1
    }

    /// Each day's width, its separator not counted.
    var columnWidth: Int { (width - gutter) / max(1, layout.days.count) - 1 }

    var fits: Bool { columnWidth >= WeekGridFormatter.minimumColumn }

    func write(to out: inout some ByteOutputStream) {
        let column = columnWidth
        let blank = String(repeating: " ", count: gutter)
        let rule = String(repeating: text.horizontal, count: gutter)
            + String(repeating: text.cross + String(repeating: text.horizontal, count: column),
                count: layout.days.count)
        if let first = layout.days.first, let last = layout.days.last {
            let title = canvas.formats.dayRange(first, last)
            emit(text.centred(text.plain(title), gutter + layout.days.count * (column + 1)), &out)
        }
        var line = blank
        for day in layout.days {
            let label = canvas.formats.weekdayAndDay(day)
            // Today's in brackets, both kept when the label is cut.
            line += text.vertical + (day == canvas.today ? style.bold(text.fit("[" + text.cut(label, column - 2) + "]",
                column)) : text.fit(label, column))
        }
        emit(line, &out)
        emit(rule, &out)
        if layout.bandLanes > 0 {
            let lanes = layout.bandLanes <= WeekGridFormatter.maximumBandLanes
                ? layout.bandLanes : WeekGridFormatter.maximumBandLanes - 1
            for lane in 0..<lanes { emit(blank + bandLine(lane, column), &out) }
            if lanes < layout.bandLanes {
                let more = layout.days.indices.map { c in
                    layout.band.filter { $0.lane >= lanes && $0.firstColumn <= c && c <= $0.lastColumn }.count
                }
                emit(blank + more.map { text.vertical + text.fit($0 > 0 ? "+\($0)" : "", column) }.joined(), &out)
            }
            emit(rule, &out)
        }
        if layout.earlier.contains(where: { $0 > 0 }) {
            emit(blank + outside(layout.earlier, text.unicode ? "↑" : "^", column), &out)
        }
        let labels = hourLabels
        for slot in layout.firstSlot..<layout.endSlot {
            let hour = slot / WeekLayout.slotsPerHour - layout.firstSlot / WeekLayout.slotsPerHour
            // Each hour, and the first line when it is a half hour.
            let label = slot % WeekLayout.slotsPerHour == 0 && hour < labels.count ? labels[hour]
                : slot == layout.firstSlot ? canvas.formats.timeOfDay(minutes: slot * 60 / WeekLayout.slotsPerHour) : ""
            let mark = slot == nowSlot ? text.now : " "
            var line = String(repeating: " ", count: gutter - 1 - displayWidth(label)) + label
                + (slot == nowSlot ? style.red(mark) : mark)
            for (c, day) in layout.days.enumerated() {
                line += text.vertical + cell(layout.blocks[c], slot: slot, width: column,
                    isNow: day == canvas.today && slot == nowSlot)
            }
            emit(line, &out)
        }
        if layout.later.contains(where: { $0 > 0 }) {
            emit(blank + outside(layout.later, text.unicode ? "↓" : "v", column), &out)
        }
    }

    /// How many items of each day are before (or after) the hours shown: `↑ 2`.
    func outside(_ counts: [Int], _ arrow: String, _ column: Int) -> String {
        counts.map { text.vertical + text.fit($0 > 0 ? "\(arrow) \($0)" : "", column) }.joined()
    }

    func emit(_ line: String, _ out: inout some ByteOutputStream) {
        out.write(GridText.trimmed(line) + "\n")
    }

    /// One lane of the band across the days: an item's title on its first
    /// day shown, `→ title` on the days it goes on.
    func bandLine(_ lane: Int, _ column: Int) -> String {
        var line = ""
        for c in layout.days.indices {
            guard let item = layout.band.first(where: { $0.lane == lane && $0.firstColumn <= c
                && c <= $0.lastColumn }) else {
                line += text.vertical + String(repeating: " ", count: column)
                continue
            }
            let starts = c == item.firstColumn && !item.continues
            let shown = (starts ? text.edge : (text.unicode ? "→ " : "> ")) + canvas.words.title(item.item)
            line += text.vertical + style.tinted(text.fit(shown, column), canvas.words.color(item.item))
        }
        return line
    }

    /// One half hour of one day: each block there in its lane's share of
    /// the width; its title on its first line, its time on the second.
    func cell(_ blocks: [WeekLayout.Block], slot: Int, width: Int, isNow: Bool) -> String {
        let here = blocks.filter { $0.start <= slot && slot < $0.end }
        guard let lanes = here.map(\.lanes).max() else {
            return isNow ? style.red(String(repeating: text.horizontal, count: width)) : String(repeating: " ",
                count: width)
        }
        let fitting = max(2, width / WeekGridFormatter.minimumLane)
        let shown = min(lanes, fitting)
        var cell = ""
        for lane in 0..<shown {
            let share = width / shown + (lane < width % shown ? 1 : 0)
            if shown < lanes && lane == shown - 1 {
                let more = here.filter { $0.lane >= lane }.count
                cell += text.fit(more > 0 ? "+\(more)" : "", share)
                continue
            }
            guard let block = here.first(where: { $0.lane == lane }) else {
                cell += String(repeating: " ", count: share)
                continue
            }
            let line: String =
                switch slot - block.start {
                case 0: canvas.words.title(block.item)
                case 1: canvas.words.time(block.item) ?? ""
                default: ""
                }
            let color = canvas.words.color(block.item)
            cell += style.tinted(text.edge + text.fit(line, share - displayWidth(text.edge)), color)
        }
        return cell
    }
}
