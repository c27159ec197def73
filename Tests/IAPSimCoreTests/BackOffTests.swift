import Testing

@testable import IAPSimCore

/// `retry-max-interval`: the periodic retry backs off while nothing gets through.
@Suite struct BackOffTests {
    static let minute: VirtualTime = 60_000
    static let hour: VirtualTime = 3_600_000

    /// The periodic rounds' times and reasons, from the log.
    static func rounds(_ h: Harness) -> [(at: VirtualTime, words: String)] {
        h.sim.log.compactMap { entry in
            guard case .rechargeSent(_, _, _, let reason, _) = entry.fact, case .periodicRetry = reason else {
                return nil
            }
            return (entry.time, reason.words)
        }
    }

    /// The time between one periodic round and the next, in minutes.
    static func gapsInMinutes(_ h: Harness) -> [VirtualTime] {
        let times = rounds(h).map(\.at)
        return zip(times, times.dropFirst()).map { ($1 - $0) / minute }
    }

    @Test func theIntervalDoublesWhileNothingGetsThroughUpToTheCap() {
        var h = Harness(.hardened)
        h.run(.storeOutage(on: true), .buy(product: "coins_100"), .wait(150 * Self.hour))
        // Round 2 is the first to know that round 1 got no definite answer: the wait after
        // it doubles, and so on until a day.
        #expect(Self.gapsInMinutes(h) == [5, 10, 20, 40, 80, 160, 320, 640, 1280, 1440, 1440, 1440, 1440])
        let words = Self.rounds(h).map(\.words)
        #expect(words[0] == "periodic retry 1" && words[1] == "periodic retry 2")
        #expect(words[2] == "periodic retry 3, backed off to 10m")
        #expect(words[9] == "periodic retry 10, backed off to 1280m")
        #expect(words[10] == "periodic retry 11, backed off to 24h")
    }

    @Test func offKeepsTheIntervalAtRetryInterval() {
        var h = Harness(weakened(.hardened, [(.retryMaxInterval, "off")]))
        h.run(.storeOutage(on: true), .buy(product: "coins_100"), .wait(2 * Self.hour))
        let gaps = Self.gapsInMinutes(h)
        #expect(gaps.count == 22 && gaps.allSatisfy { $0 == 5 })
        #expect(Self.rounds(h).allSatisfy { !$0.words.contains("backed off") })
    }

    @Test func aCapBelowTheIntervalKeepsTheInterval() {
        var h = Harness(weakened(.hardened, [(.retryInterval, "1h"), (.retryMaxInterval, "30m")]))
        h.run(.storeOutage(on: true), .buy(product: "coins_100"), .wait(6 * Self.hour))
        #expect(Self.gapsInMinutes(h) == [60, 60, 60, 60])
    }

    @Test func aCreditBringsTheIntervalBack() {
        // No resend on a purchase: only the periodic retry sends the waiting receipts.
        var h = Harness(weakened(.hardened, [(.resendOn, "launch,login")]))
        h.run(.storeOutage(on: true), .buy(product: "coins_100"), .wait(50 * Self.minute))
        #expect(Self.gapsInMinutes(h) == [5, 10, 20])
        h.run(.storeOutage(on: false), .wait(40 * Self.minute))
        #expect(h.balance("alice") == 100)
        #expect(h.sim.app.periodicDoublings == 0)
        let before = Self.rounds(h).count
        h.run(.storeOutage(on: true), .buy(product: "coins_100"), .wait(45 * Self.minute))
        let after = Array(Self.rounds(h).dropFirst(before))
        let times = after.map(\.at)
        #expect(zip(times, times.dropFirst()).map { ($1 - $0) / Self.minute } == [5, 10, 20])
        #expect(after.first?.words == "periodic retry \(before + 1)")
    }

