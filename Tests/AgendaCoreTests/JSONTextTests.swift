@testable import AgendaCore
import Foundation
import Testing

/// A JSON string read back is the text written, and its bytes hold no
/// raw control, DEL, C1 control or line separator, wherever in the text
/// (before, across and after the eight-byte words of the plain prefix) it
/// stands.
@Suite struct JSONTextTests {
    static let pieces = ["a", "Standup ", "\"", "\\", "\n", "\r", "\t", "\u{1}", "\u{7F}", "é", "\u{2028}",
        "\u{2029}", "\u{85}", "\u{9F}", "\u{A0}", "€", "🙂", "/"]

    @Test func everyStringReadsBackAndStaysOneLine() throws {
        var seed: UInt64 = 7
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        for _ in 0..<3_000 {
            // Mostly plain text, a special piece at a random place.
            var text = String(repeating: "x", count: next(24))
            for _ in 0..<next(4) { text += JSONTextTests.pieces[next(JSONTextTests.pieces.count)] }
            text += String(repeating: "y", count: next(12))
            let quoted = JSONText.quote(text)
            let read = try JSONSerialization.jsonObject(with: Data(quoted.utf8), options: .fragmentsAllowed)
            #expect(read as? String == text, "\(Array(text.unicodeScalars))")
            let bytes = Array(quoted.utf8)
            #expect(!bytes.contains { $0 < 0x20 || $0 == 0x7F }, "\(quoted)")
            let raw = zip(bytes, bytes.dropFirst()).contains { $0 == 0xC2 && (0x80...0x9F).contains($1) }
                || quoted.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" }
            #expect(!raw, "\(quoted)")
        }
    }

    @Test func plainTextIsTakenEightBytesAtATime() {
        let plain = Array("Weekly planning, room 4 (bring notes)".utf8)
        #expect(plain.withUnsafeBufferPointer { JSONText.plainPrefix($0) } == plain.count / 8 * 8)
        for (special, at) in [(0x22, 13), (0x5C, 8), (0x0A, 0), (0x7F, 21), (0xC3, 30)] {
            var bytes = plain
            bytes[at] = UInt8(special)
            #expect(bytes.withUnsafeBufferPointer { JSONText.plainPrefix($0) } == at / 8 * 8, "\(special) at \(at)")
        }
    }
}
