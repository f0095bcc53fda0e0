import Foundation

/// `free`'s text (a section per day, `9:00 AM - 10:30 AM (1 h 30 min)` rows
/// in the locale) and JSON Lines (`start`, `end`, `minutes`, `day`).
package struct FreeTimeFormatter: OutputFormatter {
    package let formats: LocaleFormats
    package let format: ListingFormat

    package init(formats: LocaleFormats, format: ListingFormat) {
        self.formats = formats
        self.format = format
    }

    package func write(_ slots: [FreeTime.Slot], to out: inout some ByteOutputStream) {
        switch format {
        case .text: writeText(slots, to: &out)
        case .json: writeJSON(slots, to: &out)
        }
    }

    private func writeText(_ slots: [FreeTime.Slot], to out: inout some ByteOutputStream) {
        var day: CivilDate? = nil
        for slot in slots {
            if slot.day != day {
                if day != nil { out.write("\n") }
                out.write(formats.dayHeader(slot.day) + "\n")
                day = slot.day
            }
            out.write("  \(formats.shortTime(slot.start)) - \(formats.shortTime(slot.end)) " +
                "(\(DurationText.words(minutes: slot.minutes)))\n")
        }
    }

    private func writeJSON(_ slots: [FreeTime.Slot], to out: inout some ByteOutputStream) {
        let iso = ISOTime(clock: formats.clock)
        for slot in slots {
            out.write("{\"start\":\"\(iso.string(instant: slot.start))\",\"end\":\"\(iso.string(instant: slot.end))\",")
            out.write("\"minutes\":\(slot.minutes),\"day\":\"\(slot.day.iso)\"}\n")
        }
    }
}
