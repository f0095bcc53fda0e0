/// What the user asked to see, beyond the window.
public struct Selection: Sendable {
    public var includeEvents = true
    public var includeReminders = true
    public var showCompleted = false
    public var showCancelled = false

    public init() {}

    public func admits(_ occurrence: Occurrence) -> Bool {
        switch occurrence.item {
        case .event: guard includeEvents else { return false }
        case .reminder(let r):
            guard includeReminders else { return false }
            if r.isCompleted && !showCompleted { return false }
        }
        return showCancelled || !occurrence.isCancelled
    }
}
