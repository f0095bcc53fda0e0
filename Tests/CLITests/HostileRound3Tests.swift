import Foundation
import Testing

/// Hostile input, round 3: inputs whose cost grew with the square of their
/// size, patterns that never ended, warnings told once per value. Growth is
/// checked as a ratio (the input doubled, the time must not quadruple),
/// never as a time: speed is `make bench`'s to measure.
@Suite struct HostileRound3Tests {
    static let fixed = ["--no-config", "--now", "2026-11-26T08:00:00Z", "--tz", "UTC", "--locale", "en_US"]

    static func calendar(_ body: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//hostile 3//EN\r\n" + body + "END:VCALENDAR\r\n"
    }

    static func event(_ uid: String, start: String = "20261201T100000Z", summary: String = "Talk",
        _ extra: String = "") -> String {
        "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:\(start)\r\nDURATION:PT1H\r\nSUMMARY:\(summary)\r\n\(extra)END:VEVENT\r\n"
    }

    /// Writes `text` to a new file and gives its path.
    static func file(_ text: String, _ name: String = "input.ics") throws -> String {
        let dir = try HostileCLITests.temporaryDirectory()
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The least of three runs' CPU time (user and system), in seconds: the
    /// shell's `times` after the run tells its child's. Unlike wall time it
    /// does not grow when other tests or programs hold the cores.
    static func seconds(_ arguments: [String]) throws -> (Double, CLI.Result) {
        var best = Double.infinity
        var last: CLI.Result? = nil
        for _ in 0..<3 {
            let run = try CLI.run(["-c", #""$@"; s=$?; times >&2; exit $s"#, "sh", CLI.binary.path] + arguments,
                executable: URL(fileURLWithPath: "/bin/sh"))
            var lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            // Two lines: the shell's times, then its children's ("0m1.230000s 0m0.050000s").
            let children = lines.popLast() ?? ""
            _ = lines.popLast()
            let cpu = children.split(separator: " ").reduce(0.0) { total, field in
                let parts = field.dropLast().split(separator: "m")
                return total + (parts.count == 2 ? (Double(parts[0]) ?? 0) * 60 + (Double(parts[1]) ?? 0) : 0)
            }
            best = min(best, cpu)
            last = CLI.Result(stdout: run.stdout, stderr: lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n",
                status: run.status)
        }
        return (best, last!)
    }

    /// Runs the input made for `n` and for `2n`: the second must take less
    /// CPU time than 3.5 times the first (four is what a square would make;
    /// n log n and a busy machine's caches come near three). The ratio is
    /// taken by `make check-all` (`FullChecks`), with the debug binary, whose
    /// CPU times are large enough to tell a square from noise; `make test`
    /// runs the input once and checks what it printed.
    func growsLinearly(_ n: Int, _ arguments: (Int) throws -> [String], check: (CLI.Result) -> Void = { _ in }) throws {
        guard FullChecks.enabled else {
            check(try CLI.run(arguments(n)))
            return
        }
        let (small, first) = try HostileRound3Tests.seconds(arguments(n))
        let (large, second) = try HostileRound3Tests.seconds(arguments(2 * n))
        check(first)
        check(second)
        // Up to a second either way is noise (process start, the machine's
        // load, other tests running beside): a square's growth is not.
        #expect(large < max(3.5 * small, small + 1.0), "n=\(n): \(small) s, 2n: \(large) s")
    }

    // MARK: quadratic inputs

    @Test(arguments: ["distinct titles", "distinct starts", "rising SEQUENCE"])
    func oneOffsSharingOneUIDAreReadInLinearTime(_ shape: String) throws {
        try growsLinearly(10_000) { n in
            let body = (0..<n).map { i -> String in
                let start = String(format: "202612%02dT%02d%02d00Z", 1 + i % 28, i % 24, i % 60)
                switch shape {
                // Apart in time: 10,000 talks at one hour would test the overlap marks instead.
                case "distinct titles": return HostileRound3Tests.event("same", start: start, summary: "Talk \(i)")
                case "distinct starts": return HostileRound3Tests.event("same", start: start)
                default: return HostileRound3Tests.event("same", start: start, "SEQUENCE:\(i)\r\n")
                }
            }.joined()
            return HostileRound3Tests.fixed + [try HostileRound3Tests.file(HostileRound3Tests.calendar(body))]
        } check: { result in
            #expect(result.status == 0)
        }
    }

    /// Thousands of events with distinct titles overlapping on one day: each
    /// row's mark names three and counts the rest, in time that does not
    /// grow with how many it overlaps (50,000 at one hour took 15 s).
    @Test(arguments: ["one hour", "a staircase", "nested"])
    func overlappingEventsInTextAreMarkedInLinearTime(_ shape: String) throws {
        try growsLinearly(10_000) { n in
            let body = (0..<n).map { i -> String in
                let minute = shape == "one hour" ? 0 : i % 600
                let length = shape == "nested" ? 2 * (n - i) % 900 + 1 : 60
                let start = String(format: "20261201T%02d%02d00Z", 6 + minute / 60, minute % 60)
                return HostileRound3Tests.event("o\(i)", start: start, summary: "Talk \(i)")
                    .replacingOccurrences(of: "DURATION:PT1H", with: "DURATION:PT\(length)M")
            }.joined()
            return HostileRound3Tests.fixed + ["--days", "10",
                try HostileRound3Tests.file(HostileRound3Tests.calendar(body))]
        } check: { result in
            #expect(result.status == 0)
            #expect(result.stdout.contains(" more)"))
        }
    }

    /// Thousands of mutually overlapping events in JSON: each line lists
    /// the first 10 UIDs and counts the rest, so the output grows with the
    /// rows (32,000 made 1.1 GB before the cap), and the time with them too,
    /// for events of one day and events over two (30 h: 31 s for 32,000).
    @Test(arguments: ["PT6H", "PT30H"])
    func overlappingEventsInJSONAreListedInLinearTime(_ duration: String) throws {
        try growsLinearly(8_000) { n in
            let body = (0..<n).map { i -> String in
                HostileRound3Tests.event("m\(i)", start: String(format: "20261201T%02d%02d00Z", 8 + i % 5, i % 60),
                    summary: "M \(i)")
                    .replacingOccurrences(of: "DURATION:PT1H", with: "DURATION:\(duration)")
            }.joined()
            return HostileRound3Tests.fixed + ["--format", "json",
                try HostileRound3Tests.file(HostileRound3Tests.calendar(body))]
        } check: { result in
            #expect(result.status == 0)
            let first = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.contains(",\"overlap_count\":"))
            let list = first.firstMatch(of: /"overlaps":\[([^\]]*)\]/)?.1 ?? ""
            #expect(list.split(separator: ",").count == 10)
        }
    }

