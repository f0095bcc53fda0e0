import Foundation

/// `ics-agenda free`: the free time between the busy occurrences of every
/// calendar together, per day, within working hours.
///
/// Busy is `Occurrence.isBusy`: a timed event not `TRANSP:TRANSPARENT`, an
/// all-day one only when `TRANSP:OPAQUE`, never a cancelled one. The busy
/// spans are sorted and merged once; the days then take them in order.
package struct FreeTime: Sendable {
    /// `--hours 09:00-17:00`: wall-clock minutes since midnight, end up to 24:00.
    package struct Hours: Sendable, Equatable {
        package let start: Int
        package let end: Int

        package struct Invalid: Error, CustomStringConvertible {
            package let text: String
            package var description: String {
                "cannot read \"\(text)\" as hours (use HH:MM-HH:MM, such as 09:00-17:00)"
            }
        }

        /// `09:00-17:00`, `9-17`, `8:30-12:00`; the end after the start, 24:00 at most.
        package init(parsing text: String) throws {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let a = Hours.minutes(parts[0]), let b = Hours.minutes(parts[1]), a < b else {
                throw Invalid(text: text)
            }
            start = a
            end = b
        }

        static func minutes(_ text: Substring) -> Int? {
            let pieces = text.trimmingCharacters(in: .whitespaces)
                .split(separator: ":", omittingEmptySubsequences: false)
            guard (1...2).contains(pieces.count), pieces.allSatisfy({
                !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII)
            }),
                let h = Int(pieces[0]), let m = pieces.count == 2 ? Int(pieces[1]) : 0, (0...24).contains(h),
                    (0...59).contains(m),
                h * 60 + m <= 24 * 60
            else { return nil }
            return h * 60 + m
        }
    }

    /// `--weekdays mon-fri`: which days count (1 = Sunday ... 7 = Saturday).
    package struct Weekdays: Sendable, Equatable {
        package let days: Set<Int>

        package init(_ days: Set<Int>) {
            self.days = days
        }

        package struct Invalid: Error, CustomStringConvertible {
            package let text: String
            package var description: String {
                "cannot read \"\(text)\" as weekdays (use mon-fri, mon,wed,fri, sat-sun, or all)"
            }
        }

        static let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

        /// Names (`mon`, `monday`), ranges (`mon-fri`, `fri-mon` wraps), lists
        /// of both (`mon,wed-fri`), or `all`; case does not matter.
        package init(parsing text: String) throws {
            var days = Set<Int>()
            func day(_ word: Substring) -> Int? {
                let w = word.trimmingCharacters(in: .whitespaces).lowercased()
                guard w.count >= 2 else { return nil }
                let matches = Weekdays.names.indices.filter {
                    let full = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"][$0]
                    return full.hasPrefix(w)
                }
                return matches.count == 1 ? matches[0] + 1 : nil
            }
            if text.lowercased() == "all" {
                days = Set(1...7)
            } else {
                for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                    let ends = part.split(separator: "-", omittingEmptySubsequences: false)
                    guard (1...2).contains(ends.count), let first = day(ends[0]),
                        let last = day(ends[ends.count - 1]) else {
                        throw Invalid(text: text)
                    }
                    var d = first
                    while true {
                        days.insert(d)
                        if d == last { break }
                        d = d % 7 + 1
                    }
                }
            }
            guard !days.isEmpty else { throw Invalid(text: text) }
            self.days = days
        }
    }

    /// One free slot.
    package struct Slot: Sendable, Equatable {
        package let day: CivilDate
        package let start: Date
        package let end: Date
        package var minutes: Int { Int(end.timeIntervalSince(start) / 60) }
    }

    package let slots: [Slot]

    /// - Parameters:
    ///   - occurrences: every calendar's occurrences (those `selection` admits count).
    ///   - window: the days looked at.
    ///   - minimum: the shortest slot kept, in seconds.
    package init(
        occurrences: [[Occurrence]], selection: Selection, window: AgendaWindow, hours: Hours, weekdays: Weekdays,
            minimum: Int
    ) {
        let clock = window.clock
        var busy: [(start: Date, end: Date)] = []
        var textMatches: [ObjectIdentifier: Bool] = [:]
        for part in occurrences {
            for o in part where o.isBusy && selection.admits(o) {
                if let matcher = selection.text {
                    let matched = textMatches[o.itemIdentity] ?? matcher.matches(o)
                    textMatches[o.itemIdentity] = matched
                    if !matched { continue }
                }
                guard let (s, e) = o.span(in: clock) else { continue }
                if e > s && s < window.end && e > window.start { busy.append((s, e)) }
            }
        }
        busy.sort { $0.start < $1.start }
        var merged: [(start: Date, end: Date)] = []
        for span in busy {
            if let last = merged.last, span.start <= last.end {
                merged[merged.count - 1].end = max(last.end, span.end)
            } else {
                merged.append(span)
            }
        }
        var slots: [Slot] = []
        var next = 0  // the first merged span that may still reach the day
        var day = window.firstDay
        while day < window.endDay {
            defer { day = day.adding(days: 1) }
            guard weekdays.days.contains(day.weekday) else { continue }
            let dayStart = FreeTime.firstInstant(atOrAfter: day.midnightUTC + TimeInterval(hours.start * 60),
                clock: clock)
            let dayEnd = FreeTime.firstInstant(atOrAfter: day.midnightUTC + TimeInterval(hours.end * 60), clock: clock)
            guard dayEnd > dayStart else { continue }
            while next < merged.count && merged[next].end <= dayStart { next += 1 }
            var free = dayStart
            var i = next
            while i < merged.count && merged[i].start < dayEnd {
                if merged[i].start > free, merged[i].start.timeIntervalSince(free) >= TimeInterval(max(minimum, 1)) {
                    slots.append(Slot(day: day, start: free, end: merged[i].start))
                }
                free = max(free, merged[i].end)
                i += 1
            }
            if dayEnd > free && dayEnd.timeIntervalSince(free) >= TimeInterval(max(minimum, 1)) {
                slots.append(Slot(day: day, start: free, end: dayEnd))
            }
        }
        self.slots = slots
    }

    /// The first instant at which the wall clock reads `wall` or later: the
    /// instant itself, or, for a reading a DST change skips, the change (so
    /// that hours from 02:30 on a day that jumps from 02:00 to 03:00 begin at
    /// 03:00: the day is cut to the hours that exist).
    static func firstInstant(atOrAfter wall: Date, clock: ZoneClock) -> Date {
        let guess = clock.instant(forWallClock: wall)
        if clock.wallClock(of: guess) == wall { return guess }
        let after = clock.offset(at: wall + 86400)
        return clock.zone.nextDaylightSavingTimeTransition(after: wall - TimeInterval(after)) ?? guess
    }
}
