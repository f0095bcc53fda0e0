import AgendaCore
import AgendaSystem
import Foundation

/// Standard output, buffered in large writes. A closed pipe (`| head`)
/// ends the program quietly with status 0; any other write error with 74.
struct BufferedOutput: ByteOutputStream {
    private var buffer: [UInt8] = []
    private let limit = 1 << 16

    init() {
        buffer.reserveCapacity(limit + 4096)
    }

    mutating func write(_ string: String) {
        buffer.append(contentsOf: string.utf8)
        if buffer.count >= limit { flush() }
    }

    mutating func write(bytes: UnsafeBufferPointer<UInt8>) {
        // A large block (the JSON formatter's) goes out as it is, not copied first.
        if bytes.count >= limit {
            flush()
            BufferedOutput.writeAll(UnsafeRawBufferPointer(bytes))
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit { flush() }
    }

    mutating func flush() {
        buffer.withUnsafeBytes(BufferedOutput.writeAll)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes every byte to standard output; a closed pipe ends the run
    /// quietly (status 0), any other error with status 74. The run ends
    /// there, in the middle of its work, with `_exit`: nothing is left to
    /// write, and the agenda's memory goes back with the process rather
    /// than object by object (at `exit`, LeakSanitizer would count the
    /// abandoned agenda as lost).
    private static func writeAll(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            do throws(Errno) {
                let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
                offset += try FileDescriptor.standardOutput.writeWaiting(rest)
            } catch {
                if error == .brokenPipe { ProcessEnd.abandon(0) }
                let reason = String(cString: strerror(error.rawValue))
                StandardError.write("ics-agenda: cannot write the agenda: \(reason)\n")
                ProcessEnd.abandon(74)
            }
        }
    }
}

/// Standard error, for warnings and messages. A write that fails (stderr
/// closed, full, or a pipe whose reader has gone) is given up quietly: a
/// warning that cannot be told must never stop the agenda or change the
/// exit status. (`FileHandle.write` traps on such an error; `fputs` to
/// `stderr` does not compile under strict concurrency.) Every message is
/// written without the secrets an address may hold (`SecretText`),
/// whichever path it came by.
enum StandardError {
    static func write(_ text: String) {
        let bytes = Array(SecretText.redacted(text).utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let rest = UnsafeRawBufferPointer(rebasing: buffer[offset...])
                let written = (try? FileDescriptor.standardError.writeWaiting(rest)) ?? 0
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
