/// An output that takes UTF-8 bytes as they are, without making a String
/// of them first: the JSON formatter writes hundreds of thousands of lines.
package protocol ByteOutputStream: TextOutputStream {
    mutating func write(bytes: UnsafeBufferPointer<UInt8>)
}

extension String: ByteOutputStream {
    package mutating func write(bytes: UnsafeBufferPointer<UInt8>) {
        self += String(decoding: bytes, as: UTF8.self)
    }
}
