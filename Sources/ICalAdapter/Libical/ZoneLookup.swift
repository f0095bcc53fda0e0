/// Where the component reader finds the zone a TZID names: the file's own
/// VTIMEZONEs, per VCALENDAR, and the system's zones (`ZoneTable`, which
/// Zones/ keeps; this folder only asks). Safe to ask from several threads.
protocol ZoneLookup: AnyObject, Sendable {
    /// The zone `tzid` names in VCALENDAR number `calendar`, if any.
    func zone(for tzid: String, calendar: Int) -> Zone?
    /// A zone guessed from a TZID no VTIMEZONE defines (a Windows or display
    /// name), and the IANA name it was read as.
    func guessed(_ tzid: String) -> (zone: Zone, iana: String)?
}
