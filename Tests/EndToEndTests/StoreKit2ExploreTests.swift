import Foundation
import IAPSimCore
import Testing

/// `iapsim explore` and `iapsim matrix` in the StoreKit 2 world, run as a user runs them.
@Suite(.serialized) struct StoreKit2ExploreTests {
    @Test func hardenedEndsEveryRandomRunResolved() throws {
        let out = ExploreCLITests.scratch("sk2-hardened")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try CLI.run([
            "explore", "--policy", "sk2-hardened", "--runs", "1000", "--seed", "1",
            "--out", out,
        ])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("No run ended with an open or permanent anomaly"))
    }

    /// The naive StoreKit 2 app still loses, misses, is replayed against and credits the
    /// wrong account, and its server keeps refunded coins; it never sends a duplicate
    /// receipt. Each finding replays.
    @Test func naiveFindingsShrinkAndReplayAndNoneIsADuplicateReceipt() throws {
        let out = ExploreCLITests.scratch("sk2-naive")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try CLI.run([
            "explore", "--policy", "sk2-naive", "--runs", "2000", "--seed", "1",
            "--out", out,
        ])
        #expect(result.status == 1)
        for type in [
            "lost-order", "missed-order", "replay-fraud", "wrong-account", "refund-unclawed", "refund-overclawed",
        ] {
            let file = out + "/\(type).yaml"
            #expect(FileManager.default.fileExists(atPath: file), "no \(type) finding")
            let replay = try CLI.run(["run", "--quiet", file])
            #expect(replay.status == 0, "\(type): \(replay.stdout)")
            #expect(try String(contentsOfFile: file, encoding: .utf8).contains("policy: sk2-naive"))
        }
        #expect(!FileManager.default.fileExists(atPath: out + "/duplicate-receipt.yaml"))
    }

    @Test func matrixPrintsTheTwoStoreKit2Rows() throws {
        let result = try CLI.run(["matrix", "--runs", "200", "--seed", "1", "--storekit", "2"])
        #expect(result.status == 0)
        let rows = result.lines.filter { $0.hasPrefix("| sk2-") }
        #expect(rows.count == 2 && rows[0].hasPrefix("| sk2-naive |") && rows[1].hasPrefix("| sk2-hardened |"))
        // One column per anomaly type of the simulated world, every one 0% under sk2-hardened.
        #expect(
            rows.last == "| sk2-hardened |" + String(repeating: " 0% |", count: AnomalyType.simulatedWorld.count))
        // StoreKit 2 has no pairing by position: no duplicate receipt, even naive.
        #expect(rows[0].split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }[4] == "0%")
        #expect(!result.lines.contains { $0.hasPrefix("| naive |") })
    }
}
