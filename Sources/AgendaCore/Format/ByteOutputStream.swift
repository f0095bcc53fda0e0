/// An output that takes UTF-8 bytes as they are, without making a String
/// of them first: the JSON formatter writes hundreds of thousands of lines.
public protocol ByteOutputStream: TextOutputStream {
    mutating func write(bytes: UnsafeBufferPointer<UInt8>)
}

extension String: ByteOutputStream {
    public mutating func write(bytes: UnsafeBufferPointer<UInt8>) {
        self += String(decoding: bytes, as: UTF8.self)
    }
}
