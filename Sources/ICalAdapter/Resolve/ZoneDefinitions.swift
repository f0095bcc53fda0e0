import AgendaCore
import Foundation

/// The VTIMEZONEs of one file: each read once (a definition written again
/// word for word, as files that repeat a zone before every event do, is not
/// read again), shared between the VCALENDARs of a vdir collection read
/// joined, and what they may cost libical together (`ZoneCost`).
struct ZoneDefinitions {
    let zones = ZoneTable()
    /// What the file's VTIMEZONEs may cost libical together.
    var zoneCost = ZoneCost()

    /// One VTIMEZONE's text as written, for telling a definition written
    /// again from a new one: its bytes, the VCALENDAR that holds it and its line.
    struct Text {
        let bytes: UnsafeRawBufferPointer
        let calendar: Int
        let line: Int
        /// Of the calendar and the bytes, and of the bytes alone.
        let hash: Int
        let textHash: Int

        init(_ bytes: UnsafeRawBufferPointer, calendar: Int, line: Int) {
            self.bytes = bytes
            self.calendar = calendar
            self.line = line
            // The bytes hashed once: a vdir collection's 20,000 files each write their zone.
            var textOnly = Hasher()
            textOnly.combine(bytes: bytes)
            textHash = textOnly.finalize()
            var hasher = Hasher()
            hasher.combine(calendar)
            hasher.combine(textHash)
            hash = hasher.finalize()
        }
    }

    /// Whether the file already holds this definition, which then need not
    /// be parsed: a definition written again as it was (files that repeat a
    /// zone before every event), or, in a vdir collection read joined, one
    /// an earlier file wrote word for word (the calendar then shares it).
    mutating func holds(_ zone: Text) -> Bool {
        let text = zone.bytes, hash = zone.hash, textHash = zone.textHash
        if let tzid = zoneTexts[hash], let latest = latestZoneText[ZoneKey(calendar: zone.calendar, tzid: tzid)],
            ZoneDefinitions.same(latest, text) {
            return true
        }
        // A vdir collection read joined: a file that writes a VTIMEZONE word
        // for word as an earlier file did reads it in the same zone.
        if zones.isScopedToCalendars, let earlier = scopedZoneTexts[textHash], ZoneDefinitions.same(earlier.text, text),
            zones.adopt(tzid: earlier.tzid, from: earlier.calendar, into: zone.calendar)
        {
            return true
        }
        // The same text in another VCALENDAR (a vdir collection read joined:
        // every file repeats its zones) is the definition the file already
        // holds: that calendar shares it.
        if !zones.isScopedToCalendars, let tzid = sharedZoneTexts[textHash], let current = currentZoneText[tzid],
            ZoneDefinitions.same(current, text),
            zones.share(tzid: tzid, calendar: zone.calendar)
        {
            latestZoneText[ZoneKey(calendar: zone.calendar, tzid: tzid)] = current
            zoneTexts[hash] = tzid
            return true
        }
        return false
    }

    /// Reads a parsed VTIMEZONE (nil: libical could not read it) into the
    /// file's zones, after the warnings its parse gave.
    mutating func define(_ zone: Text, _ parsed: consuming OwnedComponent?, parseWarnings: ComponentWarnings,
        log: inout DiagnosticLog) {
        let text = zone.bytes, hash = zone.hash, textHash = zone.textHash
        // Only a definition read without a warning is not read again: each damage is counted where it is.
        let warned = log.given
        log.take(parseWarnings)
        // One binding a guard, the parameter consumed: libical's component is noncopyable.
        guard let component = consume parsed else { return }
        guard component.kind == .timezone else { return }
        var warnings: [String] = []
        let limited = zoneCost.limit(component, calendar: zone.calendar, warnings: &warnings)
        for warning in warnings { log.warn(Warning(zone.line, .zoneRuleCost, warning)) }
        let definition = zones.define(vtimezone: limited, calendar: zone.calendar)
        switch definition {
        case .noTZID:
            log.warn(Warning(zone.line, .zoneWithoutTZID, "VTIMEZONE without TZID", "VTIMEZONE without TZID; ignored"))
        case .tooMany(let tzid):
            if !warnedTooManyZones {
                warnedTooManyZones = true
                log.warn(Warning(zone.line, .tooManyZones, "too many time zones",
                    "VTIMEZONE \"\(tzid)\": the file defines more than \(ZoneTable.maxZones) time zones; this one " +
                        "and every later new one are ignored (their TZIDs are read as if not defined)"))
            }
        case .defined(let tzid), .unusable(let tzid):
            guard log.given == warned else { break }
            zoneTexts[hash] = tzid
            latestZoneText[ZoneKey(calendar: zone.calendar, tzid: tzid)] = Array(text)
            if zones.isScopedToCalendars {
                if case .defined = definition { scopedZoneTexts[textHash] = (Array(text), tzid, zone.calendar) }
            } else {
                sharedZoneTexts[textHash] = tzid
                currentZoneText[tzid] = Array(text)
            }
        }
        if case .defined(let tzid) = definition, let current = currentZoneText[tzid],
            !ZoneDefinitions.same(current, text) {
            currentZoneText[tzid] = nil  // defined anew, with a warning: not shared
        }
    }

    /// The text of the latest definition of each TZID read, per VCALENDAR,
    /// and which TZID a definition's text (by its hash) defined.
    private var zoneTexts: [Int: String] = [:]
    private var latestZoneText: [ZoneKey: [UInt8]] = [:]

    /// A TZID in one VCALENDAR of the file.
    private struct ZoneKey: Hashable {
        let calendar: Int
        let tzid: String
    }

    /// Whether a zone text kept is the one just read, byte for byte.
    private static func same(_ kept: [UInt8], _ text: UnsafeRawBufferPointer) -> Bool {
        kept.count == text.count && kept.withUnsafeBytes { kept in
            kept.count == 0 || memcmp(kept.baseAddress!, text.baseAddress!, kept.count) == 0
        }
    }

    /// `--series`: the VTIMEZONE of `tzid` in a VCALENDAR of the file, as
    /// written last (one read without a warning); nil when it defines none.
    func writtenText(of tzid: String, calendar: Int) -> String? {
        latestZoneText[ZoneKey(calendar: calendar, tzid: tzid)].map { String(decoding: $0, as: UTF8.self) }
    }
    /// The text of the definition each TZID now has, and which TZID a
    /// text (by its hash alone) defined: what another VCALENDAR may share.
    private var currentZoneText: [String: [UInt8]] = [:]
    private var sharedZoneTexts: [Int: String] = [:]
    /// With zones scoped to each VCALENDAR: each text defined without a
    /// warning, its TZID and the VCALENDAR that defined it first.
    private var scopedZoneTexts: [Int: (text: [UInt8], tzid: String, calendar: Int)] = [:]
    private var warnedTooManyZones = false

    /// The VTIMEZONEs of a large input read before its first stretch (where they start).
    var zonesRead = Set<Int>()
}
