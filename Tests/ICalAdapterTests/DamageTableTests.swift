import AgendaCore
import Foundation
@testable import ICalAdapter
import Testing

/// The one table of damage (`DamageKind`): every row has an input that
/// shows it (Fixtures/damage.tsv), and docs/WARNINGS.md lists the rows as
/// the table has them. (That every mode tells the same rows on those
/// inputs is DamageModesTests, through the command line.)
@Suite struct DamageTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Fixtures/damage.tsv: each kind's input ("generated", a fixture path, or "-").
    static let inputs: [(kind: String, input: String)] = {
        let text = (try? String(contentsOf: root.appendingPathComponent("Fixtures/damage.tsv"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return (fields[0], fields.count > 1 ? fields[1] : "")
        }
    }()

    @Test func everyKindHasOneRowInTheInputs() {
        let named = DamageTableTests.inputs.map(\.kind)
        #expect(named.sorted() == DamageKind.allCases.map(\.rawValue).sorted(),
            "Fixtures/damage.tsv and DamageKind differ")
        #expect(Set(named).count == named.count, "a kind is named twice")
        // Only what no file can show is left without an input.
        #expect(DamageTableTests.inputs.filter { $0.input == "-" }.map(\.kind)
            .sorted() == ["fileChanged", "unreadableComponent"])
    }

    /// Over the year from 2025-03-01, as the command-line tests read fixtures.
    static let year = AgendaWindow.days(365, from: CivilDate(iso: "2025-03-01")!, clock: berlinClock)

    static func calendar(_ body: String) -> Data {
        Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ics-agenda//tests//EN\r\n" + body
            + "END:VCALENDAR\r\n").utf8)
    }

    static func event(_ uid: String, _ extra: String = "") -> String {
        "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250303T090000Z\r\nSUMMARY:\(uid)\r\n\(extra)END:VEVENT\r\n"
    }

    /// The inputs too large to keep as fixtures, each just past its limit.
    static func generated(_ kind: DamageKind) throws -> LoadedCalendar {
        var loader = CalendarLoader(window: year)
        let body: String
        switch kind {
        case .tooManyInnerComponents:
            let alarm = "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:x\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\n"
            body = event("alarms", String(repeating: alarm, count: ComponentSplitter.maxInner + 1))
        case .tooManyLines:
            body = event("attendees", String(repeating: "ATTENDEE:mailto:a@example.com\r\n",
                count: ComponentSplitter.maxLines + 1))
        case .componentTooLarge:
            loader.stretchBytes = 4096
            body = event("small") + event("large", "DESCRIPTION:" + String(repeating: "x", count: 9000) + "\r\n")
        case .tooManyRules:
            body = event("rules", String(repeating: "RRULE:FREQ=YEARLY;COUNT=1\r\n", count: PropertyGuard.maxRules + 1))
        case .tooManyZones:
            body = (0...ZoneTable.maxZones).map { ZoneCountTests.tinyZone($0)
                .replacingOccurrences(of: "\n", with: "\r\n") }.joined()
                + event("zoned", "").replacingOccurrences(of: "DTSTART:20250303T090000Z",
                    with: "DTSTART;TZID=Z-\(ZoneTable.maxZones):20250303T090000")
        default:
            Issue.record("no input is generated for \(kind)")
            body = ""
        }
        return try loader.load(calendar(body), path: "generated.ics", defaultName: "generated", source: ".")
    }

    @Test(arguments: DamageKind.allCases) func eachKindIsShownByItsInput(_ kind: DamageKind) throws {
        guard let input = DamageTableTests.inputs.first(where: { $0.kind == kind.rawValue })?.input,
            input != "-" else { return }
        let loaded: LoadedCalendar
        if input == "generated" {
            loaded = try DamageTableTests.generated(kind)
        } else {
            let data = try Data(contentsOf: DamageTableTests.root.appendingPathComponent(input))
            loaded = try CalendarLoader(window: DamageTableTests.year)
                .load(data, path: input, defaultName: "fixture", source: ".")
        }
        #expect(loaded.diagnostics.contains { $0.damage == kind.rawValue },
            "\(input) gives no warning of the kind \(kind): \(loaded.diagnostics.map { "\($0.damage ?? "nil"): \($0.description)" })")
        // Every warning names its row.
        #expect(loaded.diagnostics.allSatisfy { $0.damage != nil })
    }

    /// The table docs/WARNINGS.md shows under "Our own warnings", one row a kind.
    static func markdownTable() -> String {
        var lines = ["| kind | warning | damage | RFC 5545 |", "|---|---|---|---|"]
        for kind in DamageKind.allCases {
            let row = kind.row
            lines.append("| `\(kind.rawValue)` | \(row.warning) | \(row.damage) | \(row.rfc) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `ICS_AGENDA_RECORD=1` writes the table into the document instead of comparing.
    @Test func theWarningsDocumentListsTheTable() throws {
        let url = DamageTableTests.root.appendingPathComponent("docs/WARNINGS.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let header = "| kind | warning | damage | RFC 5545 |\n"
        guard let start = text.range(of: header) else {
            Issue.record("docs/WARNINGS.md has no table of our own warnings (a line \(header.debugDescription))")
            return
        }
        let end = text.range(of: "\n\n", range: start.lowerBound..<text.endIndex)?.lowerBound ?? text.endIndex
        let shown = String(text[start.lowerBound..<end]) + "\n"
        let table = DamageTableTests.markdownTable()
        if ProcessInfo.processInfo.environment["ICS_AGENDA_RECORD"] != nil {
            try (text[..<start.lowerBound] + table + text[text.index(after: end)...]).write(to: url, atomically: true,
                encoding: .utf8)
            return
        }
        #expect(shown == table,
            "docs/WARNINGS.md differs from DamageKind: run the tests with ICS_AGENDA_RECORD=1 to write it")
    }
}
