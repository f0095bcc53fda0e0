/// Where an account's calendars are, and what its home lists of them.
extension DAVSync {
    /// Discovery: the home set's address.
    func discover() throws(DAVFailure) -> String {
        let account = client.account
        var principal: String?
        search: for start in [account.address(account.path), account.address("/.well-known/caldav")] {
            switch client.multistatus(.init(method: "PROPFIND", url: start, depth: "0",
                body: DAVBodies.principalProperties)) {
            case .success(let (answer, reply)):
                if let href = answer.responses.lazy.compactMap({ $0.href(in: DAVNamespace.dav,
                    "current-user-principal") }).first {
                    principal = DAVClient.resolve(href, against: reply.url)
                    break search
                }
            case .failure(let failure):
                // A refused login or no answer at all ends it; a 404 or 405 tries the next place.
                if failure.status == nil || failure.status == 401 || failure.status == 403 { throw failure }
            }
        }
        guard let principal else { throw .noPrincipal }
        let (answer, reply) = try client.multistatus(
            .init(method: "PROPFIND", url: principal, depth: "0", body: DAVBodies.homeSetProperties)).get()
        guard let home = answer.responses.lazy.compactMap({ $0.href(in: DAVNamespace.caldav, "calendar-home-set") })
            .first else {
            throw .noHomeSet
        }
        return DAVClient.resolve(home, against: reply.url)
    }

    /// The calendars a home's listing holds, each with its entry in the copy.
    static func calendars(in listing: Multistatus, home: String)
        -> [(entry: DAVCopy.CalendarEntry, listed: Multistatus.Response)]
    {
        var folders: Set<String> = []
        return listing.responses.compactMap { response in
            guard response.isResourceType(DAVNamespace.caldav, "calendar") else { return nil }
            // One calendar named twice (`/cal` and `/cal/`, or on two hosts) is one copy: the first.
            guard folders.insert(DAVCopy.folderName(DAVClient.resolve(response.href, against: home))).inserted
            else { return nil }
            let address = DAVClient.resolve(response.href, against: home)
            let key = DAVHref.key(address)
            let last = key.split(separator: "/").last.map(String.init) ?? key
            // Radicale answers a calendar without a displayname with its path (`alice/todo list`).
            let path = key.split(separator: "/").joined(separator: "/")
            let shown = response.text(DAVNamespace.dav, "displayname").flatMap { $0 == path ? nil : $0 }
            return (
                DAVCopy.CalendarEntry(
                    href: address, name: shown ?? last,
                    color: response.text(DAVNamespace.apple, "calendar-color"),
                    components: componentNames(response), folder: DAVCopy.folderName(address)),
                response
            )
        }
    }

    /// The names in `supported-calendar-component-set` (`<c:comp name="VTODO"/>`).
    static func componentNames(_ response: Multistatus.Response) -> [String] {
        (response.property(DAVNamespace.caldav, "supported-calendar-component-set")?.all(DAVNamespace.caldav, "comp")
            ?? [])
            .compactMap { $0.attributes["name"]?.uppercased() }
    }
}
