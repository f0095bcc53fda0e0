// Every file of the command names AgendaSystem's types (and swift-system's,
// which it exports) without an import of its own: Options/ConfigFile.swift
// names `UserFolders` and `SystemCall`, and is converted to AgendaSystem's
// reading (`FileDescriptor.openForReading`, `readAll`) after the Options
// rewrite beside this change lands; then this export, and the extension
// below, give way to an import in that file.
@_exported import AgendaSystem

/// The descriptors ConfigFile.swift reads the configuration through, as
/// `Int32` (it closes them itself): AgendaSystem's reading underneath.
extension SystemCall {
    /// Opens `path` for reading (`FileDescriptor.openForReading`).
    static func openForReading(_ path: UnsafePointer<CChar>) throws(Errno) -> Int32 {
        try FileDescriptor.openForReading(path).rawValue
    }

    /// Everything `fd` gives until its end (`FileDescriptor.readAll`).
    static func readAll(_ fd: Int32) throws(Errno) -> [UInt8] {
        try FileDescriptor(rawValue: fd).readAll()
    }
}
