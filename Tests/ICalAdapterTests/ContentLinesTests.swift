import Testing

@testable import ICalAdapter

/// The lexer every pre-parse stage reads lines with: logical lines, their
/// first physical line's number, folds of a space or a tab, any line end.
@Suite struct ContentLinesTests {
    struct Read: Equatable, CustomStringConvertible {
        let number: Int
        let first: String
        let unfolded: String
        let physicalLines: Int
        var description: String { "\(number) \(physicalLines) \(first.debugDescription) \(unfolded.debugDescription)" }
    }

    static func lines(_ text: String, firstLine: Int = 1) -> [Read] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            ContentLines(buffer, firstLine: firstLine).map { line in
                Read(number: line.number, first: String(decoding: line.firstText(in: buffer), as: UTF8.self),
                    unfolded: String(decoding: line.unfolded(in: buffer), as: UTF8.self),
                        physicalLines: line.physicalLines)
            }
        }
    }

    @Test func foldsOfASpaceOrATabJoinTheLineBefore() {
        let read = ContentLinesTests.lines("BEGIN:VEVENT\r\nSUMMARY:a\r\n  b\r\n\tc\r\nUID:1\r\nEND:VEVENT\r\n")
        #expect(read == [
            Read(number: 1, first: "BEGIN:VEVENT", unfolded: "BEGIN:VEVENT", physicalLines: 1),
            Read(number: 2, first: "SUMMARY:a", unfolded: "SUMMARY:a bc", physicalLines: 3),
            Read(number: 5, first: "UID:1", unfolded: "UID:1", physicalLines: 1),
            Read(number: 6, first: "END:VEVENT", unfolded: "END:VEVENT", physicalLines: 1),
        ])
    }

    /// A fold inside a name or inside `BEGIN:VEVENT` is one line all the same.
    @Test func aFoldInsideANameOrAKeywordIsOneLine() {
        let read = ContentLinesTests.lines("BEG\n IN:VEV\n ENT\nDT\n START:20250301\nEND:VEVENT")
        #expect(read.map(\.unfolded) == ["BEGIN:VEVENT", "DTSTART:20250301", "END:VEVENT"])
        #expect(read.map(\.number) == [1, 4, 6])
    }

    /// LF alone, CRLF, no line end at the end, an empty line, and a first
    /// line that starts with a blank (nothing before it to fold onto).
    @Test func lineEndsAndEdges() {
        #expect(ContentLinesTests.lines("") == [])
        #expect(ContentLinesTests.lines("A:1").map(\.first) == ["A:1"])
        #expect(ContentLinesTests.lines("A:1\n\nB:2\r\n").map(\.first) == ["A:1", "", "B:2"])
        #expect(ContentLinesTests.lines(" X:1\nB:2", firstLine: 10)
            .map(\.description) == ["10 1 \" X:1\" \" X:1\"", "11 1 \"B:2\" \"B:2\""])
        // A fold on the last line, without a line end.
        #expect(ContentLinesTests.lines("A:1\n 2").map(\.unfolded) == ["A:12"])
    }

    /// Blank lines between a line and its fold do not end it (as the repairs
    /// hand the text to libical); blank lines before a line that is no fold do.
    @Test func blankLinesBeforeAFoldAreNoEnd() {
        let read = ContentLinesTests.lines("UID:abc\r\n\r\n def\r\nA:1\n\nB:2\n")
        #expect(read.map(\.unfolded) == ["UID:abcdef", "A:1", "", "B:2"])
        #expect(read.map(\.number) == [1, 4, 5, 6])
        #expect(read.first?.physicalLines == 3)
    }

    /// Only the CR before each line feed is a line end's: one inside a line
    /// stays, folded or not.
    @Test func aCarriageReturnInsideALineStays() {
        #expect(ContentLinesTests.lines("SEQUENCE:1\r2\r\n 3\r\nX:\r\r\n").map(\.unfolded) == ["SEQUENCE:1\r23", "X:\r"])
        #expect(ContentLinesTests.lines("A:1\r\n 2").map(\.unfolded) == ["A:12"])
    }

    @Test func aRangeIsReadAlone() {
        let bytes = Array("X:0\nA:1\n 2\nB:3\n".utf8)
        let read = bytes.withUnsafeBufferPointer { buffer in
            ContentLines(buffer, in: 4..<11, firstLine: 2).map { String(decoding: $0.unfolded(in: buffer),
                as: UTF8.self) }
        }
        #expect(read == ["A:12"])
    }

    @Test func unfoldedNeighboursCrossFolds() {
        let bytes = Array("TRIG\r\n GER:\n\t\n X".utf8)
        bytes.withUnsafeBufferPointer { text in
            // After the G of TRIG comes the G of GER (past CR LF and a blank).
            #expect(ContentLines.unfoldedByte(after: 3, in: text) == 7)
            #expect(ContentLines.unfoldedByte(before: 7, in: text) == 3)
            // After the colon: a fold of one blank, then a fold: X.
            #expect(ContentLines.unfoldedByte(after: 10, in: text) == 15)
            #expect(ContentLines.unfoldedByte(after: 15, in: text) == nil)
            #expect(ContentLines.unfoldedByte(before: 0, in: text) == nil)
        }
    }

    @Test func lineBreaksAreFoldsOrEnds() {
        let bytes = Array("a\r\n b\rc\n\td\ne".utf8)
        bytes.withUnsafeBufferPointer { text in
            #expect(ContentLines.lineBreak(text, at: 1) == (4, true))
            #expect(ContentLines.lineBreak(text, at: 5) == (6, false))
            #expect(ContentLines.lineBreak(text, at: 7) == (9, true))
            #expect(ContentLines.lineBreak(text, at: 10) == (11, false))
        }
    }

    @Test func namesInAnyCaseBeforeAColonOrParameters() {
        func has(_ line: String, _ name: StaticString) -> Bool {
            Array(line.utf8).withUnsafeBufferPointer { ContentLines.hasName($0, name) }
        }
        #expect(has("dtstart;TZID=X:1", "DTSTART"))
        #expect(has("DtStart:1", "DTSTART"))
        #expect(!has("DTSTARTX:1", "DTSTART"))
        #expect(!has("DTSTART", "DTSTART"))
        #expect(has("x-lic-error:1", "X-LIC-ERROR"))
    }
}
