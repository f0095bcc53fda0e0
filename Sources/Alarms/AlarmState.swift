import AgendaCore
import AgendaSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where `ics-agenda alarms` keeps the time of its last run, so that each
/// run rings what went off since the one before, and each alarm rings once.
///
/// The file holds one time. A run takes `lock()` (an exclusive `flock` on
/// `FILE.lock`, held until the run has written its time), reads the time,
/// writes its own (`write`: a new file renamed over the old, so that a run
/// killed while it writes leaves the old time whole), then rings. Two runs
/// at once take turns: the second covers the span from the first's time.
package struct AlarmState: Sendable {
    package let path: String
    /// Called between writing the new file and renaming it over the old:
    /// tests throw here to stand for a run killed while it writes.
    package var beforeRename: (@Sendable () throws -> Void)? = nil

    package init(path: String) {
        self.path = path
    }

    /// `$XDG_STATE_HOME/ics-agenda/alarms`, else `~/.local/state/ics-agenda/alarms`.
    package static func location(environment: [String: String]) -> String {
        UserFolders.state(environment: environment) + "/alarms"
    }

    /// The state file cannot be locked, read or written.
    package struct Failure: Error, CustomStringConvertible {
        package let path: String
        package let reason: String
        package var description: String { "\(path): \(reason)" }
    }

    /// The lock of one run: held until it is released or the value ends
    /// (closing the file gives the lock back, also when the run is killed).
    package final class Lock: @unchecked Sendable {
        private var descriptor: FileDescriptor?

        init(descriptor: FileDescriptor) { self.descriptor = descriptor }

        package func release() {
            try? descriptor?.close()
            descriptor = nil
        }

        deinit { release() }
    }

    /// Why the state cannot be kept at all: its path, or its lock's, holds
    /// something that is not a regular file (a FIFO, a device, a link, a
    /// folder). Such a thing is never read, locked through or replaced: a
    /// run as root with `--state /dev/null` must leave /dev/null a device.
    func refusal() -> String? {
        for (path, what) in [(path, "the state"), (path + ".lock", "its lock")] {
            guard let info = try? Stat(path, followTargetSymlink: false) else { continue }
            if info.type != .regular {
                return "\(path): \(what) is \(AlarmState.kind(of: info.type)), not a file"
            }
        }
        return nil
    }

    /// Waits until no other run holds the state, then holds it.
    package func lock() throws -> Lock {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        // Not through a link, and without waiting for a writer: a FIFO left at that name must not hold every cron run.
        do throws(Errno) {
            let descriptor = try FileDescriptor.openLockFile(path + ".lock", withoutWaiting: true)
            let lock = Lock(descriptor: descriptor)  // released if the lock cannot be had
            try descriptor.lockExclusively()
            return lock
        } catch {
            throw Failure(path: path + ".lock", reason: String(cString: strerror(error.rawValue)))
        }
    }

    /// What the file says.
    package enum Content: Equatable, Sendable {
        /// No file: the first run.
        case none
        case time(Date)
        /// Not a time this program wrote: the line and what is wrong.
        case unreadable(line: Int, reason: String)
        /// Not a regular file (a FIFO, a device, a link, a folder): never read, since
        /// reading a FIFO waits for a writer while the lock is held.
        case notAFile(String)
    }

    /// The largest state file read: what this program writes is one line and a comment.
    static let maxSize = 4096

    package func read() throws -> Content {
        let descriptor: FileDescriptor
        do throws(Errno) {
            descriptor = try FileDescriptor.openWithoutWaiting(path)
        } catch {
            if error == .noSuchFileOrDirectory { return .none }
            if error == .tooManySymbolicLinkLevels { return .notAFile("is a symbolic link, not a file") }
            throw Failure(path: path, reason: String(cString: strerror(error.rawValue)))
        }
        defer { try? descriptor.close() }
        let info: Stat, count: Int
        var buffer = [UInt8](repeating: 0, count: AlarmState.maxSize)
        do throws(Errno) {
            info = try Stat(descriptor)
            guard info.type == .regular else { return .notAFile("is \(AlarmState.kind(of: info.type)), not a file") }
            guard info.size <= AlarmState.maxSize else {
                return .notAFile("holds \(info.size) bytes, more than a state file ever does (\(AlarmState.maxSize))")
            }
            count = try buffer.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) in try descriptor.readOnce(into: raw) }
            }.get()
        } catch {
            throw Failure(path: path, reason: String(cString: strerror(error.rawValue)))
        }
        let data = buffer[..<count]
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { continue }
            guard let seconds = AlarmState.seconds(text) else {
                return .unreadable(line: index + 1, reason: "\"\(text.prefix(40))\" is not a time as this program " +
                    "writes it (2025-03-03T08:00:00Z)")
            }
            return .time(Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
        return .unreadable(line: 1, reason: "holds no time")
    }

    /// Writes `time` whole or not at all (`AtomicFile`): a crash cannot bring the old time back.
    package func write(_ time: Date) throws {
        let text = "# ics-agenda alarms: the time of the last run; alarms after it ring on the " +
            "next\n\(AlarmState.text(time))\n"
        do {
            try AtomicFile.replace(path, with: Array(text.utf8), beforeRename: beforeRename)
        } catch let failure as AtomicFile.Failure {
            throw Failure(path: failure.path, reason: String(cString: strerror(failure.code)))
        }
    }

    /// What kind of file a mode is, in words.
    static func kind(of type: FileType) -> String {
        switch type {
        case .fifo: "a FIFO"
        case .directory: "a folder"
        case .socket: "a socket"
        case .characterSpecial, .blockSpecial: "a device"
        case .symbolicLink: "a symbolic link"
        default: "a special file"
        }
    }

    /// `2025-03-03T08:00:00Z`: whole seconds, UTC.
    package static func text(_ time: Date) -> String {
        var seconds = Int(time.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(seconds) / 86400).rounded(.down))
        seconds -= days * 86400
        let date = CivilDate(daysSinceEpoch: days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = String(date.year)
        let day = "\(String(repeating: "0", count: max(0, 4 - year.count)) + year)-\(two(date.month))-\(two(date.day))"
        return "\(day)T\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))Z"
    }

    /// Seconds since 1970 of a time `text` wrote; nil for anything else.
    static func seconds(_ text: String) -> Int? {
        let parts = text.split(whereSeparator: { "-T:Z".contains($0) })
        guard text.hasSuffix("Z"), parts.count == 6, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2]),
            let hour = Int(parts[3]), let minute = Int(parts[4]), let second = Int(parts[5]),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60,
                (1970...9999).contains(year)
        else { return nil }
        return CivilDate(year: year, month: month, day: day).daysSinceEpoch * 86400 + hour * 3600 + minute * 60 + second
    }
}
