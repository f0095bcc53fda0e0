#pragma once
#include <libical/ical.h>

/* The BYxxx lists of a recurrence rule, by name: libical keeps each in a
   fixed array ended by ICAL_RECURRENCE_ARRAY_MAX, which Swift sees as a
   tuple of hundreds of elements. These give the array and its size, so
   the Swift side reads and writes them as buffers, in one place
   (Libical/RecurrenceRule.swift). */
typedef enum {
    ICS_BY_SECOND, ICS_BY_MINUTE, ICS_BY_HOUR, ICS_BY_DAY, ICS_BY_MONTH_DAY,
    ICS_BY_YEAR_DAY, ICS_BY_WEEK_NO, ICS_BY_MONTH, ICS_BY_SET_POS
} ics_by_part;

static inline short *ics_rule_by_list_mutable(struct icalrecurrencetype *rule, ics_by_part part, int *size) {
    switch (part) {
    case ICS_BY_SECOND: *size = ICAL_BY_SECOND_SIZE; return rule->by_second;
    case ICS_BY_MINUTE: *size = ICAL_BY_MINUTE_SIZE; return rule->by_minute;
    case ICS_BY_HOUR: *size = ICAL_BY_HOUR_SIZE; return rule->by_hour;
    case ICS_BY_DAY: *size = ICAL_BY_DAY_SIZE; return rule->by_day;
    case ICS_BY_MONTH_DAY: *size = ICAL_BY_MONTHDAY_SIZE; return rule->by_month_day;
    case ICS_BY_YEAR_DAY: *size = ICAL_BY_YEARDAY_SIZE; return rule->by_year_day;
    case ICS_BY_WEEK_NO: *size = ICAL_BY_WEEKNO_SIZE; return rule->by_week_no;
    case ICS_BY_MONTH: *size = ICAL_BY_MONTH_SIZE; return rule->by_month;
    case ICS_BY_SET_POS: default: *size = ICAL_BY_SETPOS_SIZE; return rule->by_set_pos;
    }
}

static inline const short *ics_rule_by_list(const struct icalrecurrencetype *rule, ics_by_part part, int *size) {
    return ics_rule_by_list_mutable((struct icalrecurrencetype *)rule, part, size);
}
