import AgendaCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit { flush() }
    }

    mutating func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { Foundation.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EPIPE { exit(0) }
                StandardError.write("ics-agenda: cannot write the agenda: \(String(cString: strerror(code)))\n")
                exit(74)
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Standard error, for warnings (`fputs` to `stderr` does not compile under strict concurrency).
enum StandardError {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
