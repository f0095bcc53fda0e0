import Foundation

/// One item as a grid places it: its row and occurrence, and the time it is
/// shown starting at (nil on a day it does not start on, or all day). The
/// words a cell shows of it are made in `Format/` (`GridWords`).
package struct GridItem: Sendable {
    package let row: AgendaRow
    package let occurrence: Occurrence
    package let time: Date?

    package init(row: AgendaRow, occurrence: Occurrence, time: Date?) {
        self.row = row
        self.occurrence = occurrence
        self.time = time
    }
}
