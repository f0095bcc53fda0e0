import AgendaCore
import Foundation

/// `--format ics --series`: each component that has a listed occurrence,
/// whole as the input wrote it (`WholeComponent`): its rules and dates, its
/// overrides (every component of its UID in its calendar), its VALARMs, and
/// before them the VTIMEZONEs they name, each once. A merge and filter of
/// calendars that keeps their series: read back over the same window, the
/// same agenda.
///
/// Items of several calendars (or several one-off components) that share a
/// UID are kept apart as the instance output keeps them (`scopes`): the
/// first owner of a UID is written plain, each further one with
/// `X-ICS-AGENDA-SCOPE` on every component of it; with more than one
/// calendar, each component says its calendar (`X-ICS-AGENDA-CALENDAR`).
extension ICSWriter {
    func writeSeries(_ listed: [Occurrence], calendarNames: Int, to out: inout some ByteOutputStream) {
        let owners = ICSWriter.seriesOwners(of: listed)
        // Its calendars' X-WR-TIMEZONE, when they share one: some times (UTC ones in Google's
        // exports, all-day UNTILs) are read in it. Calendars of different ones are not told apart.
        let calendarZones = Set(owners.map(\.series.calendarTimeZone))
        if calendarZones.count == 1, let zone = calendarZones.first ?? nil {
            out.write(ComponentBuilder.xPropertyText("X-WR-TIMEZONE", zone))
        }
        var zonesWritten: Set<String> = []
        for owner in owners {
            for zone in owner.series.zones where zonesWritten.insert(zone.tzid).inserted {
                out.write(ICSWriter.crlf(zone.text))
            }
        }
        for owner in owners {
            var extra = ""
            if let scope = owner.scope {
                extra += ComponentBuilder.xPropertyText(ComponentRecord.scopeProperty, String(scope))
            }
            if calendarNames > 1 {
                extra += ComponentBuilder.xPropertyText(ComponentRecord.calendarProperty, owner.calendar.name)
                if let color = owner.calendar.color {
                    extra += ComponentBuilder.xPropertyText(ComponentRecord.calendarColorProperty, color)
                }
            }
            for text in owner.series.components { out.write(ICSWriter.inserting(extra, before: text)) }
        }
    }

    /// The series written, in the order of their first listed occurrence,
    /// each once, with the calendar it is from and its scope (nil: plain).
    /// An occurrence without its text (none kept) is not written.
    static func seriesOwners(of listed: [Occurrence]) -> [(series: ComponentSeries, calendar: CalendarInfo,
        scope: Int?)] {
        var written: Set<ObjectIdentifier> = []
        var owners: [String: Int] = [:]
        var result: [(series: ComponentSeries, calendar: CalendarInfo, scope: Int?)] = []
        for o in listed {
            guard let series = o.whole?.series, written.insert(ObjectIdentifier(series)).inserted else { continue }
            var scope: Int? = nil
            if !o.uid.isEmpty {
                let number = owners[o.uid, default: 0]
                owners[o.uid] = number + 1
                scope = number == 0 ? nil : number
            }
            result.append((series, o.calendar, scope))
        }
        return result
    }

    /// `lines` put in before the component's own END line (the last line).
    static func inserting(_ lines: String, before text: String) -> String {
        guard !lines.isEmpty, let end = text.range(of: "END:", options: .backwards) else { return text }
        return String(text[..<end.lowerBound]) + lines + String(text[end.lowerBound...])
    }

    /// A text as written in the input (a VTIMEZONE's bytes), with CRLF line ends.
    static func crlf(_ text: String) -> String {
        // Blank lines (between components in the input) are no part of it.
        let lines = text.split(separator: "\n").map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }.filter { !$0.isEmpty }
        return lines.map { $0 + "\r\n" }.joined()
    }
}
