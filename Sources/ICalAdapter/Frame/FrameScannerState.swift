/// What the frame scanner holds while it reads: the component it is in
/// (`OpenComponent`, its state inside one), and the line just read.
extension FrameScanner {
    /// The top-level component being framed, and what is noted of it.
    struct OpenComponent {
        /// Upper-case name, where its BEGIN line starts, and its line number.
        let name: String
        let start: Int
        let firstLine: Int
        /// Leading blanks every line carries (a file re-indented by a
        /// script), taken off before libical reads it.
        let indent: Int
        /// Its open components, itself first.
        var stack: [String]
        var unclosed: [String] = []
        var repairs = FramedComponent.Repairs()
        /// Inside a component left out (nested too deep, or past
        /// `maxInner`): where it started, and how deep inside it.
        var dropStart = 0
        var dropDepth = 0
        /// Notes already given, and how many stray END lines it has.
        var toldDepth = false
        var strayEnds = 0
        var innerCount = 0
        /// Content lines (`maxLines`), the lines of each essential name
        /// read past it (made only then), and the lines left out.
        var lines = 0
        var essentialPast: [Int] = []
        var linesLeftOut = 0

        init(name: String, start: Int, firstLine: Int, indent: Int) {
            self.name = name
            self.start = start
            self.firstLine = firstLine
            self.indent = indent
            stack = [name]
        }
    }

    /// One line as read: where it starts (after any indentation taken
    /// off) and its content, without the line end.
    struct Line {
        var start: Int
        let contentEnd: Int
        var text: UnsafeBufferPointer<UInt8>
    }
}
