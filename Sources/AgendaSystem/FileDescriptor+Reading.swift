#if canImport(Glibc)
    import Glibc
#endif

/// Reading and writing through swift-system's `FileDescriptor`, once for
/// every input, output and file of the program: a descriptor a parent
/// left non-blocking (`O_NONBLOCK` on a shared pipe) is waited for, as a
/// blocking one would be; a signal is waited through (swift-system retries
/// its calls on EINTR).
extension FileDescriptor {
    /// Reads up to `buffer.count` bytes in one call: how many (0 at the
    /// end); EAGAIN of a non-blocking descriptor thrown as any failure is.
    package func readOnce(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try SystemCall.typed { try read(into: buffer) }
    }

    /// Reads up to `buffer.count` bytes: how many (0 at the end).
    package func readWaiting(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        while true {
            do throws(Errno) {
                return try readOnce(into: buffer)
            } catch {
                guard error.isWouldBlock else { throw error }
                waitUntilReady(for: Int16(POLLIN))
            }
        }
    }

    /// Writes some of `bytes`: how many. A non-blocking descriptor that is full is waited for.
    package func writeWaiting(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        while true {
            do throws(Errno) {
                return try SystemCall.typed { try write(bytes) }
            } catch {
                guard error.isWouldBlock else { throw error }
                waitUntilReady(for: Int16(POLLOUT))
            }
        }
    }

    /// Everything it gives until its end. A regular file of about
    /// `sizeHint` bytes is read in one call: it reads short only at its end
    /// (`regularFile`), so no further call is made to hear that end.
    package func readAll(sizeHint: Int = 0, regularFile: Bool = false) throws(Errno) -> [UInt8] {
        // Exactly the hint and one byte to hear the end: thousands of small files are held at once.
        var bytes = [UInt8](repeating: 0, count: sizeHint > 0 ? sizeHint + 1 : 1 << 16)
        var count = 0
        while true {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
            let n = try bytes.withUnsafeMutableBytes { raw in
                let rest = UnsafeMutableRawBufferPointer(rebasing: raw[count...])
                return Result { () throws(Errno) in try readWaiting(into: rest) }
            }.get()
            if n == 0 { break }
            count += n
            if regularFile && count < bytes.count { break }
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Its first `count` bytes at most: fewer at its end, or where a read
    /// fails (a file that shrank, or went away, since it was opened).
    package func read(upTo count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw in
                (try? read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))) ?? 0
            }
            guard n > 0 else { break }
            filled += n
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Waits until it can be read or written (`POLLIN`, `POLLOUT`), or has
    /// hung up (the next call says so).
    package func waitUntilReady(for events: Int16) {
        var request = pollfd(fd: rawValue, events: events, revents: 0)
        SystemCall.retryingOnInterrupt { poll(&request, 1, -1) }
    }

    /// Waits at most `milliseconds` until it can be read: false when that
    /// time passed first. A signal ends the wait early (true: the caller's
    /// next read says what there is), so that it counts its time itself.
    package func waitUntilReadable(milliseconds: Int32) -> Bool {
        var request = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, milliseconds) != 0
    }
}

extension Errno {
    /// EAGAIN (EWOULDBLOCK): a non-blocking descriptor had nothing to give, or no room.
    package var isWouldBlock: Bool { self == .resourceTemporarilyUnavailable || self == .wouldBlock }
}
