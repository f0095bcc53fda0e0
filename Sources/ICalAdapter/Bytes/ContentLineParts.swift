/// One unfolded content line (`ContentLine.unfolded`), cut into name, parameters and value
/// (RFC 5545 3.1: parameter values may be quoted, and a quoted one may hold
/// `;` and `:`).
struct ContentLineParts {
    let name: [UInt8]
    let parameters: [[UInt8]]
    let value: [UInt8]

    init?(_ bytes: [UInt8]) {
        var i = 0
        while i < bytes.count, bytes[i] != 0x3B, bytes[i] != 0x3A { i += 1 }
        guard i < bytes.count, i > 0 else { return nil }
        name = Array(bytes[..<i])
        var parameters: [[UInt8]] = []
        var quoted = false
        var start = i + 1
        if bytes[i] == 0x3B {
            i += 1
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x22 { quoted.toggle() }
                if !quoted && (b == 0x3B || b == 0x3A) {
                    parameters.append(Array(bytes[start..<i]))
                    start = i + 1
                    if b == 0x3A { break }
                }
                i += 1
            }
            guard i < bytes.count else { return nil }  // no value: libical says so
        }
        self.parameters = parameters
        value = Array(bytes[start...])
    }
}
