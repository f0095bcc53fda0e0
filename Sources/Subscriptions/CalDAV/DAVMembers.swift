/// What a listing or a sync report says a calendar holds, by `DAVHref.key`.
struct DAVMembers {
    struct Member: Equatable {
        /// As the server wrote it.
        var href: String
        var etag: String?
    }

    var present: [String: Member] = [:]
    var removed: Set<String> = []
    /// A sync report: what is not named did not change. A listing names every member.
    var incremental = false
    /// The token a sync report ends with.
    var token: String?
    /// RFC 6578 §3.6: the report was cut (a 507 for the calendar itself);
    /// `token` goes on from where it stopped.
    var truncated = false

    init(incremental: Bool) { self.incremental = incremental }

    /// The members `answer` names for the calendar at `href`: a member
    /// answered 404 is removed (a sync report), a 2xx or no status present;
    /// the calendar's own response says only whether the report was cut.
    init(of answer: Multistatus, calendar href: String, incremental: Bool) {
        self.init(incremental: incremental)
        let own = DAVHref.key(href)
        token = answer.syncToken
        for response in answer.responses {
            let key = DAVHref.key(response.href)
            if key == own {
                if response.status == 507 { truncated = true }
                continue
            }
            if response.isResourceType(DAVNamespace.dav, "collection") { continue }
            if response.status == 404 {
                removed.insert(key)
                present[key] = nil
            } else if response.status == nil || (200..<300).contains(response.status!) {
                present[key] = Member(href: response.href, etag: response.text(DAVNamespace.dav, "getetag"))
                removed.remove(key)
            }
        }
    }

    /// A later page of the same report: what it says wins.
    mutating func add(_ page: DAVMembers) {
        for key in page.removed {
            present[key] = nil
            removed.insert(key)
        }
        for (key, member) in page.present {
            present[key] = member
            removed.remove(key)
        }
        token = page.token
        truncated = page.truncated
    }
}
