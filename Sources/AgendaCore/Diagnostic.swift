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

    /// One line, whatever the message quotes: a title or value with line
    /// breaks (`SUMMARY:a\nb`) shows them as `\n`, so that every warning
    /// stays one line for grep and for cron's mail.
    public var description: String {
        let text = Diagnostic.oneLine(message)
        let place = PrintableText.escaped(path)
        if let line { return "\(place):\(line): \(text)" }
        return "\(place): \(text)"
    }

    static func oneLine(_ s: String) -> String { PrintableText.escaped(s) }
}