    /// A week or month section of many rows: each day's first row is named
    /// in one pass over the section (each row looked for its day's first
    /// row from the section's start: 60,000 rows in one week took 5 times
    /// as long as in day sections). The same rows cost about the same in
    /// one section as in six.
    @Test(arguments: ["week", "month"])
    func longSectionsNameTheirDaysInLinearTime(_ grouping: String) throws {
        // Events spread over six days of one week and month, each at its own minute of the day.
        let body = (0..<40_000).map { i -> String in
            HostileRound3Tests.event("d\(i)", start: String(format: "202612%02dT%02d%02d00Z", 1 + i % 6, i / 60 % 24,
                i % 60), summary: "D")
                .replacingOccurrences(of: "DURATION:PT1H", with: "DURATION:PT0S")
        }.joined()
        let file = try HostileRound3Tests.file(HostileRound3Tests.calendar(body))
        guard FullChecks.enabled else {  // the time ratio: make check-all
            let result = try CLI.run(HostileRound3Tests.fixed + ["--group-by", grouping, file])
            #expect(result.status == 0)
            #expect(result.stdout.contains("Tue 1  "))
            return
        }
        let (days, _) = try HostileRound3Tests.seconds(HostileRound3Tests.fixed + [file])
        let (long, result) = try HostileRound3Tests.seconds(HostileRound3Tests.fixed + ["--group-by", grouping, file])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Tue 1  "))
        #expect(long < 2 * days + 1.0, "by day: \(days) s, by \(grouping): \(long) s")
    }

