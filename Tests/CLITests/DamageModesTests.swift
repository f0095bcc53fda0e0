import Foundation
import Testing

/// One judgement of damage in every mode (CONTRACT.md, Warnings): what the
/// default tells once a kind, `--verbose` tells at each place, `--strict`
/// fails on exactly that, and `--quiet` tells nothing and changes nothing
/// else; a file none of them tells anything about passes `--strict`.
@Suite struct DamageModesTests {
    static let fixed = ["--no-config", "--now", "2025-03-01T08:00:00+01:00", "--tz", "Europe/Berlin", "--locale",
        "en_US"]

    struct Modes {
        let summary, verbose, strict, quiet: CLI.Result
    }

    static func modes(_ path: String) throws -> Modes {
        Modes(summary: try CLI.run(fixed + [path]), verbose: try CLI.run(fixed + ["-v", path]),
            strict: try CLI.run(fixed + ["--strict", path]), quiet: try CLI.run(fixed + ["-q", path]))
    }

    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    /// A summary line less its count: the first place of its kind, as `-v` words it.
    static func firstPlace(_ line: String) -> String {
        guard let range = line.range(of: #" \(\d+ times in this file; --verbose lists each\)$"#, options: .regularExpression) else { return line }
        return String(line[..<range.lowerBound])
    }

    /// The fixtures of Fixtures/damage.tsv: each shows its kind of damage.
    static let damaged: [String] = {
        let text = (try? String(contentsOf: CLI.root.appendingPathComponent("Fixtures/damage.tsv"), encoding: .utf8))
            ?? ""
        let paths = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line -> String? in
            let fields = line.split(separator: "\t").map(String.init)
            return fields.count > 1 && fields[1].hasPrefix("Fixtures/") ? fields[1] : nil
        }
        return Array(Set(paths)).sorted()
    }()

    @Test(arguments: damaged) func damageIsJudgedAlikeInEveryMode(_ path: String) throws {
        let m = try DamageModesTests.modes(path)
        let summary = DamageModesTests.lines(m.summary.stderr), verbose = DamageModesTests.lines(m.verbose.stderr)
        #expect(m.summary.status == 0 && m.verbose.status == 0 && m.quiet.status == 0)
        #expect(!summary.isEmpty, "\(path): the default tells nothing")
        #expect(summary.allSatisfy { $0.hasPrefix("ics-agenda: warning: ") }, "\(summary)")
        // Each kind the default tells is a place -v tells; -v tells no kind the default leaves out.
        for line in summary { #expect(verbose.contains(DamageModesTests.firstPlace(line)),
            "\(path): -v does not tell \(line)") }
        #expect(verbose.count >= summary.count)
        // --strict: what the default tells, then how many places -v tells, and no agenda.
        #expect(m.strict.status == 65)
        #expect(m.strict.stdout.isEmpty)
        let strict = DamageModesTests.lines(m.strict.stderr)
        #expect(Array(strict.dropLast()) == summary, "\(path): --strict tells other damage than the default")
        let problems = verbose.count
        #expect(strict.last == "ics-agenda: \(problems) problem\(problems == 1 ? "" : "s") in the input (--strict); no agenda printed")
        // --quiet: nothing said, the same agenda.
        #expect(m.quiet.stderr.isEmpty)
        #expect(m.quiet.stdout == m.summary.stdout && m.verbose.stdout == m.summary.stdout)
    }

    /// Every calendar fixture: the default, -v and --strict agree on
    /// whether there is damage at all. (`--strict` tells what the default
    /// tells, then fails: one run shows both.)
    static let calendars: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: CLI.root.appendingPathComponent("Fixtures")
            .path)) ?? []
        return names.filter { $0.hasSuffix(".ics") }.sorted().map { "Fixtures/\($0)" }
    }()

    @Test func thereAreManyFixtures() {
        #expect(DamageModesTests.calendars.count > 50)
    }

    @Test(arguments: calendars) func eachFixtureIsToldOfInEveryModeOrInNone(_ path: String) throws {
        let strict = try CLI.run(DamageModesTests.fixed + ["--strict", path])
        let verbose = try CLI.run(DamageModesTests.fixed + ["-v", path])
        if strict.status != 0 && strict.status != 65 || strict.status == 65 && !strict.stderr.contains("(--strict)") {
            // Not iCalendar at all: the same error in every mode.
            #expect(verbose.status == strict.status, "\(path)")
            return
        }
        let warned = DamageModesTests.lines(strict.stderr).filter { $0.hasPrefix("ics-agenda: warning: ") }
        #expect((strict.status == 65) == !warned.isEmpty,
            "\(path): --strict exits \(strict.status), the default tells \(warned)")
        #expect(warned.isEmpty == verbose.stderr.isEmpty,
            "\(path): the default tells \(warned), -v tells \(verbose.stderr)")
        #expect(verbose.status == 0)
    }
}
