import IAPSimCore
import Testing

@testable import IAPSimScenario

/// Family Sharing (docs/world.md, "Family Sharing"): a family member's own `FAMILY_SHARED`
/// transaction of each shared period, `REVOKE` when sharing ends, a server that ignores it
/// caught, and no money counted for what nobody paid.
@Suite struct FamilySharingTests {
    static let day: VirtualTime = 86_400_000

    /// A scenario of `steps` on the built-in catalog (its subscriptions are family shareable).
    static func run(policy: String = "sk2-hardened", steps: String) throws -> (ScenarioResult, WhatIfReport) {
        let text = "format: 1\ntitle: t\npolicy: \(policy)\nusers: [alice]\nsteps:\n\(steps)"
        let scenario = try ScenarioParser.parse(text: text, file: "family.yaml")
        let result = ScenarioPlayer.run(scenario).result
        return (result, scenario.whatIf(result.simulation))
    }

    /// The notifications the App Store sent, in order.
    static func notifications(_ r: ScenarioResult) -> [ServerNotification] {
        r.simulation.log.compactMap { entry in
            if case .notificationSent(let n) = entry.fact { return n }
            return nil
        }
    }

    @Test func theMemberGetsTheirOwnFamilySharedTransactionOfEachPeriod() throws {
        let (r, _) = try Self.run(steps: "  - do: join-family kid\n  - do: buy pro_monthly\n  - do: wait 35d\n")
        let sim = r.simulation
        let purchaser = try #require(sim.store.subscriptions.first)
        #expect(purchaser.periods.count == 2)
        let member = sim.store.memberTransactions(at: sim.now)
        #expect(member.count == 2)
        let purchaserIds = Set(purchaser.periods.map(\.transactionId))
        for t in member {
            #expect(t.inAppOwnershipType == "FAMILY_SHARED" && t.isFamilyShared)
            #expect(!purchaserIds.contains(t.transactionId))
            #expect(t.originalTransactionId == member[0].transactionId)
            #expect(t.originalTransactionId != purchaser.originalTransactionId)
            #expect(t.appAccountToken == nil && t.appTransactionId != AppStore.appTransactionId)
            #expect(t.revocationDate == nil)
        }
        #expect(member[0].transactionReason == .purchase && member[1].transactionReason == .renewal)
        #expect(member[1].expiresDate == purchaser.expiresAt)
        // The purchaser's own notifications still carry PURCHASED; the member's FAMILY_SHARED,
        // without the purchaser's token.
        let sent = Self.notifications(r)
        #expect(sent.contains { $0.type == .didRenew && $0.transaction.transactionId == member[1].transactionId })
        for n in sent {
            let mine = member.contains { $0.transactionId == n.transaction.transactionId }
            #expect(n.transaction.inAppOwnershipType == (mine ? "FAMILY_SHARED" : "PURCHASED"))
            if mine { #expect(n.renewalInfo?.appAccountToken == nil) }
        }
        // Nothing was paid for the member's transactions: two payments, the purchaser's, and
        // no money line moves for the member's access.
        #expect(sim.subscriptionCharges == 2)
        #expect(sim.auditor.anomalies.isEmpty)
        #expect(sim.auditor.grantedNotPaidCents == 0 && sim.auditor.paidNotDeliveredCents == 0)
        #expect(sim.world.grantsSubscriptionAccess("kid"))
    }

    @Test func stoppingSharingRevokesTheMembersTransactionWithREVOKE() throws {
        let (r, _) = try Self.run(
            steps: "  - do: join-family kid\n  - do: buy pro_monthly\n  - do: wait 1d\n  - do: family-share off\n"
                + "  - do: wait 1h\n")
        let sim = r.simulation
        let member = try #require(sim.store.memberTransactions(at: sim.now).last)
        #expect(member.revocationDate == Self.day && member.revocationReason == 0)
        let revoke = try #require(Self.notifications(r).first { $0.type == .revoke })
        #expect(revoke.transaction.transactionId == member.transactionId && revoke.transaction.revocationDate != nil)
        #expect(revoke.transaction.inAppOwnershipType == "FAMILY_SHARED")
        #expect(revoke.renewalInfo?.status == .revoked)
        // The purchaser keeps theirs; the member's status is 5, the server ended access.
        #expect(sim.store.subscriptions.first?.status == .active)
        #expect(sim.store.memberStatus(original: member.originalTransactionId, at: sim.now)?.status == .revoked)
        #expect(!sim.world.grantsSubscriptionAccess("kid") && sim.world.grantsSubscriptionAccess("alice"))
        #expect(sim.auditor.anomalies.isEmpty)
    }

    @Test func leavingTheFamilyOrARefundOfThePurchaserRevokesTheShare() throws {
        for step in ["leave-family", "refund newest"] {
            let (r, _) = try Self.run(
                steps: "  - do: join-family kid\n  - do: buy pro_monthly\n  - do: wait 1d\n  - do: \(step)\n"
                    + "  - do: wait 1h\n")
            let revokes = Self.notifications(r).filter { $0.type == .revoke }
            #expect(revokes.count == 1, "\(step)")
            #expect(revokes.first?.transaction.isFamilyShared == true, "\(step)")
            #expect(!r.simulation.world.grantsSubscriptionAccess("kid"), "\(step)")
        }
    }

    @Test func aServerThatIgnoresREVOKEIsCaughtWithItsFix() throws {
        let (r, report) = try Self.run(
            policy: "{preset: sk2-naive, server-notifications: true}",
            steps: "  - do: join-family kid\n  - do: buy pro_monthly\n  - do: wait 1d\n  - do: family-share off\n"
                + "  - do: wait 2d\n")
        let a = try #require(r.simulation.auditor.anomalies.first)
        #expect(r.simulation.auditor.anomalies.count == 1)
        #expect(a.type == .accessAfterRevoke && a.user == "kid")
        #expect(a.summary.contains("Family Sharing ended (REVOKE)"))
        let fixes = try #require(report.explanation(of: a.id)).preventedBy.map { Set($0.map(\.words)) }
        #expect(fixes.contains(["server-revoke true"]), "\(fixes)")
        // Two days of access nobody pays for, at Pro's price: 4.99 / 31 days each.
        #expect(r.simulation.auditor.grantedNotPaidCents == 32)
        #expect(r.simulation.auditor.paidNotDeliveredCents == 0)
    }

    @Test func joiningLaterOrSharingAgainSharesTheCurrentPeriod() throws {
        let (r, _) = try Self.run(
            steps: "  - do: buy pro_monthly\n  - do: wait 1d\n  - do: join-family kid\n  - do: wait 1h\n"
                + "  - do: family-share off\n  - do: wait 1h\n  - do: family-share on\n  - do: wait 1h\n")
        let member = r.simulation.store.memberTransactions(at: r.simulation.now)
        #expect(member.count == 2)
        #expect(member[0].revocationDate != nil && member[1].revocationDate == nil)
        // Shared again: a new transaction under the member's same originalTransactionId.
        #expect(member[1].transactionId != member[0].transactionId)
        #expect(member[1].originalTransactionId == member[0].transactionId)
        #expect(r.simulation.world.grantsSubscriptionAccess("kid"))
        #expect(r.simulation.auditor.anomalies.isEmpty)
    }

    @Test func aProductThatIsNotFamilyShareableReachesNoMember() throws {
        let text = """
            format: 1
            title: t
            policy: sk2-hardened
            storekit: ../../../scenarios/dungeon.storekit
            steps:
              - do: join-family kid
              - do: buy pass_weekly
              - do: wait 1d
            """
        let scenario = try ScenarioParser.parse(text: text, file: StoreKitFixtures.fixture("family.yaml"))
        let sim = ScenarioPlayer.run(scenario).result.simulation
        #expect(sim.store.subscriptions.count == 1)
        #expect(sim.store.memberTransactions(at: sim.now).isEmpty)
    }

    @Test func familyCommandsAreRefusedWhereTheyCannotRun() throws {
        let (r, _) = try Self.run(steps: "  - do: buy pro_monthly\n  - do: wait 1m\n")
        let sim = r.simulation
        #expect(sim.refusal(of: .leaveFamily) == "nobody has joined the family (join-family NAME)")
        #expect(sim.refusal(of: .familyShare(on: true)) == "family sharing is already on")
        #expect(sim.refusal(of: .joinFamily("kid")) == nil)
        #expect(sim.refusal(of: .familyShare(on: false)) == nil)
        // A device's own account is no family member: refused where the file says it.
        #expect(throws: ScenarioError.self) {
            try ScenarioParser.parse(
                text: "format: 1\ntitle: t\npolicy: sk2-hardened\nusers: [alice]\nsteps:\n  - do: join-family alice\n",
                file: "f.yaml")
        }
        let (joined, _) = try Self.run(steps: "  - do: join-family kid\n")
        #expect(joined.simulation.refusal(of: .joinFamily("pal"))?.contains("kid is already in the family") == true)
        let one = try ScenarioParser.parse(
            text: "format: 1\ntitle: t\npolicy: naive\nsteps:\n  - do: wait 1s\n", file: "f.yaml")
        let sk1 = ScenarioPlayer.run(one).result.simulation
        #expect(sk1.refusal(of: .joinFamily("kid"))?.contains("StoreKit 2 world only") == true)
    }

    @Test func exploreDrawsFamilyStepsInSomeStoreKit2Runs() throws {
        let explorer = Explorer(policy: PolicyPreset.sk2Hardened.policy, seed: 1)
        let drawn = (0..<200).map { explorer.schedule($0).steps.map { $0.command.scenarioText } }
        let withFamily = drawn.filter { $0.contains("join-family kid") }
        #expect(withFamily.count > 10 && withFamily.count < 100)
        #expect(drawn.joined().contains { $0 == "leave-family" || $0.hasPrefix("family-share") })
    }
}
