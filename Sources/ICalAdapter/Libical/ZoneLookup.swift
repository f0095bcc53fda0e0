/// Where the component reader finds the zone a TZID names: the file's own
/// VTIMEZONEs, per VCALENDAR, and the system's zones (`ZoneTable`, which
/// Zones/ keeps; this folder only asks). Safe to ask from several threads.
protocol ZoneLookup: AnyObject, Sendable {
    /// The zone `tzid` names in VCALENDAR number `calendar`, if any.
    func zone(for tzid: String, calendar: Int) -> Zone?
    /// A zone guessed from a TZID no VTIMEZONE defines (a Windows or display
    /// name), and the IANA name it was read as.
    func guessed(_ tzid: String) -> (zone: Zone, iana: String)?
    /// The IANA name a zone stands for (a built-in's own; a defined one's
    /// TZID read as a name, a Windows name or a vendor's prefixed one), for
    /// the zones Foundation knows; nil for a zone of a name of its own.
    func ianaName(of zone: Zone) -> String?
}
