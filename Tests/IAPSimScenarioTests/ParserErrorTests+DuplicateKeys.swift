import IAPSimCore
import IAPSimScenario
import Testing

/// A key may appear once in a map: where each duplicate is placed, short maps and long.
extension ParserErrorTests {
    @Test func duplicateKeyPointsAtTheSecondOne() {
        #expect(
            refusal("format: 1\ntitle: a\nsteps: []\ntitle: b\n")
                == "s.yaml:4:1: duplicate key 'title' (first at line 2, column 1); "
                + "each key may appear once in a map")
        #expect(
            refusal(head + "  - do: crash\n    say: a\n    do: launch\n")
                == "s.yaml:7:5: duplicate key 'do' (first at line 5, column 5); "
                + "each key may appear once in a map")
        #expect(
            refusal("format: 1\ntitle: t\npolicy: {preset: naive, preset: naive}\nsteps: []\n")
                == "s.yaml:3:25: duplicate key 'preset' (first at line 3, column 10); "
                + "each key may appear once in a map")
    }

    @Test func duplicateKeysThatYamsLetsThroughAreCaught() {
        // `1` and "1" resolve to different tags, so Yams keeps both; the text is the same.
        #expect(
            refusal("format: 1\ntitle: t\nsteps: []\n1: a\n\"1\": b\n")
                == "s.yaml:5:1: duplicate key '1' (first at line 4, column 1); "
                + "each key may appear once in a map")
    }

    /// The message for a second key `1` (written `"1"`) at `line`, the first at `first`.
    func secondOne(at line: Int, first: Int) -> String {
        "s.yaml:\(line):1: duplicate key '1' (first at line \(first), column 1); each key may appear once in a map"
    }

    @Test func aDuplicateIsCaughtInALongMapAsInAShortOne() {
        // A map of 16 keys or more is searched through a table, a shorter one in place: the
        // same duplicate gives the same message either way.
        let others = (1...20).map { "k\($0): v\n" }.joined()
        #expect(
            refusal("format: 1\ntitle: t\nsteps: []\n1: a\n" + others + "\"1\": b\n") == secondOne(at: 25, first: 4))
        #expect(
            refusal("format: 1\ntitle: t\nsteps: []\n" + others + "1: a\n\"1\": b\n") == secondOne(at: 25, first: 24))
    }

    /// A map's keys are looked up among its entries while it has fewer than 16: a duplicate
    /// is caught wherever the two are among them (16 and more: the test above).
    @Test func duplicateKeysInAShortMapAreCaughtWhereverTheyAre() {
        let more = "a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\n"
        #expect(refusal("format: 1\n1: a\ntitle: t\nsteps: []\n" + more + "\"1\": b\n") == secondOne(at: 11, first: 2))
        #expect(refusal("format: 1\ntitle: t\nsteps: []\n" + more + "1: a\n\"1\": b\n") == secondOne(at: 11, first: 10))
        #expect(
            refusal("format: 1\ntitle: t\nsteps: []\n" + more + "g: 7\n1: a\nh: 8\n\"1\": b\n")
                == secondOne(at: 13, first: 11))
    }

    @Test func duplicateKeyThatCannotBeLocatedIsReportedAtTheFirst() {
        #expect(
            refusal("format: 1\n? title\n: a\n? title\n: b\nsteps: []\n")
                == "s.yaml:2:3: duplicate key 'title'; each key may appear once in a map")
    }
}
