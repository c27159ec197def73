import Foundation
import IAPSimCore
import IAPSimScenario
import Testing

/// The scenario format's worked example (Tests/Fixtures/format-example.yaml; the keys are those
/// of docs/scenario-format.md), kept byte for byte as the contract gave it.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }
}

@Suite struct FormatExampleTests {
    @Test func formatExampleParsesToTheScenarioItDescribes() throws {
        let scenario = try ScenarioParser.load(path: Fixtures.path("format-example.yaml"))
        #expect(scenario.title == "Crash while the App Store charges, observer registered at launch")
        #expect(
            scenario.story == """
                Alice buys 100 coins. The App Store charges her, but the app is killed before
                paymentQueue(_:updatedTransactions:) runs. On the next launch the observer is
                registered first thing, the unfinished transaction is delivered again, and the
                coins arrive.

                """)
        #expect(scenario.preset == .hardened)
        #expect(scenario.policy == PolicyPreset.hardened.policy)
        #expect(scenario.seed == 7)
        #expect(scenario.users == ["alice", "bob"])
        #expect(scenario.app == .running)
        #expect(
            scenario.steps == [
                Step(.after(0), .buy(product: "coins_100"), say: "Alice taps \"Buy 100 coins\"."),
                Step(
                    .when(.charged, within: 600_000), .crash,
                    say: "The app dies right after the charge, before the callback."),
                Step(.after(60_000), .launch, say: "A minute later Alice opens the app again."),
            ])
        #expect(scenario.steps.map(\.line) == [12, 14, 17])
        #expect(scenario.steps.map(\.column) == [5, 5, 5])
        #expect(
            scenario.expect
                == Expectations(
                    charged: 1, credited: ["alice": 100],
                    anomalies: [AnomalyExpectation(type: .lostOrder, status: .resolved)],
                    unresolved: 0))
    }

    @Test func defaultsApplyWhenOptionalKeysAreAbsent() throws {
        let scenario = try ScenarioParser.parse(
            text: "format: 1\ntitle: t\nsteps:\n  - do: launch\n", file: "t.yaml")
        #expect(scenario == Scenario(title: "t", steps: [Step(.after(0), .launch)]))
        #expect(scenario.seed == 1)
        #expect(scenario.users == ["alice"])
        #expect(scenario.preset == .hardened)
        #expect(scenario.app == .running)
        #expect(scenario.story == nil)
        #expect(scenario.expect.isEmpty)
    }

    @Test func policyMapStartsFromItsPresetAndAppliesOverrides() throws {
        let scenario = try ScenarioParser.parse(
            text: """
                format: 1
                title: t
                policy: {observer: launch, preset: naive, resend-on: [launch, network]}
                app: not-running
                steps: []
                """, file: "t.yaml")
        var expected = PolicyPreset.naive.policy
        expected.observer = .launch
        expected.resendOn = [.launch, .network]
        #expect(scenario.preset == .naive)
        #expect(scenario.policy == expected)
        #expect(scenario.app == .notRunning)
    }

    @Test func policyMapWithoutPresetStartsFromHardened() throws {
        let scenario = try ScenarioParser.parse(
            text: """
                format: 1
                title: t
                policy:
                  persist: file
                  resend-on: []
                  retry-interval: off
                steps: []
                """, file: "t.yaml")
        var expected = PolicyPreset.hardened.policy
        expected.persist = .file
        expected.resendOn = []
        expected.retryIntervalMs = nil
        #expect(scenario.preset == .hardened)
        #expect(scenario.policy == expected)
    }

    @Test func triggersReadEveryForm() throws {
        let scenario = try ScenarioParser.parse(
            text: """
                format: 1
                title: t
                steps:
                  - at: 90s
                    do: launch
                  - when: request recharge
                    within: 250ms
                    do: crash
                  - after: 2h
                    do: settle
                """, file: "t.yaml")
        #expect(
            scenario.steps.map(\.trigger) == [
                .at(90_000), .when(.requestRecharge, within: 250), .after(7_200_000),
            ])
    }

    @Test func everyTriggerEventNameOfTheFormatIsAccepted() throws {
        let names = [
            "purchasing", "charged", "failed", "deferred", "delivered", "request order",
            "request recharge", "request verify", "response recharge", "credited", "finished",
            "crashed", "launched", "backgrounded", "foregrounded", "refunded", "notified",
            "clawed-back", "renewed", "renewal-failed", "expired",
        ]
        #expect(TriggerEvent.allCases.map(\.rawValue) == names)
        for name in names {
            let scenario = try ScenarioParser.parse(
                text: "format: 1\ntitle: t\nsteps:\n  - when: \(name)\n    do: crash\n",
                file: "t.yaml")
            #expect(
                scenario.steps[0].trigger
                    == .when(
                        TriggerEvent(rawValue: name)!,
                        within: 600_000))
        }
    }

    @Test func anomalyExpectationCountsExactlyOrAtLeastOne() {
        let atLeastOne = AnomalyExpectation(type: .lostOrder)
        let none = AnomalyExpectation(type: .lostOrder, count: 0)
        let two = AnomalyExpectation(type: .lostOrder, count: 2)
        #expect(!atLeastOne.holds(actual: 0))
        #expect(atLeastOne.holds(actual: 3))
        #expect(none.holds(actual: 0))
        #expect(!none.holds(actual: 1))
        #expect(two.holds(actual: 2))
        #expect(!two.holds(actual: 3))
    }
}