    @Test func aCreditDuringTheFirstIntervalAfterARoundBringsTheNextRoundBackAtOnce() {
        // Round 2 finds round 1 unanswered, so round 3 would come 10m later; the credit of a new
        // purchase right after round 2 brings it back to 5m.
        var h = Harness(weakened(.hardened, [(.resendOn, "launch,login")]))
        h.run(.storeOutage(on: true), .buy(product: "coins_100"), .wait(10 * Self.minute + 30_000))
        #expect(Self.rounds(h).count == 2)
        // Another pack: the same one would not be charged while the first is unfinished.
        h.run(.storeOutage(on: false), .buy(product: "coins_550"), .wait(5 * Self.minute))
        #expect(h.balance("alice") == 650)
        let times = Self.rounds(h).map(\.at)
        #expect(times.count == 3 && times[2] - times[1] == 5 * Self.minute)
    }

    @Test func aLaunchBringsTheIntervalBack() {
        var h = Harness(weakened(.hardened, [(.resendOn, "none")]))
        h.run(.storeOutage(on: true), .buy(product: "coins_100"), .wait(50 * Self.minute))
        #expect(Self.gapsInMinutes(h) == [5, 10, 20])
        let before = Self.rounds(h).count
        h.run(.crash, .launch, .wait(45 * Self.minute))
        let times = Self.rounds(h).dropFirst(before).map(\.at)
        #expect(zip(times, times.dropFirst()).map { ($1 - $0) / Self.minute } == [5, 10, 20])
    }

    @Test func intervalsDoubleFromTheBaseAndStopAtTheCap() {
        let day = 24 * Self.hour
        let intervals = (0...10).map { AppProcess.periodicInterval(5 * Self.minute, cap: day, doublings: $0) }
        #expect(intervals.map { $0 / Self.minute } == [5, 10, 20, 40, 80, 160, 320, 640, 1280, 1440, 1440])
        #expect(AppProcess.periodicInterval(5 * Self.minute, cap: nil, doublings: 7) == 5 * Self.minute)
        #expect(AppProcess.periodicInterval(Self.hour, cap: Self.minute, doublings: 3) == Self.hour)
    }

    @Test func theKeyReadsAndPrintsLikeRetryInterval() throws {
        var p = PolicyPreset.naive.policy
        #expect(p.value(of: .retryMaxInterval) == "off")
        try p.set(.retryMaxInterval, to: "1440m")
        #expect(p.retryMaxIntervalMs == 24 * Self.hour && p.value(of: .retryMaxInterval) == "24h")
        try p.set(.retryMaxInterval, to: "off")
        #expect(p.retryMaxIntervalMs == nil)
        // Under the floor: said with the range and the reason.
        #expect {
            try p.set(.retryMaxInterval, to: "0s")
        } throws: { error in
            "\(error)"
                == "invalid value '0s' for policy key 'retry-max-interval'; accepted: 1s to 720h, or off; 0s is "
                + "too short: an interval under 1s would send a request every few milliseconds"
        }
        for bad in ["soon", "-1h", "1.5h"] {
            #expect {
                try p.set(.retryMaxInterval, to: bad)
            } throws: { error in
                "\(error)"
                    == "invalid value '\(bad)' for policy key 'retry-max-interval'; accepted: a duration such as 1h or 24h, or off"
            }
        }
    }

    @Test func theKeyCostsTheCopyOfEveryEventNothing() {
        // Every event copies the policy (ARCHITECTURE.md, "The hot path"): 48 bytes with this
        // key, 56 since the App Store of 2026 added five one-byte keys; a send reason keeps
        // `Fact` at its size.
        #expect(MemoryLayout<Policy>.stride == 56)
        #expect(MemoryLayout<SendReason>.size <= 16)
    }

    @Test func onlyTheHardenedPresetsBackOff() {
        for preset in PolicyPreset.allCases {
            let expected = preset == .hardened || preset == .sk2Hardened ? "24h" : "off"
            #expect(preset.policy.value(of: .retryMaxInterval) == expected, "\(preset.rawValue)")
        }
        #expect(PolicyKey.keys(in: .one).contains(.retryMaxInterval))
        #expect(PolicyKey.keys(in: .two).contains(.retryMaxInterval))
    }
}
