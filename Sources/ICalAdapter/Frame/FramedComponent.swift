import AgendaCore

/// One top-level component of the input as the frame stage hands it on
/// (`ComponentSplitter`): where its bytes are, the line it starts on, and
/// the framing damage to mend before libical reads it.
struct FramedComponent {
    /// Upper-case component name: `VEVENT`, `VTODO`, `VTIMEZONE`, ...
    let name: String
    let range: Range<Int>
    let firstLine: Int
    /// The components that lost their END line (innermost last): empty
    /// for a well-formed component.
    let unclosed: [String]
    /// Whether the chunk ends with its own END line.
    let rootClosed: Bool
    /// Whether its VCALENDAR has a METHOD: an iTIP message (RFC 5546),
    /// in which a VEVENT need not have a DTSTART (RFC 5545 3.6.1).
    var inITIPMessage = false
    /// What to mend before libical reads the chunk (ChunkText does it);
    /// nil for a well-formed component.
    var repairs: Repairs? = nil
    /// Which VCALENDAR of the file holds it (files and standard input
    /// may hold several one after the other): each has its own VTIMEZONEs.
    var calendar = 0

    /// Framing damage inside one chunk, and how it is mended.
    struct Repairs {
        /// END lines to put back (innermost first) at a byte offset: where an
        /// outer END line, the next component or the end of the file shows
        /// that inner components were left open.
        var insertions: [(at: Int, names: [String])] = []
        /// Byte ranges libical does not see: stray END lines, components
        /// nested deeper than `ComponentSplitter.maxDepth`, and the indentation of an indented
        /// component.
        var dropped: [Range<Int>] = []
        /// Byte offsets where a line break is put in: two lines glued
        /// together (`END:VALARMEND:VEVENT`).
        var lineBreaks: [Int] = []
        /// Warnings about what was mended, with their lines.
        var notes: [Warning] = []
    }
}
