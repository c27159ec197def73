import Testing

@testable import IAPSimCore

/// Explore draws Family Sharing steps in StoreKit 2 runs: `sk2-naive` finds the family
/// member kept after `REVOKE`; `sk2-hardened` ends every such run clean.
@Suite struct FamilyExploreTests {
    /// The first `limit` runs of seed 1 whose schedule has a family member, and their worlds.
    static func familyRuns(_ preset: PolicyPreset, limit: Int) -> [Simulation] {
        let explorer = Explorer(policy: preset.policy, seed: 1)
        var worlds: [Simulation] = []
        for i in 0..<2_000 where worlds.count < limit {
            let schedule = explorer.schedule(i)
            guard schedule.steps.contains(where: { $0.command == .joinFamily(Schedule.familyMember) }) else {
                continue
            }
            worlds.append(explorer.simulate(schedule, seed: explorer.runSeed(i)))
        }
        return worlds
    }

    @Test func sk2NaiveKeepsAFamilyMembersAccessAfterREVOKE() {
        let worlds = Self.familyRuns(.sk2Naive, limit: 60)
        #expect(worlds.count == 60)
        let kept = worlds.filter { w in
            w.auditor.anomalies.contains { $0.type == .accessAfterRevoke && $0.user == Schedule.familyMember }
        }
        #expect(!kept.isEmpty)
    }

    @Test func sk2HardenedEndsEveryFamilyRunClean() {
        let worlds = Self.familyRuns(.sk2Hardened, limit: 60)
        #expect(worlds.count == 60)
        for w in worlds {
            let unresolved = w.auditor.anomalies.filter { $0.status == .open || $0.status == .permanent }
            #expect(unresolved.isEmpty, "\(unresolved.map(\.summary))")
        }
        // The member's transactions were made and shared in these runs.
        #expect(worlds.contains { !$0.store.memberTransactions(at: $0.now).isEmpty })
    }
}
