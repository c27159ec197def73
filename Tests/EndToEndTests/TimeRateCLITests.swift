import Foundation
import Testing

/// A `.storekit` file's `_timeRate` through the real binary (issue 54 item 6): `iapsim catalog`
/// names the rate as StoreKit Test does, `run` renews at it (payload dates verified by
/// Apple's library), explore compresses its long waits with it, a value StoreKit Test has not
/// is refused at its line and column.
@Suite(.serialized) struct TimeRateCLITests {
    static let scenario = "Tests/Fixtures/storekit/time-rate-sk2.yaml"
    static let catalog = "Tests/Fixtures/storekit/time-rate.storekit"

    @Test func catalogNamesTheRateAndNoLongerCallsItNotModelled() throws {
        let result = try CLI.run(["catalog", Self.catalog])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "time rate monthlyRenewalEveryFifteenMinutes (a week lasts 5m, a month 15m, a year 3h; "
                    + "16-day grace 7m30s, billing retry 30m)"), "\(result.stdout)")
        #expect(result.stdout.contains("_timeRate 12 (monthlyRenewalEveryFifteenMinutes)"))
        let notModelled = try #require(result.lines.first { $0.hasPrefix("not modelled: ") })
        #expect(!notModelled.contains("imeRate") && !notModelled.contains("time rate"), "\(notModelled)")
    }

    @Test func anUnknownRateIsRefusedAtItsLineAndColumnWithTheAcceptedOnes() throws {
        let text = try String(contentsOfFile: CLI.root.path + "/" + Self.catalog, encoding: .utf8)
            .replacingOccurrences(of: "\"_timeRate\" : 12", with: "\"_timeRate\" : 7")
        let file = CLI.temporaryFile("rate7.storekit")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try CLI.run(["catalog", file])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "rate7.storekit:89:19: \"_timeRate\" is 7; the time rates (SKTestSession.TimeRate) are 0 realTime, "
                    + "1 oneHourIsOneDay, 2 thirtyMinutesIsOneDay"), "\(result.stderr)")
        #expect(result.stderr.contains("1005 oneRenewalEveryTwoSeconds"))
    }

    /// The header names the rate; the trial lasts 3/7 of the 5-minute week, each renewal
    /// comes 5 minutes after the one before, grace lasts 4m17s and billing retries every 30 s.
    @Test func runRenewsAtTheRateAndSaysSo() throws {
        let result = try CLI.run(["run", Self.scenario])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("prices in GBP, time rate monthlyRenewalEveryFifteenMinutes;"))
        let renewals = result.lines.filter { $0.contains("App Store        pass_weekly of alice renewed") }
        #expect(renewals.count >= 10)
        #expect(renewals.first?.hasPrefix("0:02:10.731") == true, "\(renewals)")
        #expect(renewals.dropFirst().first?.hasPrefix("0:07:10.731") == true, "\(renewals)")
        #expect(result.stdout.contains("failed to renew: status 4 grace, grace until 2026-01-01T00:26:27Z"))
        #expect(result.stdout.contains("0:22:40.731  App Store        billing retry 1 of"))
        #expect(
            result.stdout.contains(
                "recovered from billing retry (1000000000006), 1.99: status 1 active, expires 2026-01-01T00:27:10Z"))
    }

    /// Apple's library decodes each pass_weekly transaction's `expiresDate`: the trial's end
    /// (3/7 of 5 minutes after the purchase), then 5 minutes more per period.
    @Test(.enabled(if: SignedVerificationTests.applePython != nil, SignedVerificationTests.skipReason))
    func theCompressedDatesAreWhatApplesLibraryDecodes() throws {
        let python = try #require(SignedVerificationTests.applePython)
        var periods = 0
        let judged = try SignedVerificationTests.judge(
            Self.scenario, python: python, store: ["currency": "GBP", "storefront": "GBR", "storefrontId": "143444"]
        ) { lines in
            var first: Int?
            var seen: [String: Int] = [:]
            return lines.map { line in
                guard var object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    object["notificationType"] == nil, object["productId"] as? String == "pass_weekly",
                    let id = object["transactionId"] as? String, let bought = object["purchaseDate"] as? Int
                else { return line }
                if first == nil { first = bought }
                let k = seen[id] ?? seen.count
                seen[id] = k
                periods = seen.count
                object["expiresDate"] = first! + 3 * 300_000 / 7 + 300_000 * k
                return (try? SignedVerificationTests.json(object)) ?? line
            }
        }
        #expect(judged.verifier.status == 0, "\(judged.verifier.stdout)\(judged.verifier.stderr)")
        #expect(periods >= 10)
        #expect(judged.verifier.stdout.hasSuffix("\(judged.expected.count) passed, 0 failed\n"))
    }

    /// Explore over the catalog: its long waits are a month's share of 15 minutes, so runs
    /// renew as often as with the real calendar, and sk2-hardened stays clean.
    @Test func exploreOverTheCatalogRunsCleanUnderSk2Hardened() throws {
        let out = CLI.temporaryFile("time-rate-explore")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try CLI.run([
            "explore", "--policy", "sk2-hardened", "--storekit", Self.catalog, "--runs", "300", "--seed", "2",
            "--out", out, "--json",
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let events = try #require(object["events"] as? Int)
        // 300 runs with real-calendar waits at a 5-minute week would renew millions of times.
        #expect(events < 2_000_000, "\(events)")
    }
}
