import Foundation
import IAPSimCore
import IAPSimScenario
import Testing

/// Round 4 (issue 51): every file reader has the same bounds (`FileLimits`), refused where a
/// file passes one, and reads in time linear in its input.
@Suite struct HostileRound4ReaderTests {
    /// A StoreKit file whose top object holds `keys` keys `k0`, `k1`, ... on one line.
    static func wide(_ keys: Int) -> [UInt8] {
        var text = "{"
        for k in 0..<keys { text += (k == 0 ? "" : ",") + "\"k\(k)\":1" }
        return Array((text + "}").utf8)
    }

    static func catalogRefusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try StoreKitFile.parse(bytes: bytes, file: "P.storekit")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func anObjectOfMoreThanAThousandKeysIsRefusedAtItsThousandAndFirst() {
        let message = Self.catalogRefusal(Self.wide(250_000))
        // Key 1,001 ("k1000") starts after `{` and 1,000 members `"kN":1,`.
        let column = 2 + (0..<1_000).reduce(0) { $0 + "\"k\($1)\":1,".utf8.count }
        #expect(
            message
                == "P.storekit:1:\(column): too large for a StoreKit configuration file: an object of more than "
                + "1,000 keys; the limit is 1,000")
        // A thousand keys are read (and then judged as a catalog).
        #expect(Self.catalogRefusal(Self.wide(1_000))?.contains("more than 1,000 keys") == false)
    }

    @Test func aKeyWrittenTwiceIsFoundInASetAtEveryPlace() throws {
        var text = "{"
        for k in 0..<999 { text += "\"k\(k)\":1," }
        text += "\"k998\":2}"
        do {
            _ = try JSONReader.read(Array(text.utf8))
            Issue.record("read")
        } catch {
            #expect(error.problem == "the key \"k998\" is written twice in one object")
            #expect(error.line == 1 && error.column == text.utf8.count - 8)
        }
    }

    @Test func moreThanTwoHundredThousandValuesAreRefusedWhereTheyPassIt() {
        let items = Array(repeating: "0", count: 250_000).joined(separator: ",")
        let message = Self.catalogRefusal(Array("[\(items)]".utf8)) ?? ""
        // Value 200,001 is the array's 200,000th item: at column 2 + 199,999 * 2.
        #expect(
            message
                == "P.storekit:1:\(2 + 199_999 * 2): too large for a StoreKit configuration file: more than "
                + "200,000 values (objects, arrays, keys and texts); the limit is 200,000")
    }

    @Test func theJSONReaderNestsAsDeepAsTheYAMLReader() {
        #expect(JSONReader.maxDepth == FileLimits.maxDepth && FileLimits.maxDepth == 1_000)
        let ok = String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000)
        #expect((try? JSONReader.read(Array(ok.utf8))) != nil)
    }

    /// `--grants FILE` is held to `grants:`'s bound: a map of 1,000 keys at most.
    @Test func aGrantsFileOfMoreThanAThousandKeysIsRefusedAtOnce() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("iapsim-grants-\(getpid()).yaml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = (0..<250_000).map { "p\($0): 1 coins\n" }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try Grant.load(path: path, catalog: .standard)
            Issue.record("loaded")
        } catch {
            #expect(
                error.description
                    == "\(path):1001:1: YAML not accepted in a grants file: a map of more than 1000 keys; "
                    + "a grants file needs at most 1000")
        }
        // The same map in a scenario is refused by the same bound.
        let scenario = "format: 1\ntitle: t\ngrants:\n" + (0..<1_001).map { "  p\($0): 1 coins\n" }.joined()
        #expect(refusal(scenario)?.contains("a map of more than 1000 keys") == true)
    }
}
