import AgendaCore
import ArgumentParser

/// What the user calls each calendar, and its colour: `--rename OLD=NEW`
/// and `--calendar-color NAME=#RRGGBB`, repeatable, usually in the
/// configuration (a subscription named `user@gmail.com` becomes `Family`).
struct NamingOptions: ParsableArguments {
    @Option(
        name: .customLong("rename"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp("Name the calendar OLD as NEW everywhere (selection, --show-calendar, JSON, calendars); " +
            "repeat for several.", valueName: "old=new"))
    var packedRenames: [String] = []

    @Option(
        name: .customLong("calendar-color"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp("The colour of calendar NAME, #RRGGBB, over the one the calendar gives; repeat for several.",
            valueName: "name=#rrggbb"))
    var packedColors: [String] = []

    /// `OLD=NEW` pairs in the order given.
    var renames: [(from: String, to: String)] {
        CommandLineInput.unpacked(packedRenames).compactMap(NamingOptions.pair)
    }

    /// `NAME=#rrggbb` pairs, the colour in lower case.
    var colors: [(name: String, color: String)] {
        CommandLineInput.unpacked(packedColors).compactMap(NamingOptions.pair).compactMap { pair in
            CalendarColor.normalized(pair.to).map { (pair.from, $0) }
        }
    }

    func validate() throws {
        for word in CommandLineInput.unpacked(packedRenames) where NamingOptions.pair(word) == nil {
            throw ValidationError("--rename \(PrintableText.escaped(word)): write OLD=NEW, both names not empty.")
        }
        for word in CommandLineInput.unpacked(packedColors) {
            guard let pair = NamingOptions.pair(word) else {
                throw ValidationError("--calendar-color \(PrintableText.escaped(word)): write NAME=#RRGGBB.")
            }
            if CalendarColor.normalized(pair.to) == nil {
                // The word whole, not its part after `=`: a word that holds an address is hidden whole.
                throw ValidationError("--calendar-color \(PrintableText.escaped(word)): the colour after = is " +
                    "not #RRGGBB.")
            }
        }
    }

    /// The naming asked for, for the loaded calendars (`CalendarChoice`).
    var naming: CalendarChoice.Naming { CalendarChoice.Naming(renames: renames, colors: colors) }

    /// `A=B` split at its last `=` (a calendar's name may hold one; a colour or a new name rarely does).
    static func pair(_ word: String) -> (from: String, to: String)? {
        guard let equals = word.lastIndex(of: "=") else { return nil }
        let from = String(word[..<equals]), to = String(word[word.index(after: equals)...])
        return from.isEmpty || to.isEmpty ? nil : (from, to)
    }
}
