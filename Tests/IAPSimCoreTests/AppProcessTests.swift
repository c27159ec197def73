import Testing

@testable import IAPSimCore

@Suite struct AppProcessTests {
    /// Charge, then the recharge is lost, the app uninstalled and reinstalled before any retry.
    static func uninstallWithAPendingReceipt(_ h: inout Harness) {
        h.run(.dropNextRequest(.recharge), .buy(product: "coins_100"))
        h.when("finished")
        h.run(.crash, .uninstall, .wait(60_000), .launch, .login(user: "alice"))
        h.settle()
    }

    @Test func keychainReceiptSurvivesAnUninstallAndIsResentAtLogin() {
        var h = Harness(weakened(.hardened, [(.finish, "on-purchase")]))
        Self.uninstallWithAPendingReceipt(&h)
        #expect(h.sim.app.keychain.isEmpty)
        #expect(h.balance("alice") == 100)
        #expect(h.summary == ["missed-order:resolved"])
        #expect(h.anomalies[0].mechanism == "resent from saved receipt at login")
    }

    @Test func fileReceiptIsLostWithTheUninstall() {
        var h = Harness(weakened(.hardened, [(.finish, "on-purchase"), (.persist, "file")]))
        Self.uninstallWithAPendingReceipt(&h)
        #expect(h.balance("alice") == 0)
        #expect(h.summary == ["missed-order:permanent"])
    }

    @Test func crashLosesMemoryButKeepsFilesAndLogin() {
        var h = Harness(weakened(.hardened, [(.persist, "file")]))
        h.run(.network(on: false), .buy(product: "coins_100"), .network(on: true), .buy(product: "coins_100"))
        h.when("request recharge")
        h.run(.network(on: false))
        h.when("credited")
        h.run(.crash)
        #expect(!h.sim.app.observerRegistered && !h.sim.app.storeOpen && h.sim.app.memory.isEmpty)
        #expect(h.sim.app.savedLogin == "alice")
        #expect(h.sim.app.files.count == 1)
        #expect(h.sim.app.process == .crashed)
    }

    @Test func rechargeWaitsForALoginWhileNobodyIsLoggedIn() {
        var h = Harness(.hardened)
        h.run(.buy(product: "coins_100"))
        h.when("purchasing")
        h.run(.logout)
        h.when("delivered")
        h.run(.wait(60_000))
        #expect(h.balance("alice") == 0)
        #expect(h.sim.app.waitingForLogin.count == 1)
        h.run(.login(user: "alice"), .settle)
        #expect(h.balance("alice") == 100)
        #expect(h.anomalies.first?.mechanism == "sent once a user logged in")
    }

    @Test func storeOutageIsRetriedPeriodicallyUntilTheAppStoreAnswers() {
        var h = Harness(.hardened)
        h.run(.storeOutage(on: true), .buy(product: "coins_100"), .wait(6 * 60_000))
        #expect(h.balance("alice") == 0)
        #expect(h.summary == ["missed-order:open"])
        h.run(.storeOutage(on: false), .settle)
        #expect(h.balance("alice") == 100)
        #expect(h.anomalies[0].status == .resolved)
        #expect(h.anomalies[0].mechanism?.hasPrefix("periodic retry") == true)
    }

    @Test func storeScreenObserverIsRemovedWhenTheScreenCloses() {
        var h = Harness(.naive)
        h.run(.openStore)
        #expect(h.sim.app.observerRegistered)
        h.run(.closeStore)
        #expect(!h.sim.app.observerRegistered)
    }

    @Test func commandsThatMakeNoSenseNowAreIgnoredWithAReason() {
        var h = Harness(.hardened)
        h.run(.crash, .buy(product: "coins_100"))
        #expect(h.sim.log.last?.line.contains("ignored: the app is not running") == true)
        h.run(.launch, .login(user: "mallory"))
        #expect(h.sim.log.last?.line.contains("unknown user mallory") == true)
    }

    @Test func policyKeyChangesMidRun() {
        var h = Harness(.naive)
        h.run(.setPolicy(.observer, "launch"), .buy(product: "coins_100"))
        h.when("charged")
        h.run(.crash, .launch, .settle)
        #expect(h.sim.policy.observer == .launch)
        #expect(h.balance("alice") == 100)
        h.run(.setPreset(.hardened))
        #expect(h.sim.policy == PolicyPreset.hardened.policy)
    }

    @Test func networkInspectorCountsBytesAndFatesPerRoute() {
        var h = Harness(.hardened)
        h.run(.dropNextResponse(.recharge), .buy(product: "coins_100"), .settle)
        let r = h.sim.network.totals(for: .recharge)
        #expect(r.messages == 4, "request, lost response, retry, response")
        #expect(r.dropped == 1 && r.timedOut == 1 && r.retries == 1)
        #expect(r.bytes > 2 * 3_100)
        #expect(h.sim.network.totals(for: .verify).messages == 4)
        #expect(h.sim.network.recent.contains { $0.fate == .timedOut })
    }
}

@Suite struct PolicyTests {
    @Test func everyKeyRoundTripsThroughItsTextForm() throws {
        for preset in PolicyPreset.allCases {
            var p = PolicyPreset.naive.policy
            for key in PolicyKey.allCases { try p.set(key, to: preset.policy.value(of: key)) }
            #expect(p == preset.policy, "\(preset.rawValue)")
            #expect(p.displayName == preset.rawValue)
        }
    }

    @Test func badValuesNameTheKeyAndWhatIsAccepted() {
        var p = PolicyPreset.hardened.policy
        #expect(throws: PolicyValueError.self) { try p.set(.retryImmediate, to: "11") }
        do { try p.set(.resendOn, to: "launch,reboot") } catch {
            #expect(
                error.description
                    == "invalid value 'launch,reboot' for policy key 'resend-on'; accepted: a list of launch, login, network, purchase (comma-separated), or none"
            )
        }
    }

    @Test func presetsMatchTheDomainTable() {
        let n = PolicyPreset.naive.policy, h = PolicyPreset.hardened.policy
        #expect(n.observer == .storeScreen && h.observer == .launch)
        #expect(n.finish == .onPurchase && h.finish == .afterCredit)
        #expect(!n.finishFailed && h.finishFailed)
        #expect(n.persist == PersistTier.none && h.persist == .keychain)
        #expect(n.retryImmediate == 0 && h.retryImmediate == 3)
        #expect(n.retryIntervalMs == nil && h.retryIntervalMs == 300_000)
        #expect(n.resendOn.isEmpty && h.resendOn == ResendTrigger.allCases)
        #expect(n.match == .first && h.match == .token)
        #expect(!n.serverDedup && h.serverDedup && !n.serverBindOrder && h.serverBindOrder)
        #expect(n.creditTo == .currentUser && h.creditTo == .orderOwner)
    }

    @Test func durationsParseAndFormat() {
        #expect(DurationText.parse("250ms") == 250)
        #expect(DurationText.parse("3s") == 3_000)
        #expect(DurationText.parse("5m") == 300_000)
        #expect(DurationText.parse("2h") == 7_200_000)
        #expect(DurationText.parse("5") == nil && DurationText.parse("-1s") == nil && DurationText.parse("1.5s") == nil)
        #expect(DurationText.format(90_000) == "90s")
        #expect(DurationText.clock(3_723_004) == "1:02:03.004")
        // `parse` tries the units in their written order: the longest suffix must come first.
        let lengths = DurationText.parsedUnits.map(\.suffix.count)
        #expect(lengths == lengths.sorted(by: >))
        #expect(DurationText.parse("7ms") == 7 && DurationText.parse("7d") == 7 * 86_400_000)
    }
}
