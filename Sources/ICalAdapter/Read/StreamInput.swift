import AgendaCore

/// A stream (standard input, a pipe) as the loader reads it: its bytes
/// read into `buffer` a piece at a time, UTF-16 turned into UTF-8 as it
/// comes (`UTF16Transcoder`), runs of NUL bytes taken out (`NULStripper`).
/// The loader takes what it has read off the front (`consume`).
struct StreamInput {
    /// Fills the buffer it is given and returns how many bytes it wrote, 0 at the end.
    typealias Read = (UnsafeMutableRawBufferPointer) throws -> Int

    private(set) var buffer: [UInt8] = []
    private(set) var ended = false
    /// The bytes read from the stream so far, as they came.
    private(set) var bytesRead = 0
    /// Bytes of text taken off the front of `buffer` so far.
    private(set) var consumed = 0
    /// Whether the stream was UTF-16.
    private(set) var wasUTF16 = false
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var utf16: UTF16Transcoder? = nil
    private var nuls = NULStripper()
    /// UTF-8 of the piece being read, before its runs are taken out.
    private var text: [UInt8] = []
    /// Until the encoding is known (`decide`), bytes are kept as they came.
    private var decided = false

    /// Reads until the buffer holds `size` bytes, or the stream ends, or
    /// `size` bytes read gave no text (NUL bytes only): the caller decides.
    mutating func fill(upTo size: Int, _ read: Read) throws {
        let start = bytesRead
        while !ended && buffer.count < size && (bytesRead - start < size || !buffer.isEmpty) {
            let n = try chunk.withUnsafeMutableBytes { try read($0) }
            bytesRead += n
            if n == 0 {
                ended = true
                if decided {
                    utf16?.finish(into: &buffer)
                    nuls.finish(into: &buffer)
                }
            } else if !decided {
                buffer.append(contentsOf: chunk[0..<n])
            } else {
                chunk.withUnsafeBufferPointer { take(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            }
        }
    }

    /// Whether the stream is UTF-16, from its first bytes (enough to tell
    /// `BEGIN:` in two bytes a character); what came so far is read again.
    mutating func decide() {
        let first = buffer
        buffer = []
        decided = true
        first.withUnsafeBufferPointer { first in
            var skip = 0
            if let order = TextBytes.utf16ByteOrder(first) {
                utf16 = UTF16Transcoder(bigEndian: order.bigEndian)
                wasUTF16 = true
                skip = order.skip
            }
            take(UnsafeBufferPointer(rebasing: first[skip...]))
        }
        if ended {
            utf16?.finish(into: &buffer)
            nuls.finish(into: &buffer)
        }
    }

    private mutating func take(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard utf16 != nil else { return nuls.append(bytes, to: &buffer) }
        text.removeAll(keepingCapacity: true)
        utf16!.append(bytes, to: &text)
        text.withUnsafeBufferPointer { nuls.append($0, to: &buffer) }
    }

    /// Takes `count` bytes of text off the front of the buffer.
    mutating func consume(_ count: Int) {
        buffer.removeFirst(count)
        consumed += count
    }

    /// A UTF-8 byte-order mark at the start is passed over.
    mutating func skipByteOrderMark() {
        if consumed == 0 && buffer.starts(with: [0xEF, 0xBB, 0xBF]) { consume(3) }
    }

    /// The warnings of the runs of NUL bytes taken out of the text in the
    /// buffer, `linesBefore` lines before it.
    mutating func nulWarnings(linesBefore: Int) -> [Warning] {
        buffer.withUnsafeBufferPointer { nuls.warnings(in: $0, offset: consumed, linesBefore: linesBefore) }
    }
}
