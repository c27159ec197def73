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
        #expect(spec.presets.count == PolicyPreset.allCases.count)
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
        var sk1 = PolicyPreset.hardened.policy
        #expect(sk1.keysInWorld == one)
        sk1.serverClawback = .full
        #expect(sk1.keysInWorld == one + PolicyKey.serverSideKeys)
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
