import AgendaCore
import Foundation
import ICalAdapter
import Synchronization
import Testing

/// libical 3.0 keeps one table of built-in zones for the process, and fills
/// and grows it without a lock: a name missing from zone.tab (`US/Eastern`,
/// `Asia/Calcutta`) is appended to it by whichever thread asks first, while
/// other threads read it, and a zone's definition loaded by two threads at
/// once is freed under one of them. Files are read on several threads
/// (a folder's files, a file's batches), so every lookup of ours takes one
/// lock (`Zone`). A make test run once crashed in libical's strcmp here.
@Suite struct ZoneThreadTests {
    /// The zone names of the system's zone files that zone.tab does not
    /// list: each is appended to libical's table the first time it is asked.
    static let unlisted: [String] = {
        let root = "/usr/share/zoneinfo"
        let listed = Set(((try? String(contentsOfFile: root + "/zone.tab", encoding: .utf8))
            ?? "").split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: "\t").dropFirst(2).first.map(String.init) })
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return files.filter { name in
            name.contains("/") && !name.hasPrefix("posix") && !name.hasPrefix("right") && !name.hasPrefix("Etc")
                && !listed.contains(name) && TimeZone(identifier: name) != nil
                && (FileManager.default.contents(atPath: root + "/" + name)?.prefix(4) == Data("TZif".utf8))
        }.sorted()
    }()

    /// Many files at once, each in a zone of its own name, read on every
    /// core: each start is where Foundation's zone of that name puts it. In
    /// the first half an EXDATE in the zone comes first: libical's EXDATE
    /// getter looks its TZID up in the built-in zones too.
    @Test func builtinZonesResolveOnManyThreadsAtOnce() throws {
        let names = ZoneThreadTests.unlisted
        #expect(names.count > 20, "the system's zone files: \(names.count)")
        let window = AgendaWindow.days(3, from: CivilDate(iso: "2025-06-30")!, clock: berlinClock)
        let results = Mutex<[String: Date]>([:])
        DispatchQueue.concurrentPerform(iterations: names.count * 2) { i in
            let name = names[i % names.count]
            let exdate = i < names.count ? "EXDATE;TZID=\(name):20250601T120000\n" : ""
            let body = "BEGIN:VEVENT\nUID:z\(i)\n\(exdate)DTSTART;TZID=\(name):20250701T120000\nSUMMARY:\(name)\nEND:VEVENT\n"
            guard let start = try? load(body, window: window).occurrences.first?.start else { return }
            results.withLock { $0[name] = start.instant(in: berlinClock) }
        }
        let found = results.withLock { $0 }
        for name in names {
            let zone = try #require(TimeZone(identifier: name))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let expected = calendar.date(from: DateComponents(year: 2025, month: 7, day: 1, hour: 12))
            #expect(found[name] == expected, "\(name)")
        }
    }
}
