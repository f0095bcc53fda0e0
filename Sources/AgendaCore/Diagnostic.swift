/// A problem found in an input, printed on stderr as `file:line: message`.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let line: Int?
    public let message: String

    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(path):\(line): \(message)" }
        return "\(path): \(message)"
    }
}
