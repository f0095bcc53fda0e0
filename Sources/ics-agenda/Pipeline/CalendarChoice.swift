import AgendaCore
import ICalAdapter

/// The calendars read, named and chosen as the user asked, before any
/// agenda is built: `--rename OLD=NEW`, `--calendar-color NAME=#RRGGBB` and
/// `--calendar NAME`.
///
/// A name given (`OLD`, `NAME`) matches a calendar's name, else the folder
/// name of a vdir collection (`work` for the collection whose displayname
/// is `Work Calendar`), else either without regard to case: the first of
/// these that matches any calendar decides which calendars it names.
enum CalendarChoice {
    struct Naming {
        var renames: [(from: String, to: String)] = []
        var colors: [(name: String, color: String)] = []

        var isEmpty: Bool { renames.isEmpty && colors.isEmpty }
    }

    /// Renames, colours and chooses the calendars of `loaded`; returns the
    /// `--calendar` names that chose none (told with the calendars there are).
    static func apply(_ naming: Naming, asked: [String], to loaded: LoadedInputs) -> [String] {
        guard !naming.isEmpty || !asked.isEmpty else { return [] }
        let calendars = every(in: loaded)
        // Each OLD names the calendars as they were read: `--rename A=B --rename B=A` swaps them.
        let renamed = naming.renames.map { (matching($0.from, in: calendars), $0.to) }
        for (found, to) in renamed {
            for calendar in found { calendar.rename(to: to) }
        }
        for (name, color) in naming.colors {
            for calendar in matching(name, in: calendars) { calendar.setColor(color) }
        }
        guard !asked.isEmpty else { return [] }
        var chosen = Set<ObjectIdentifier>()
        var unknown: [String] = []
        for name in asked {
            let found = matching(name, in: calendars)
            if found.isEmpty { unknown.append(name) }
            for calendar in found { chosen.insert(ObjectIdentifier(calendar)) }
        }
        for calendar in calendars { calendar.choose(chosen.contains(ObjectIdentifier(calendar))) }
        return unknown
    }

    /// The calendars a name names: by name, else by folder name, else by either in any case.
    static func matching(_ name: String, in calendars: [CalendarInfo]) -> [CalendarInfo] {
        let byName = calendars.filter { $0.name == name }
        if !byName.isEmpty { return byName }
        let byFolder = calendars.filter { $0.folderName == name }
        if !byFolder.isEmpty { return byFolder }
        let lower = name.lowercased()
        return calendars.filter { $0.name.lowercased() == lower || $0.folderName?.lowercased() == lower }
    }

    /// Every calendar of the inputs, each once: the inputs' own and those
    /// their items name (`--format ics` keeps each item's calendar).
    static func every(in loaded: LoadedInputs) -> [CalendarInfo] {
        var seen = Set<ObjectIdentifier>()
        var calendars: [CalendarInfo] = []
        func add(_ calendar: CalendarInfo) {
            if seen.insert(ObjectIdentifier(calendar)).inserted { calendars.append(calendar) }
        }
        for input in loaded.calendars {
            add(input.calendar)
            var last: CalendarInfo? = nil
            for occurrence in input.occurrences where occurrence.calendar !== last {
                last = occurrence.calendar
                add(occurrence.calendar)
            }
        }
        return calendars
    }
}
