import Foundation
import IAPSimStoreKit
import PurchaseManager
import Testing

/// The verdict's what-if (caused by, prevented by, saved by), found by replaying the run's
/// inputs with the app's own code, in the words `iapsim run` prints them.
@Suite struct WhatIfTests {
    static let buy: @Sendable (PurchaseManager) async throws -> Void = { _ = try await $0.buy("coins_100") }

    /// A planted bug's anomaly is explained: the fault without which it does not open, and
    /// the server setting that would have saved the order anyway; the store is left as the
    /// run left it.
    @Test func aPlantedBugsAnomalyNamesItsCauseAndItsFix() async throws {
        let (store, _) = try await launched(.listenerOnStoreScreen)
        let steps = ["interrupt-next-payment", "buy", "wait 10s", "crash", "launch"]
        let played = try await store.play(steps, seed: 1, as: PurchaseManager.self, user: Self.buy)
        let verdict = await store.verdict()
        let lost = try #require(verdict.unresolved.first, "\(verdict)")
        #expect(lost.type == "lost-order")
        #expect(lost.causedBy == "caused by: step 1: interrupt-next-payment", "\(verdict)")
        #expect(lost.preventedBy == "prevented by: server-notifications true", "\(verdict)")
        #expect(verdict.lines.contains("    caused by: step 1: interrupt-next-payment"), "\(verdict)")
        #expect(verdict.lines.contains("    prevented by: server-notifications true"), "\(verdict)")
        // The replays changed nothing: the same verdict again, and the run's own without what-if.
        #expect(await store.verdict().lines == verdict.lines)
        #expect(played.anomalies.map(\.summary) == verdict.anomalies.map(\.summary))
        #expect(played.lines.allSatisfy { !$0.contains("caused by") })
    }

    /// Finishing before the server's answer opens a missed order at every purchase (it is
    /// resolved when the report lands): it opens without any fault, but the lost request is
    /// what makes it end badly, and the verdict names it (issue 49: a reproduction holding
    /// `drop-next-request recharge` and `crash` said "no injected input").
    @Test func finishingBeforeTheAnswerOpensAMissedOrderThatTheLostRequestMakesPermanent() async throws {
        let (store, _) = try await launched(.finishBeforeAnswer)
        let steps = ["drop-next-request recharge", "buy", "wait 3s", "crash", "launch"]
        _ = try await store.play(steps, seed: 1, as: PurchaseManager.self, user: Self.buy)
        let verdict = await store.verdict()
        let missed = try #require(verdict.unresolved.first, "\(verdict)")
        #expect(missed.type == "missed-order")
        #expect(missed.causedBy == "caused by: step 1: drop-next-request recharge", "\(verdict)")
        #expect(verdict.lines.allSatisfy { !$0.contains("no injected input") }, "\(verdict)")
        #expect(missed.preventedBy == "prevented by: server-notifications true", "\(verdict)")
    }

    /// The same run made by hand (`perform`, `user(app)`) is explained as `play`'s is: its
    /// inputs are replayed with the app each replay launches.
    @Test func aRunMadeByHandIsExplainedAsPlaysIs() async throws {
        let verdict = try await Self.byHand { store, app in await store.user(app) { try await $0.buy("coins_100") } }
        let lost = try #require(verdict.unresolved.first, "\(verdict)")
        #expect(lost.causedBy == "caused by: step 1: interrupt-next-payment", "\(verdict)")
        #expect(lost.preventedBy == "prevented by: server-notifications true", "\(verdict)")
    }

    /// A `user { }` action holds an app object of its own process: the verdict says why it
    /// has no what-if instead of inventing one.
    @Test func aClosureOverTheAppIsNotReplayedAndTheVerdictSaysSo() async throws {
        let verdict = try await Self.byHand { store, app in await store.user { try await app.buy("coins_100") } }
        let lost = try #require(verdict.unresolved.first, "\(verdict)")
        #expect(lost.causedBy == nil && lost.preventedBy == nil)
        #expect(verdict.lines.contains { $0.contains("a `user { }` action cannot be replayed") }, "\(verdict)")
    }

    /// The listener bug's run of `aPlantedBugsAnomalyNamesItsCauseAndItsFix`, made by hand:
    /// `purchase` is the user's buy; the verdict at the end.
    static func byHand(_ purchase: (SimulatedStore, PurchaseManager) async -> Void) async throws -> Verdict {
        let (store, app) = try await launched(.listenerOnStoreScreen)
        try await store.perform("interrupt-next-payment")
        await purchase(store, app)
        for line in ["wait 10s", "crash", "launch"] { try await store.perform(line) }
        try await store.heal()
        await store.settle()
        return await store.verdict()
    }

    /// The same steps, given to `iapsim run` with a model app that sends a token as the
    /// example does, print the same anomaly and the same what-if lines (`run` adds the
    /// file's line numbers). The example against a server without dedup: a replayed report
    /// is credited again; dedup or binding the order to the token prevents it.
    @Test func theWhatIfLinesAreTheOnesRunPrintsForTheSameSteps() async throws {
        let (store, _) = try await launched(server: .naive)
        let steps = ["buy", "wait 5s", "replay"]
        _ = try await store.play(steps, seed: 1, as: PurchaseManager.self, user: Self.buy)
        let harness = Self.anomalyBlock(await store.verdict().lines)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("whatif-\(UUID()).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        let yaml = """
            format: 1
            title: the harness's steps
            policy: {preset: sk2-naive, account-token: true}
            users: [alice]
            steps:
              - do: buy coins_100
              - do: wait 5s
              - do: replay

            """
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let run = try Self.iapsim(["run", file.path])
        let printed = Self.anomalyBlock(run).map {
            $0.replacingOccurrences(of: #" \(line \d+\)"#, with: "", options: .regularExpression)
        }
        #expect(harness.contains("    caused by: step 3: replay"), "\(harness)")
        #expect(harness.contains("    prevented by: server-dedup true | server-bind-order true"), "\(harness)")
        #expect(
            harness == printed, "harness:\n\(harness.joined(separator: "\n"))\nrun:\n\(run.joined(separator: "\n"))")
    }

    /// The lines from `anomalies:` up to the glossary.
    static func anomalyBlock(_ lines: [String]) -> [String] {
        guard let start = lines.firstIndex(of: "anomalies:") else { return [] }
        let rest = lines[start...]
        return Array(rest.prefix { $0 != "glossary:" && !$0.hasPrefix("balances:") })
    }

    /// Runs the `iapsim` built beside the tests (or `IAPSIM_BIN`); its standard output's lines.
    static func iapsim(_ arguments: [String]) throws -> [String] {
        let process = Process()
        if let path = ProcessInfo.processInfo.environment["IAPSIM_BIN"] {
            process.executableURL = URL(fileURLWithPath: path)
        } else {
            var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            while directory.path.contains(".xctest") { directory.deleteLastPathComponent() }
            process.executableURL = directory.appendingPathComponent("iapsim")
        }
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
    }
}
