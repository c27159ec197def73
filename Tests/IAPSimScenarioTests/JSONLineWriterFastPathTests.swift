import IAPSimCore
import Testing

@testable import IAPSimScenario

/// The `--log` writer's fast paths (issue 34, item 9, round 3) against the plain way of
/// writing the same bytes: a line's start copied from the line before when the time is the
/// same, integers two digits at a time, the `kind` and `part` members made once, a string's
/// bytes read in place. Each test fails if a fast path writes one byte differently.
@Suite struct JSONLineWriterFastPathTests {
    /// `t` and `clock` as the reflection wrote them: `String(t)` and `DurationText.clock`.
    static func start(_ t: VirtualTime) -> String {
        #"{"t":\#(t),"clock":"\#(DurationText.clock(t))""#
    }

    static let times: [VirtualTime] = [
        0, 0, 1, 1, 1, 9, 10, 99, 100, 999, 1000, 59_999, 60_000, 3_599_999, 3_600_000, 3_600_000,
        36_000_000_000, 36_000_000_000, -1, -1, -86_400_001, .max, .max, .min, .min, 0, 12_345_678_901_234,
    ]

    @Test func aLineStartsAsTheReflectionWroteItWhetherItsTimeIsNewOrRepeated() {
        let out = JSONLineWriter(capacity: 64)
        var expected = ""
        for t in Self.times {
            JSONLinesExport.write(.settled(time: t, complete: t % 2 == 0), to: out)
            expected += Self.start(t) + #","kind":"settled","complete":\#(t % 2 == 0)}"# + "\n"
        }
        #expect(out.text == expected)
    }

    @Test func everyShippedScenarioLogsTheSameBytesThroughOneWriterAsThroughOneWriterPerLine() throws {
        for path in FactFieldsWriterTests.scenarios {
            let records = ScenarioPlayer.run(try ScenarioParser.load(path: path)).records
            let lines = records.compactMap { JSONLinesExport.line($0).map { $0 + "\n" } }.joined()
            #expect(JSONLinesExport.text(records) == lines, "\(path)")
        }
    }

    @Test func integersAreWrittenAsStringWritesThem() {
        var values: [Int] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 65_536, .max, .min, .max - 1, .min + 1]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
        }
        var generator = SplitMix64(seed: 34)
        for _ in 0..<2000 { values.append(Int(bitPattern: UInt(generator.next()) >> (generator.next() % 64))) }
        for value in values { #expect(JSONValue.int(value).text == String(value)) }
    }

    /// Keys of one character (a literal that may be held as a scalar) and of more.
    @Test func keysOfAnyLengthAreWrittenQuoted() {
        let out = JSONLineWriter(capacity: 64)
        out.add("x", 1)
        out.add("id", 2)
        out.add("abcdefghijklmnopq", 3)
        #expect(out.text == #","x":1,"id":2,"abcdefghijklmnopq":3"#)
    }

    @Test func theKindAndPartMembersAreWhatKeyAndQuoteWrite() {
        let members = JSONLineMembers.shared
        for kind in Fact.Kind.allCases {
            let made = String(decoding: members.kind(kind), as: UTF8.self)
            #expect(made == #","kind":"# + JSONValue.quoted(JSONLineWriter.kindNames[Int(kind.rawValue)]))
        }
        for part in Part.allCases {
            let out = JSONLineWriter(capacity: 64)
            out.add(part: part)
            #expect(out.text == #","part":"# + JSONValue.quoted(part.rawValue))
        }
    }

    /// Strings small (their bytes on the stack), native or from a substring, plain or not:
    /// quoted as scalar by scalar (`FactFieldsWriterTests.quotedByScalars`).
    @Test func stringsSmallAndLargePlainOrNotAreQuotedAsScalarByScalar() {
        let pieces = [
            "", "a", "ab", "abc", "abcd", "abcdefg", "abcdefgh", "fifteen bytes!!", "sixteen bytes!!!",
            "quote\"", "back\\slash", "tab\t", "nul\u{0}", "del\u{7F}", "c1\u{85}", "é", "日本",
            "bidi\u{202E}x", "sep\u{2028}", "emoji 🧾", "\u{1F}", "~", " ",
        ]
        var strings = pieces
        for a in pieces { for b in pieces.prefix(8) { strings.append(a + b + a) } }
        strings.append(String(repeating: "0444db3f-6038-4528-a75d-426c5f198db3 ", count: 40))
        strings.append(String(repeating: "x", count: 300) + "\u{202E}" + String(repeating: "y", count: 9))
        for s in strings {
            #expect(JSONValue.quoted(s) == FactFieldsWriterTests.quotedByScalars(s), "\(Array(s.utf8))")
            // A substring's string (not small, not from a literal) goes the same way.
            let copy = String(("<" + s + ">").dropFirst().dropLast())
            #expect(JSONValue.quoted(copy) == FactFieldsWriterTests.quotedByScalars(s))
        }
    }
}
