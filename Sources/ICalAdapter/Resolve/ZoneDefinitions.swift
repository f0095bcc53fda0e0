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

    /// Reads a VTIMEZONE into the file's zones.
    mutating func define(zone chunk: FramedComponent, _ buffer: UnsafeBufferPointer<UInt8>, scratch: inout [CChar], log: inout DiagnosticLog) {
        // A definition written again as it was (files that repeat a zone
        // before every event) changes nothing: it is not read again.
        let text = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[chunk.range]))
        var hasher = Hasher()
        hasher.combine(chunk.calendar)
        hasher.combine(bytes: text)
        let hash = hasher.finalize()
        if let tzid = zoneTexts[hash], let latest = latestZoneText["\(chunk.calendar)\u{0}\(tzid)"], latest.elementsEqual(text) { return }
        var textOnly = Hasher()
        textOnly.combine(bytes: text)
        let textHash = textOnly.finalize()
        // A vdir collection read joined: a file that writes a VTIMEZONE word
        // for word as an earlier file did reads it in the same zone.
        if zones.isScopedToCalendars, let earlier = scopedZoneTexts[textHash], earlier.text.elementsEqual(text),
            zones.adopt(tzid: earlier.tzid, from: earlier.calendar, into: chunk.calendar)
        {
            return
        }
        // The same text in another VCALENDAR (a vdir collection read joined:
        // every file repeats its zones) is the definition the file already
        // holds: that calendar shares it.
        if !zones.isScopedToCalendars, let tzid = sharedZoneTexts[textHash], let current = currentZoneText[tzid], current.elementsEqual(text),
            zones.share(tzid: tzid, calendar: chunk.calendar)
        {
            latestZoneText["\(chunk.calendar)\u{0}\(tzid)"] = current
            zoneTexts[hash] = tzid
            return
        }
        // Only a definition read without a warning is not read again: each damage is counted where it is.
        let warned = log.given
        var prepared = ProcessedChunk()
        let parsed = ChunkProcessor.parse(chunk, buffer, scratch: &scratch, into: &prepared)
        log.take(warningsOf: prepared)
        guard let component = parsed, component.kind == .timezone else { return }
        var warnings: [String] = []
        let limited = zoneCost.limit(component, calendar: chunk.calendar, warnings: &warnings)
        for warning in warnings { log.warn(Warning(chunk.firstLine, .zoneRuleCost, warning)) }
        let definition = zones.define(vtimezone: limited, calendar: chunk.calendar)
        switch definition {
        case .noTZID:
            log.warn(Warning(chunk.firstLine, .zoneWithoutTZID, "VTIMEZONE without TZID", "VTIMEZONE without TZID; ignored"))
        case .tooMany(let tzid):
            if !warnedTooManyZones {
                warnedTooManyZones = true
                log.warn(Warning(chunk.firstLine, .tooManyZones, "too many time zones",
                    "VTIMEZONE \"\(tzid)\": the file defines more than \(ZoneTable.maxZones) time zones; this one and every later new one are ignored (their TZIDs are read as if not defined)"))
            }
        case .defined(let tzid), .unusable(let tzid):
            guard log.given == warned else { break }
            zoneTexts[hash] = tzid
            latestZoneText["\(chunk.calendar)\u{0}\(tzid)"] = Array(text)
            if zones.isScopedToCalendars {
                if case .defined = definition { scopedZoneTexts[textHash] = (Array(text), tzid, chunk.calendar) }
            } else {
                sharedZoneTexts[textHash] = tzid
                currentZoneText[tzid] = Array(text)
            }
        }
        if case .defined(let tzid) = definition, currentZoneText[tzid].map({ !$0.elementsEqual(text) }) ?? false {
            currentZoneText[tzid] = nil  // defined anew, with a warning: not shared
        }
    }

    /// The text of the latest definition of each TZID read, per VCALENDAR,
    /// and which TZID a definition's text (by its hash) defined.
    private var zoneTexts: [Int: String] = [:]
    private var latestZoneText: [String: [UInt8]] = [:]
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
