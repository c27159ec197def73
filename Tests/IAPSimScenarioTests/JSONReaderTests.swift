import IAPSimScenario
import Testing

/// The JSON reader of StoreKit files: RFC 8259 values, and where each one starts.
@Suite struct JSONReaderTests {
    static func read(_ text: String) throws(JSONSyntaxError) -> JSONNode { try JSONReader.read(Array(text.utf8)) }

    @Test func valuesAndTheirPositions() throws {
        let root = try Self.read("\u{FEFF}{\n  \"a\" : [1, -2.5e3, true, null],\n  \"é\" : \"x\"\n}")
        let a = try #require(root["a"])
        #expect(a.line == 2 && a.column == 9)
        guard case .array(let items) = a.value else { Issue.record("not an array"); return }
        #expect(items.map(\.value) == [.number("1"), .number("-2.5e3"), .bool(true), .null])
        #expect(items[1].column == 13)
        // Columns count scalars: the value after the two-byte é sits at column 9.
        #expect(root["é"]?.column == 9 && root["é"]?.line == 3)
    }

    @Test func escapesAndSurrogatePairs() throws {
        let node = try Self.read(#"["a\"b\\c\/\n\u00e9\ud83d\ude00"]"#)
        guard case .array(let items) = node.value else { Issue.record("not an array"); return }
        #expect(items.first?.value == .string("a\"b\\c/\né😀"))
    }

    @Test func refusalsSayWhereAndWhat() {
        func problem(_ text: String) -> String {
            do {
                _ = try Self.read(text)
                return "read"
            } catch {
                return "\(error.line):\(error.column): \(error.problem)"
            }
        }
        #expect(
            problem("[1,]")
                == "1:4: ']' where a value was expected: an object, an array, a string, a number, true, false or null")
        #expect(problem("{\"a\" 1}") == "1:6: '1' where ':' was expected")
        #expect(
            problem("[\"a\nb\"]")
                == "1:4: a control character (byte 0x0A) inside a string; write it escaped (\\n, \\t, \\u0000)")
        #expect(problem("[01x]") == "1:3: '1' where ',' or ']' was expected")
        #expect(problem("[\"\\ud83d\"]") == "1:9: a lone UTF-16 surrogate in a \\u escape")
        #expect(problem("[] []") == "1:4: '[' after the end of the JSON value")
        #expect(
            problem("[True]")
                == "1:2: 'T' where a value was expected: an object, an array, a string, a number, true, false or null")
    }
}