    /// libical removes each property it cannot read by searching its
    /// component's list: read in parts, one event with a hundred thousand such lines is linear.
    @Test(arguments: ["ATTENDEE:\r\n", "ATTENDEE;CN=Ann:\r\n", "GEO:x\r\n", "DTSTAMP:yesterday\r\n",
        "X-COUNT;VALUE=INTEGER:many\r\n"])
    func unreadableLinesInOneComponentAreReadInLinearTime(_ line: String) throws {
        try growsLinearly(40_000) { n in
            let body = HostileRound3Tests.event("e", "LOCATION:Room 1\r\n" + String(repeating: line, count: n)
                + "DESCRIPTION:kept\r\n")
            return HostileRound3Tests.fixed + ["--format", "json",
                try HostileRound3Tests.file(HostileRound3Tests.calendar(body))]
        } check: { result in
            // Nothing beside the damage is lost: the properties before and after it are read.
            #expect(result.stdout.contains("\"location\":\"Room 1\""))
            #expect(result.stdout.contains("\"description\":\"kept\""))
        }
    }

    @Test(arguments: ["--calendar", "--grep", "input"])
    func longCommandLinesAreReadInLinearTime(_ repeated: String) throws {
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(HostileRound3Tests.event("e")))
        try growsLinearly(5_000) { n in
            let words: [String] =
                switch repeated {
                case "input": Array(repeating: path, count: n)
                default: (0..<n).flatMap { [repeated, "word\($0)"] } + [repeated, "Talk|input"]
                }
            return HostileRound3Tests.fixed + words + (repeated == "input" ? [] : [path])
        } check: { result in
            #expect(result.status == 0)
            // The last --grep is the one that counts; --calendar keeps every name.
            if repeated == "--calendar" { #expect(result.stderr.contains("and ")) } else { #expect(result.stdout.contains("Talk")) }
        }
    }

