import Foundation

/// `--format json`: JSON Lines, one object per occurrence in agenda order,
/// every key of the contract on every line (`null` when absent).
public struct JSONLinesFormatter: Sendable {
    public let iso: ISOTime

    public init(clock: ZoneClock) {
        iso = ISOTime(clock: clock)
    }

    /// - Parameter threads: how many threads format lines. Rows are taken in
    ///   blocks; each thread formats a contiguous part of a block into its
    ///   own buffer, and the buffers are written in order: the bytes are
    ///   the same whatever the number, and memory follows the block.
    public func write(_ sections: [AgendaSection], to out: inout some ByteOutputStream, threads: Int = 1) {
        let blockSize = 4096
        var block: [AgendaRow] = []
        block.reserveCapacity(blockSize)
        var buffers = [[UInt8]](repeating: [], count: max(threads, 1))
        func flush() {
            let parts = block.count >= 1024 ? buffers.count : 1
            let rows = block
            buffers.withUnsafeMutableBufferPointer { buffers in
                let shared = SharedBuffers(buffers: buffers)
                let work: @Sendable (Int) -> Void = { part in
                    var bytes = shared.buffers[part]
                    bytes.removeAll(keepingCapacity: true)
                    for row in rows[(rows.count * part / parts)..<(rows.count * (part + 1) / parts)] {
                        self.append(row, to: &bytes)
                        bytes.append(0x0A)
                    }
                    shared.buffers[part] = bytes
                }
                if parts == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: parts, execute: work) }
            }
            for part in 0..<parts { buffers[part].withUnsafeBufferPointer { out.write(bytes: $0) } }
            block.removeAll(keepingCapacity: true)
        }
        for section in sections {
            for row in section.rows where row.isFirstListed {
                block.append(row)
                if block.count == blockSize { flush() }
            }
        }
        if !block.isEmpty { flush() }
    }

    /// One object, keys in the contract's order, every key present.
    func append(_ row: AgendaRow, to line: inout [UInt8]) {
        let o = row.occurrence
        let reminder: Reminder?
        if case .reminder(let r) = o.item { reminder = r } else { reminder = nil }
        let start = reminder == nil ? o.start : (o.start ?? o.due)
        let end = reminder == nil ? o.end : (o.due ?? o.start)
        func key(_ k: StaticString) {
            line.append(contentsOf: UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount))
        }
        func text(_ s: String?) { JSONText.append(s, to: &line) }
        func time(_ t: AgendaTime?) {
            guard let t else { return key("null") }
            line.append(0x22)
            iso.append(t, to: &line)
            line.append(0x22)
        }
        key("{\"kind\":"); key(reminder == nil ? "\"event\"" : "\"reminder\"")
        key(",\"uid\":"); text(o.uid.isEmpty ? nil : o.uid)  // no UID: null, as the contract says
        key(",\"recurrence_id\":"); time(o.recurrenceID)
        key(",\"title\":"); text(o.title)
        key(",\"start\":"); time(start)
        key(",\"end\":"); time(end)
        key(",\"all_day\":"); key(o.isAllDay ? "true" : "false")
        key(",\"day\":")
        if let day = row.day {
            line.append(0x22)
            ISOTime.append(date: day, to: &line)
            line.append(0x22)
        } else {
            key("null")
        }
        key(",\"location\":"); text(o.location)
        key(",\"description\":"); text(o.description)
        key(",\"status\":"); text(o.status)
        key(",\"calendar\":"); text(o.calendar.name)
        key(",\"source\":"); text(o.calendar.source)
        key(",\"due\":"); time(o.due)
        key(",\"completed\":"); key(reminder.map { $0.isCompleted ? "true" : "false" } ?? "null")
        key(",\"priority\":")
        if let priority = reminder?.priority { line.append(contentsOf: String(priority).utf8) } else { key("null") }
        line.append(0x7D)
    }
}

/// Each formatting thread writes only its own buffer.
private struct SharedBuffers: @unchecked Sendable {
    let buffers: UnsafeMutableBufferPointer<[UInt8]>
}

/// JSON string literals, escaped per RFC 8259 (and U+2028/U+2029, for JavaScript readers).
enum JSONText {
    static func quote(_ s: String?) -> String {
        var bytes: [UInt8] = []
        append(s, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func append(_ s: String?, to out: inout [UInt8]) {
        guard var s else {
            out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])  // null
            return
        }
        out.append(0x22)
        s.withUTF8 { bytes in
            var clean = 0  // bytes[clean..<i] need no escaping and are copied in one go
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                let isLineSeparator = b == 0xE2 && i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9)
                if b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F || isLineSeparator {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<i]))
                    var scalar = Int(b)
                    var width = 1
                    if isLineSeparator {
                        scalar = bytes[i + 2] == 0xA8 ? 0x2028 : 0x2029
                        width = 3
                    }
                    switch b {
                    case 0x22: out.append(contentsOf: [0x5C, 0x22])
                    case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                    case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
                    case 0x0D: out.append(contentsOf: [0x5C, 0x72])
                    case 0x09: out.append(contentsOf: [0x5C, 0x74])
                    default: out.append(contentsOf: ("\\u" + pad(scalar, 4, hex: true)).utf8)
                    }
                    i += width
                    clean = i
                } else {
                    i += 1
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<bytes.count]))
        }
        out.append(0x22)
    }
}

func pad(_ n: Int, _ width: Int, hex: Bool) -> String {
    let s = String(n, radix: 16)
    return String(repeating: "0", count: max(0, width - s.count)) + s
}
