import Foundation

/// `ICS_AGENDA_FULL_CHECKS=1` (`make check-all`): the checks that `make
/// test` runs on a sample run whole. A sample is fixed, never random, and
/// keeps every kind of case (each option, each shape); the whole run adds
/// the same cases in more combinations, and the growth measurements that
/// take a CPU time ratio (too slow and too noisy for every test run).
enum FullChecks {
    static let enabled = ProcessInfo.processInfo.environment["ICS_AGENDA_FULL_CHECKS"] == "1"

    /// Every element with the full checks; otherwise every `step`th, from
    /// an offset of `seed`, so that different callers keep different ones.
    static func sample<T>(_ all: [T], every step: Int, seed: Int = 0) -> [T] {
        guard !enabled, step > 1 else { return all }
        return all.enumerated().filter { ($0.offset + seed) % step == 0 }.map(\.element)
    }
}