    @Test func aLongCommandLineMeansWhatItsShortFormMeans() throws {
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(
            HostileRound3Tests.event("a", summary: "Alpha") + HostileRound3Tests.event("b", summary: "Beta")))
        let padding = Array(repeating: "--no-config", count: 40)
        for options in [
            ["--grep", "zzz", "--grep", "alp"], ["--days", "1", "--days=400"],
                ["--calendar", "nope", "--calendar=input"],
            ["--template", "", "--days", "400"],
            ["--from", "-1d", "--days", "400"], ["--grep", "", "--calendar", "input"], ["--calendar", ""],
            // ArgumentParser judges every value of a repeated option, not just the last.
            ["--days", "abc", "--days", "5"], ["--days", "5", "--days", "abc", "--days", "5"], ["--format", "-x"],
            ["--format", "-x", "--format", "json"], ["--days=", "5"], ["--grep", "", "--grep", "alp", "--grep", ""],
        ] {
            let short = try CLI.run(HostileRound3Tests.fixed + options + [path])
            let long = try CLI.run(HostileRound3Tests.fixed + padding + options + [path])
            #expect(long.status == short.status, "\(options)")
            #expect(long.stdout == short.stdout, "\(options)")
            #expect(long.stderr == short.stderr, "\(options)")
        }
        // Errors after the input: an option without its value, an unknown one.
        for ending in [["--days"], ["--days="], ["-", "--days"], ["--bogus"], ["--format", "nope"]] {
            let short = try CLI.run(HostileRound3Tests.fixed + [path] + ending)
            let long = try CLI.run(HostileRound3Tests.fixed + padding + [path] + ending)
            #expect(long.status == short.status && short.status == 64, "\(ending)")
            #expect(long.stderr == short.stderr, "\(ending)")
        }
    }

    @Test func aLongHelpLineMeansWhatItsShortFormMeans() throws {
        let words = (0..<5_000).map { "word\($0 % 7)" }
        for (short, long) in [
            (["help", "next"], ["help", "next"] + words), (["help", "x", "next"], ["help", "x", "next"] + words),
            (["help", "next", "--bogus"], ["help", "next"] + words + ["--bogus"] + words),
        ] {
            let expected = try CLI.run(short), got = try CLI.run(long)
            #expect(got.status == expected.status, "\(short)")
            #expect(got.stdout == expected.stdout, "\(short)")
            #expect(got.stderr == expected.stderr, "\(short)")
        }
    }

    /// A value ArgumentParser refuses (`--format -x`), repeated, or a long
    /// line that ends in an error: refused at once (the error's wording
    /// parsed the unpacked line again).
    @Test(arguments: ["refused pair", "missing value", "missing value after stdin", "empty value", "unknown option"])
    func aLongLineThatIsRefusedIsRefusedInLinearTime(_ shape: String) throws {
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(HostileRound3Tests.event("e")))
        try growsLinearly(5_000) { n in
            switch shape {
            case "refused pair": HostileRound3Tests.fixed + (0..<n).flatMap { _ in ["--format", "-x"] } + [path]
            case "missing value": HostileRound3Tests.fixed + Array(repeating: "--no-config", count: n)
                + [path, "--days"]
            case "missing value after stdin": HostileRound3Tests.fixed + Array(repeating: "--no-config", count: n)
                + ["-", "--days"]
            case "empty value": HostileRound3Tests.fixed + Array(repeating: "--no-config", count: n) + [path, "--days="]
            default: HostileRound3Tests.fixed + Array(repeating: "--no-config", count: n) + ["--bogus", path]
            }
        } check: { result in
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("ics-agenda: Missing value for '--")
                || result.stderr.hasPrefix("ics-agenda: Unknown option '--bogus'"))
        }
    }

    /// Control characters after a BEGIN or END keyword were looked at again
    /// from each of their places: 80,000 NUL bytes took 9 s.
    @Test(arguments: ["BEGIN:VEVENT", "END:VEVENT", "BEGIN:VEVENT\u{7F}E"])
    func controlCharactersOnAKeywordLineAreReadInLinearTime(_ keyword: String) throws {
        try growsLinearly(40_000) { n in
            let line = keyword + String(repeating: keyword.hasSuffix("E") ? "\u{0}E" : "\u{0}", count: n)
            let text = HostileRound3Tests.calendar(HostileRound3Tests.event("a") + line + "\r\n"
                + HostileRound3Tests.event("b", summary: "After"))
            return HostileRound3Tests.fixed + [try HostileRound3Tests.file(text)]
        } check: { result in
            #expect(result.stdout.contains("After"))
        }
    }

    // MARK: patterns that never end

    /// Nested quantifiers on a long title and `.*` over a 64 KB description
    /// took a backtracking engine minutes; RE2 matches in linear time.
    @Test(arguments: ["(a+)+$", "(a|aa)+$", "^(\\w+\\s?)*$", "(.*a){20}!", ".*.*.*=.*"])
    func aCostlyPatternEndsAtOnce(_ pattern: String) throws {
        let title = String(repeating: "a", count: 5_000) + "!"
        let description = String(repeating: "x", count: 65_536)
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(
            HostileRound3Tests.event("r", summary: title, "RRULE:FREQ=DAILY\r\nDESCRIPTION:\(description)\r\n")))
        try growsLinearly(30) { days in HostileRound3Tests.fixed + ["--grep", pattern, "--days", "\(days)",
            path] } check: { result in
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
            // The fourth matches the title ("a" 20 times, then "!"), the third the description
            // (64 KB of "x"): every day of the window is listed; the others match nothing.
            let matches = pattern == "(.*a){20}!" || pattern == "^(\\w+\\s?)*$"
            #expect(result.stdout.isEmpty != matches, "\(pattern)")
        }
    }

    @Test(arguments: ["a(?=b)", "(a)\\1", "(unclosed", "a{5000}", ".{1000}Z"])
    func aPatternRE2CannotMatchIsAUsageErrorThatSaysWhy(_ pattern: String) throws {
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(HostileRound3Tests.event("e")))
        let result = try CLI.run(HostileRound3Tests.fixed + ["--grep", pattern, path])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("ics-agenda: --grep: \"\(pattern)\" is not a valid regular expression ("))
    }

    /// RE2's time per byte grows with the pattern's program when its DFA
    /// gives up: a program past 1,000 instructions is refused, saying so.
    @Test func aPatternTooLargeToMatchFastSaysSo() throws {
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(HostileRound3Tests.event("e")))
        let refused = try CLI.run(HostileRound3Tests.fixed + ["--grep", "a.{200}Z", path])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("too large: it compiles to ")
            && refused.stderr.contains("instructions, at most 1000 are matched"))
        let taken = try CLI.run(HostileRound3Tests.fixed + ["--grep", "a.{100}Z|talk|standup|review|planning", path])
        #expect(taken.status == 0)
    }

    /// One field is matched on its first megabyte: a match cannot be
    /// stopped once begun, and this bounds its time.
    @Test func aDescriptionIsMatchedOnItsFirstMegabyte() throws {
        let far = String(repeating: "a ", count: 600_000) + "needle"
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(
            HostileRound3Tests.event("far", summary: "Far", "DESCRIPTION:\(far)\r\n")
                + HostileRound3Tests.event("near", start: "20261202T100000Z", summary: "Near",
                    "DESCRIPTION:a needle\r\n")))
        let result = try CLI.run(HostileRound3Tests.fixed + ["--grep", "needle", path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Near") && !result.stdout.contains("Far"))
    }

    /// Smart case counts only the letters a pattern matches: `\S`, `\D` or a
    /// group's name do not make it match case.
    @Test(arguments: [("\\s(?P<Word>talk)", true), ("\\Dtalk", true), ("\\p{Lu}ALK", true), ("\\x{41}talk", false),
        ("\\Qbig\\E talk", true), ("\\QBig\\E talk", false), ("Big talk", false)])
    func smartCaseCountsOnlyTheLettersMatched(_ pattern: String, _ matches: Bool) throws {
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(HostileRound3Tests.event("e",
            summary: "Big TALK")))
        let result = try CLI.run(HostileRound3Tests.fixed + ["--grep", pattern, path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Big TALK") == matches, "\(pattern)")
    }

    // MARK: memory

    /// One component of more lines than any real one holds (a million
    /// `ATTENDEE` lines took 1.2 GB): past 100,000 only what says what and
    /// when is read; the event and the one after it are listed.
    @Test func aComponentOfTooManyLinesKeepsWhatSaysWhatAndWhen() throws {
        let lines = String(repeating: "ATTENDEE;PARTSTAT=ACCEPTED:mailto:a@example.com\r\n", count: 120_000)
        let event = "BEGIN:VEVENT\r\nUID:big\r\nDTSTAMP:20260101T000000Z\r\n\(lines)DTSTART:20261201T100000Z\r\nSUMMARY:Big\r\nEND:VEVENT\r\n"
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(event
            + HostileRound3Tests.event("b", summary: "After")))
        let result = try CLI.run(HostileRound3Tests.fixed + [path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Big") && result.stdout.contains("After"))
        #expect(result.stderr == "ics-agenda: warning: \(path):100005: VEVENT: more than 100000 lines; from here on only the lines that say what and when are read, the others left out (20002 lines)\n")
        // Lines that say what and when, one name repeated, do not push out the others.
        let exdates = String(repeating: "EXDATE:20300101T000000Z\r\n", count: 120_000)
        let repeated = "BEGIN:VEVENT\r\nUID:ex\r\nDTSTAMP:20260101T000000Z\r\n\(exdates)DTSTART:20261201T100000Z\r\nSUMMARY:Still here\r\nEND:VEVENT\r\n"
        let second = try CLI.run(HostileRound3Tests.fixed
            + [try HostileRound3Tests.file(HostileRound3Tests.calendar(repeated))])
        #expect(second.stdout.contains("Still here"))
        #expect(!second.stderr.contains("no DTSTART"))
    }

    @Test func anEventWithTooManyAlarmsKeepsTheFirstTenThousand() throws {
        let alarm = "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nDESCRIPTION:x\r\nEND:VALARM\r\n"
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(
            HostileRound3Tests.event("a", String(repeating: alarm, count: 10_001))
                + HostileRound3Tests.event("b", summary: "After")))
        let result = try CLI.run(HostileRound3Tests.fixed + [path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Talk") && result.stdout.contains("After"))
        #expect(result.stderr.contains("VEVENT: more than 10000 components inside it (BEGIN:VALARM); this one and the ones after it are left out"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    // MARK: files that change, streams that do not block

    /// A file cut short while it is read (a sync tool rewriting it while
    /// cron runs) killed the run with SIGBUS: it is read as far as it can be.
    @Test func aFileCutWhileItIsReadIsReadAsFarAsItCanBe() throws {
        let body = (0..<150_000).map { HostileRound3Tests.event("e\($0)",
            start: String(format: "2026%02d%02dT%02d0000Z", 1 + $0 % 12, 1 + $0 % 28, $0 % 24),
            summary: "Event \($0) " + String(repeating: "x", count: 80)) }
        let text = HostileRound3Tests.calendar(body.joined())
        // The cut must fall while the file is read: on a busy machine the run
        // may start late, so up to three tries, each a clean run.
        var cutWhileRead = false
        for attempt in 0..<3 where !cutWhileRead {
            let path = try HostileRound3Tests.file(text, "input\(attempt).ics")
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = HostileRound3Tests.fixed + ["--format", "json", path]
            process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC",
                "ICS_AGENDA_CONFIG": "/dev/null"]
            let cut = DispatchQueue(label: "cut")
            cut.asyncAfter(deadline: .now() + 0.25 * Double(attempt + 1)) { truncate(path, 200_000) }
            let result = try CLI.collect(process)
            #expect(process.terminationReason == .exit, "ended by signal \(process.terminationStatus)")
            #expect(result.status == 0)
            cutWhileRead = result.stderr.hasPrefix("ics-agenda: warning: \(path): the file was cut from ")
                && result.stderr.contains(" bytes while it was read; read as far as it could be")
            // Past the cut the text read as zeros: no NUL bytes, no endless component, no count of what lay there.
            #expect(!result.stderr.contains("NUL bytes") && !result.stderr.contains("larger than")
                && !result.stderr.contains("times in this file"),
                "\(result.stderr.prefix(600))")
        }
        #expect(cutWhileRead, "no try cut the file while it was read")
    }

    /// A SIGBUS another process sends while a file is read ends the run by it,
    /// as every such signal does: the guard that mends a cut file passed it on, unsent.
    ///
    /// Built with AddressSanitizer (make test-asan), the binary would have
    /// ASan's own SIGBUS handler as the one before the guard's, which reports
    /// the signal and exits 1: handle_sigbus=0 leaves the signal its default
    /// action, as in a normal build (the last value of a repeated option wins;
    /// a binary built without ASan reads no ASAN_OPTIONS).
    @Test func aSentSigbusWhileAFileIsReadEndsTheRun() throws {
        let body = (0..<150_000).map { HostileRound3Tests.event("e\($0)",
            start: String(format: "2026%02d%02dT%02d0000Z", 1 + $0 % 12, 1 + $0 % 28, $0 % 24)) }
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(body.joined()))
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = HostileRound3Tests.fixed + ["--format", "json", path]
        let inherited = ProcessInfo.processInfo.environment
        let asanOptions = (inherited["ASAN_OPTIONS"].map { $0.isEmpty ? "" : $0 + ":" } ?? "") + "handle_sigbus=0"
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC",
            "ICS_AGENDA_CONFIG": "/dev/null", "ASAN_OPTIONS": asanOptions]
            .merging(inherited.filter { $0.key == "LSAN_OPTIONS" }) { $1 }
        // Never pid 0 (the test's own process group), were the run not started yet.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
            if process.processIdentifier > 0 { kill(process.processIdentifier, SIGBUS) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        let result = try CLI.collect(process)
        // Ended by the signal, unless the run had already ended by itself (a fast machine).
        #expect(process.terminationReason == .uncaughtSignal
            ? process.terminationStatus == SIGBUS : process.terminationStatus == 0,
            "\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus): \(result.stderr.prefix(800))")
    }

    /// A parent may leave a shared pipe non-blocking (O_NONBLOCK): reads and
    /// writes wait for it, as they would on a blocking one, instead of failing.
    @Test func nonBlockingStreamsAreWaitedFor() throws {
        let body = (0..<3_000).map { HostileRound3Tests.event("e\($0)",
            start: String(format: "2027%02d%02dT%02d0000Z", 1 + $0 % 10, 1 + $0 % 28, $0 % 24)) }
        let text = Data(HostileRound3Tests.calendar(body.joined()).utf8)
        let input = Pipe(), output = Pipe()
        for fd in [input.fileHandleForReading.fileDescriptor, output.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = HostileRound3Tests.fixed + ["--format", "json", "-"]
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC",
            "ICS_AGENDA_CONFIG": "/dev/null"]
        process.standardInput = input
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Standard input comes late, and standard output is read late: both would fail at once.
        Thread.sleep(forTimeInterval: 0.3)
        // A run that failed at once has closed its end: that is told below, not by a signal here.
        signal(SIGPIPE, SIG_IGN)
        try? input.fileHandleForWriting.write(contentsOf: text)
        try? input.fileHandleForWriting.close()
        Thread.sleep(forTimeInterval: 0.5)
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stderr == "")
        #expect(printed.count > 200_000)
        #expect(String(decoding: printed, as: UTF8.self).split(separator: "\n").count == 3_000)
    }

    /// A calendar below a path longer than PATH_MAX (4096 bytes) was
    /// skipped without a word: it is read like any other.
    @Test func aCalendarBelowAPathLongerThanPathMaxIsRead() throws {
        let top = try HostileCLITests.temporaryDirectory()
        var fd = open(top.path, O_RDONLY | O_DIRECTORY)
        #expect(fd >= 0)
        let name = String(repeating: "f", count: 200)
        for _ in 0..<25 {
            #expect(mkdirat(fd, name, 0o755) == 0)
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
        }
        let text = Array(HostileRound3Tests.calendar(HostileRound3Tests.event("deep", summary: "Deep down")).utf8)
        let file = openat(fd, "deep.ics", O_WRONLY | O_CREAT, 0o644)
        #expect(write(file, text, text.count) == text.count)
        close(file)
        close(fd)
        for arguments in [[top.path], ["--format", "json", top.path]] {
            let result = try CLI.run(HostileRound3Tests.fixed + arguments)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(result.stdout.contains("Deep down"))
        }
        let calendars = try CLI.run(["calendars", "--no-config", "--format", "json", top.path])
        #expect(calendars.stdout.contains("\"events\":1"), "\(calendars.stdout.prefix(200))")
    }

    /// Each folder level was a call of the walk: 15,000 levels ran out of
    /// stack. Past 1,000 a folder is told once and not read; the rest is.
    @Test func aTreeTooDeepToWalkIsToldNotACrash() throws {
        let top = try HostileCLITests.temporaryDirectory()
        let text = HostileRound3Tests.calendar(HostileRound3Tests.event("top", summary: "At the top"))
        try text.write(to: top.appendingPathComponent("top.ics"), atomically: true, encoding: .utf8)
        var fd = open(top.path, O_RDONLY | O_DIRECTORY)
        for _ in 0..<1_005 {
            mkdirat(fd, "d", 0o755)
            let next = openat(fd, "d", O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
        }
        let bytes = Array(HostileRound3Tests.calendar(HostileRound3Tests.event("deep", summary: "Too deep")).utf8)
        let file = openat(fd, "deep.ics", O_WRONLY | O_CREAT, 0o644)
        _ = write(file, bytes, bytes.count)
        close(file)
        close(fd)
        let result = try CLI.run(HostileRound3Tests.fixed + [top.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("At the top") && !result.stdout.contains("Too deep"))
        #expect(result.stderr.contains(": more than 1000 folders deep below the folder named; not read"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    /// A pattern whose DFA RE2 cannot build falls back to a matcher whose
    /// time per byte grows with the pattern: past 5 s of matching the run
    /// ends, saying so (20 MB took 51 s).
    @Test func aPatternTooSlowForTheInputEndsTheRunSayingSo() throws {
        var state: UInt64 = 1
        let events = (0..<320).map { i -> String in
            let description = String((0..<65_000).map { _ -> Character in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return state >> 63 == 0 ? "a" : "b"
            })
            return HostileRound3Tests.event("r\(i)", "DESCRIPTION:\(description)\r\n")
        }
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(events.joined()))
        let result = try CLI.run(HostileRound3Tests.fixed + ["--grep", "a[ab]{30}c", path])
        #expect(result.status == 64)
        #expect(result.stderr == "ics-agenda: --grep: \"a[ab]{30}c\" takes too long to match over this input (more than 5 s: RE2 could not build its fast matcher for it); make the pattern simpler\n")
        #expect(result.stdout.isEmpty)
    }

    /// A line with no colon is no content line: it may be any property,
    /// mangled, so it is told by default, not only with -v.
    @Test func aLineThatIsNoContentLineIsToldByDefault() throws {
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(HostileRound3Tests.event("e",
            "BAD LINE\r\n")))
        let plain = try CLI.run(HostileRound3Tests.fixed + [path])
        #expect(plain.status == 0)
        #expect(plain.stderr.contains("line \"BAD LINE\" has no \":\""), "\(plain.stderr)")
        let strict = try CLI.run(HostileRound3Tests.fixed + ["--strict", path])
        #expect(strict.status == 65)
        #expect(strict.stderr.contains("1 problem in the input (--strict)"))
    }

    // MARK: one line per kind of warning

    @Test func manyUnknownZonesAreOneLine() throws {
        let body = (0..<300).map { HostileRound3Tests.event("u\($0)", "")
            .replacingOccurrences(of: "DTSTART:20261201T100000Z",
            with: "DTSTART;TZID=Nowhere/Zone\($0):20261201T100000") }
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(body.joined()))
        let result = try CLI.run(HostileRound3Tests.fixed + [path])
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasSuffix("DTSTART: unknown time zone \"Nowhere/Zone0\"; read as floating time (300 times in this file; --verbose lists each)") == true)
        #expect(try CLI.run(HostileRound3Tests.fixed + ["--verbose", path]).stderr.split(separator: "\n").count == 300)
    }

    @Test func manyOrphanOverridesWithTheirOwnRulesAreOneLine() throws {
        let body = (0..<300).map { HostileRound3Tests.event("o\($0)",
            "RECURRENCE-ID:20261201T100000Z\r\nRRULE:FREQ=DAILY;COUNT=2\r\n") }
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(body.joined()))
        let result = try CLI.run(HostileRound3Tests.fixed + [path])
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("(300 times in this file; --verbose lists each)"))
    }

    @Test func warningsPastTheLimitAreCountedInEveryMode() throws {
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(HostileRound3Tests.event("e",
            String(repeating: "RDATE:soon\r\n", count: 10_050))))
        let summary = try CLI.run(HostileRound3Tests.fixed + [path]).stderr
        #expect(summary.split(separator: "\n").count == 1)
        #expect(summary.contains("(10050 times in this file; --verbose lists each)"), "\(summary)")
        let verbose = try CLI.run(HostileRound3Tests.fixed + ["--verbose", path]).stderr
        #expect(verbose.split(separator: "\n").count == 10_001)
        #expect(verbose.contains("\(path): 50 more places of the warning above not listed (at most 10000 warnings a file are kept)"))
        let strict = try CLI.run(HostileRound3Tests.fixed + ["--strict", path])
        #expect(strict.status == 65
            && strict.stderr.hasSuffix("ics-agenda: 10050 problems in the input (--strict); no agenda printed\n"))
    }

    /// Past the 10,000 warnings a file keeps, a kind already told is still
    /// counted on its one line, and a new kind still told.
    @Test func warningsPastTheLimitAreCountedByKind() throws {
        let zones = (0..<10_500).map { HostileRound3Tests.event("u\($0)", "")
            .replacingOccurrences(of: "DTSTART:20261201T100000Z",
            with: "DTSTART;TZID=Nowhere/Zone\($0):20261201T100000") }
        let late = HostileRound3Tests.event("late", "RECURRENCE-ID:20261201T100000Z\r\nRRULE:FREQ=DAILY;COUNT=2\r\n")
        let path = try HostileRound3Tests.file(HostileRound3Tests.calendar(zones.joined() + late))
        let lines = try CLI.run(HostileRound3Tests.fixed + [path]).stderr.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasSuffix("(10500 times in this file; --verbose lists each)") == true)
        #expect(lines.last?.contains("its own recurrence set is listed") == true)
        let every = try CLI.run(HostileRound3Tests.fixed + ["--verbose", path]).stderr.split(separator: "\n")
        #expect(every.count == 10_002)
        // --strict counts every place, not the warnings kept.
        #expect(try CLI.run(HostileRound3Tests.fixed + ["--strict", path])
            .stderr.hasSuffix("ics-agenda: 10501 problems in the input (--strict); no agenda printed\n"))
        #expect(every.contains("ics-agenda: warning: \(path): 500 more places of the warning above not listed (at most 10000 warnings a file are kept)"))
    }
}
