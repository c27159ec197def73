import Testing

@testable import IAPSimCore

/// A policy key is one row of `PolicyKeySpec.table`: the presets, the parser, the panels and
/// the docs read it, so the row must be whole and agree with itself.
@Suite struct PolicyTableTests {
    @Test func theTableHasOneRowPerKeyInKeyOrder() {
        #expect(PolicyKeySpec.table.map(\.key) == PolicyKey.allCases)
    }

    @Test(arguments: PolicyKeySpec.table.map(\.key))
    func everyPresetValueAndChoiceIsAccepted(_ key: PolicyKey) throws {
        let spec = key.spec
        for preset in PolicyPreset.allCases {
            #expect(preset.policy.value(of: key) == spec.value(in: preset), "\(preset.rawValue)")
        }
        for choice in spec.choices {
            var policy = PolicyPreset.naive.policy
            try policy.set(key, to: choice)
            #expect(policy.value(of: key) == choice, "\(choice) reads back")
        }
        var policy = PolicyPreset.naive.policy
        #expect(throws: PolicyValueError.self) { try policy.set(key, to: "sometimes") }
        #expect(!spec.help.isEmpty && !spec.accepted.isEmpty)
    }

    @Test func eachWorldReadsItsKeysAndTheServerSideIsReadInBoth() {
        let one = PolicyKey.keys(in: .one), two = PolicyKey.keys(in: .two)
        #expect(!one.contains(.storekit) && !two.contains(.storekit))
        for spec in PolicyKeySpec.table {
            switch spec.world {
            case .both: #expect(one.contains(spec.key) && two.contains(spec.key))
            case .storeKit1: #expect(one.contains(spec.key) && !two.contains(spec.key))
            case .storeKit2, .serverSide: #expect(two.contains(spec.key) && !one.contains(spec.key))
            case .choosesWorld: #expect(!one.contains(spec.key) && !two.contains(spec.key))
            }
        }
    }

    /// One rule for the keys a world shows (panel, glossary, what-if): StoreKit 1 shows the
    /// server side's keys but a subscription's; StoreKit 2 all of its own; serve no `server-*`.
    @Test func theKeysAWorldShowsFollowOneRule() {
        let one = PolicyKey.shown(in: .one), two = PolicyKey.shown(in: .two)
        #expect(
            one == PolicyKey.keys(in: .one)
                + PolicyKey.serverSideKeys.filter { !PolicyKey.subscriptionServerKeys.contains($0) })
        #expect(two == PolicyKey.keys(in: .two))
        #expect(!one.contains(.serverGrace) && one.contains(.serverClawback) && two.contains(.serverGrace))
        #expect(!one.contains(.storekit) && !two.contains(.storekit))
        for world in [StoreKitWorld.one, .two] {
            let served = PolicyKey.shown(in: world, served: true)
            #expect(!served.isEmpty && served.allSatisfy { !$0.rawValue.hasPrefix("server-") })
            #expect(
                WhatIf.keys(in: world == .one ? PolicyPreset.naive.policy : PolicyPreset.sk2Naive.policy)
                    == PolicyKey.shown(in: world))
        }
    }

    /// A value is read once: the setting keeps it typed and applies it without reading words again.
    @Test func aPolicySettingIsReadOnceAndAppliedTyped() throws {
        let setting = try PolicySetting(.retryInterval, "60s")
        #expect(setting.value == "1m")
        #expect(setting == (try PolicySetting(.retryInterval, "1m")))
        var policy = PolicyPreset.naive.policy
        setting.apply(to: &policy)
        #expect(policy.retryIntervalMs == 60_000)
        #expect(throws: PolicyValueError.self) { try PolicySetting(.retryInterval, "sometimes") }
        #expect(Command.setPolicy(.observer, "launch").scenarioText == "policy observer launch")
    }

    @Test func thePresetsAreTheDocumentedApproaches() {
        #expect(PolicyPreset.sk2Hardened.policy.storekit == .two)
        // sk2-naive is naive in StoreKit 2, with Apple's Python client's old defaults for history.
        #expect(
            PolicyPreset.sk2Naive.policy.differences(from: PolicyPreset.naive.policy)
                == [.storekit, .serverHistory, .serverHistoryPages])
        #expect(PolicyPreset.hardened.policy.retryIntervalMs == 300_000)
        #expect(PolicyPreset.sk2Hardened.policy.serverReconcileMs == 3_600_000)
        #expect(PolicyPreset.allCases.allSatisfy { $0.policy.matchingPreset == $0 })
    }
}
