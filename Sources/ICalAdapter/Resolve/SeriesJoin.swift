import AgendaCore

extension LoadRun {
    /// `--series`: each component kept whole joins the others of its UID
    /// in the file (its master and overrides; without a UID, it stands
    /// alone), with the VTIMEZONEs they name, as the file wrote them.
    mutating func joinSeries() {
        guard !wholes.isEmpty else { return }
        var groups: [String: [WholeComponent]] = [:]
        for whole in wholes where !whole.matchUID.isEmpty { groups[whole.matchUID, default: []].append(whole) }
        for whole in wholes {
            if whole.matchUID.isEmpty {
                join([whole])
            } else if let members = groups.removeValue(forKey: whole.matchUID) {
                join(members)
            }
        }
        wholes = []
    }

    private func join(_ members: [WholeComponent]) {
        var zones: [(tzid: String, text: String)] = []
        for member in members {
            for tzid in member.zoneIDs where !zones.contains(where: { $0.tzid == tzid }) {
                if let text = zoneDefinitions.writtenText(of: tzid, calendar: member.calendarIndex) {
                    zones.append((tzid, text))
                }
            }
        }
        let series = ComponentSeries(uid: members[0].matchUID, components: members.map(\.text), zones: zones,
            calendarTimeZone: members[0].calendarTimeZone)
        for member in members { member.join(series) }
    }
}
