/// A stretch of the input as the read stage hands it on: whole lines of
/// UTF-8 with LF line ends (`LineEndings`, `UTF16Transcoder`), cut where a
/// component begins (`InputSegments`), at most `InputSegments.stretchBytes`
/// of them; the frame stage frames each on its own.
struct Stretch {
    /// The input read so far (a mapped file, or what a stream has given).
    let bytes: UnsafeBufferPointer<UInt8>
    /// The stretch within it.
    let range: Range<Int>
    /// The lines before it, for line numbers.
    var linesBefore = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, linesBefore: Int = 0) {
        self.bytes = bytes
        self.range = range
        self.linesBefore = linesBefore
    }
}
