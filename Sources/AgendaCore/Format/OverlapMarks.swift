/// The text formats' mark of what a row overlaps that day: its first titles, named, and how many more.
extension DayOverlaps {
    /// `(overlaps Review, Standup)`, `(overlaps A, B, C and 12 more)`: the mark after a row's title, naming what it
    /// overlaps that day (sorted, unique titles; the day's answers named by title); empty when it overlaps nothing.
    package func mark(_ row: AgendaRow) -> String {
        let block = BlockBuffer()
        return writeMark(row, to: block) ? String(decoding: block.bytes, as: UTF8.self) : ""
    }

    /// Appends the row's mark (`mark`) to `block`, as it is asked for every overlapping row of a text agenda: no
    /// string is made. False, and nothing appended, when it overlaps nothing that day.
    func writeMark(_ row: AgendaRow, to block: BlockBuffer) -> Bool {
        guard row.overlap >= 0 else { return false }
        let (count, groups) = answer(row)
        guard count > 0 else { return false }
        block.append("(overlaps ")
        names.bytes.withUnsafeBufferPointer { titles in
            for (n, g) in groups.enumerated() {
                if n > 0 { block.append(", ") }
                let from = names.bounds[Int(g)]
                block.append(UnsafeBufferPointer(rebasing: titles[from..<names.bounds[Int(g) + 1]]))
            }
        }
        if count > groups.count {
            block.append(" and ")
            block.append(String(count - groups.count))
            block.append(" more")
        }
        block.append(0x29)
        return true
    }
}

extension NamedOverlaps {
    /// The marks of `rows` (by title, in day order), each day's answers made once: for the formatters that write a
    /// row at a time (Markdown, HTML).
    package func marks(_ rows: ArraySlice<AgendaRow>) -> [String] {
        var day: (sortDay: Int64, answers: DayOverlaps)? = nil
        return rows.map { row in
            guard row.overlap >= 0 else { return "" }
            if day?.sortDay != row.sortDay { day = (row.sortDay, self.day(sortDay: row.sortDay)) }
            return day!.answers.mark(row)
        }
    }
}
