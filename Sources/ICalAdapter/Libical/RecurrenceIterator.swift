internal import CLibical

/// libical's iterator over one recurrence rule, freed when the value ends
/// (also when a new iterator replaces it: `iterator = fresh`).
///
/// libical's rule: `icalrecur_iterator_new` returns nil for a rule it
/// cannot walk, else an iterator the caller frees with
/// `icalrecur_iterator_free`; `icalrecur_iterator_set_start` can fail
/// (then the iterator is left as it was, and is still the caller's).
struct RecurrenceIterator: ~Copyable {
    private let pointer: OpaquePointer

    /// Nil when libical cannot walk the rule from `start`.
    init?(_ rule: RecurrenceRule, from start: TimeValue) {
        guard let pointer = icalrecur_iterator_new(rule.c, start.c) else { return nil }
        self.pointer = pointer
    }

    deinit { icalrecur_iterator_free(pointer) }

    /// The next instance, or a null time when there is none.
    func next() -> TimeValue { TimeValue(icalrecur_iterator_next(pointer)) }

    /// Moves the walk to `start`; false when libical cannot.
    func setStart(_ start: TimeValue) -> Bool { icalrecur_iterator_set_start(pointer, start.c) != 0 }
}
