internal import CLibical

/// A recurrence rule as libical holds it (`icalrecurrencetype`): a plain
/// value, copied freely (into records, to the expander). Its BYxxx lists
/// are read and written through the shim's `ics_rule_by_list`, its other
/// parts by name. A rule read from text or from a property comes through
/// `ParsedRule`, which leaves nothing to free and nothing that points into
/// a component: records outlive the components they are read from.
struct RecurrenceRule {
    var c: icalrecurrencetype

    init(_ c: icalrecurrencetype) { self.c = c }

    /// The rule `text` as libical reads it (no frequency when it cannot).
    init(reading text: String) { c = ParsedRule.read(text) }

    enum Frequency {
        case secondly, minutely, hourly, daily, weekly, monthly, yearly
        /// No frequency: libical could not read the rule.
        case none
    }

    var frequency: Frequency {
        switch c.freq {
        case ICAL_SECONDLY_RECURRENCE: .secondly
        case ICAL_MINUTELY_RECURRENCE: .minutely
        case ICAL_HOURLY_RECURRENCE: .hourly
        case ICAL_DAILY_RECURRENCE: .daily
        case ICAL_WEEKLY_RECURRENCE: .weekly
        case ICAL_MONTHLY_RECURRENCE: .monthly
        case ICAL_YEARLY_RECURRENCE: .yearly
        default: .none
        }
    }

    /// COUNT, 0 when the rule has none.
    var count: Int {
        get { Int(c.count) }
        set { c.count = Int32(clamping: newValue) }
    }

    /// INTERVAL as libical read it (0 or 1 when not written).
    var interval: Int {
        get { Int(c.interval) }
        set { c.interval = Int16(clamping: newValue) }
    }

    /// UNTIL, null when the rule has none.
    var until: TimeValue {
        get { TimeValue(c.until) }
        set { c.until = newValue.c }
    }

    /// WKST, numbered as BYDAY is (1 = Sunday ... 7); 0 when not known.
    var weekStart: Int { Int(c.week_start.rawValue) }

    /// The BYxxx parts.
    enum Part: CaseIterable {
        case second, minute, hour, day, monthDay, yearDay, weekNumber, month, setPosition

        fileprivate var shimPart: ics_by_part {
            switch self {
            case .second: ICS_BY_SECOND
            case .minute: ICS_BY_MINUTE
            case .hour: ICS_BY_HOUR
            case .day: ICS_BY_DAY
            case .monthDay: ICS_BY_MONTH_DAY
            case .yearDay: ICS_BY_YEAR_DAY
            case .weekNumber: ICS_BY_WEEK_NO
            case .month: ICS_BY_MONTH
            case .setPosition: ICS_BY_SET_POS
            }
        }
    }

    /// libical's end of a BYxxx list.
    private static let end = Int16(ICAL_RECURRENCE_ARRAY_MAX.rawValue)

    /// Whether the rule has the BYxxx part (its list is not empty).
    func has(_ part: Part) -> Bool {
        var size: Int32 = 0
        return withUnsafePointer(to: c) { ics_rule_by_list($0, part.shimPart, &size)[0] } != RecurrenceRule.end
    }

    /// A BYxxx list's values, as libical encodes them (BYDAY: the weekday
    /// 1 = Sunday ... 7, plus 8 times a position), up to its end.
    func list(_ part: Part) -> [Int16] {
        var size: Int32 = 0
        return withUnsafePointer(to: c) { rule in
            let values = UnsafeBufferPointer(start: ics_rule_by_list(rule, part.shimPart, &size), count: Int(size))
            return Array(values.prefix { $0 != RecurrenceRule.end })
        }
    }

    /// Sets a BYxxx list (at most what libical's array holds, less its end mark).
    mutating func setList(_ part: Part, _ newValues: [Int16]) {
        var size: Int32 = 0
        withUnsafeMutablePointer(to: &c) { rule in
            let values = UnsafeMutableBufferPointer(start: ics_rule_by_list_mutable(rule, part.shimPart, &size),
                count: Int(size))
            let kept = min(newValues.count, values.count - 1)
            for i in 0..<kept { values[i] = newValues[i] }
            values[kept] = RecurrenceRule.end
        }
    }

    /// The rule as written in a calendar (`FREQ=SECONDLY;BYMONTH=2`), for warnings.
    /// The corresponding libical function is `icalrecurrencetype_as_string_r`.
    var text: String {
        var copy = c
        return takeLibicalText(icalrecurrencetype_as_string_r(&copy)) ?? "the rule"
    }

    /// Whether libical reads a rule. The corresponding libical function is
    /// `icalrecurrencetype_from_string`; it returns no frequency on any error.
    static func parses(_ text: String) -> Bool {
        icalerror_clear_errno()
        defer { icalerror_clear_errno() }
        return RecurrenceRule(reading: text).frequency != .none
    }
}

extension RecurrenceRule {
    /// Whether the rule steps through hours, minutes or seconds.
    var isSubDaily: Bool { frequency == .secondly || frequency == .minutely || frequency == .hourly }
}
