extension String {
    /// The text without white space at either end (Unicode's, line breaks
    /// included): property values, addresses and links as they are compared.
    package func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
