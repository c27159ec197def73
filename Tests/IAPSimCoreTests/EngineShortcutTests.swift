import Testing

@testable import IAPSimCore

/// The engine's shortcuts (counted facts, trigger bits, the auditor's active list, digits
/// hashed without a string) must give what the plain ways give.
@Suite struct EngineShortcutTests {
    @Test func aTriggerEventsIndexIsItsPlaceAmongAllCases() {
        for (place, event) in TriggerEvent.allCases.enumerated() {
            #expect(event.index == place)
        }
        #expect(MemoryLayout<TriggerEvent>.size == 1)
        let sent = Fact.messageSent(id: 1, route: .recharge, direction: .request, bytes: 9, sender: .app)
        #expect(sent.trigger == .requestRecharge)
        #expect(sent.triggerName == "request recharge")
        #expect(Fact.messageSent(id: 1, route: .verify, direction: .response, bytes: 9, sender: .app).trigger == nil)
        #expect(Fact.transactionUpdated(txn: "1", product: "p", state: .purchased).trigger == nil)
        #expect(Fact.appCrashed.trigger == .crashed)
    }

    @Test func aTriggerSetHoldsEachEventOnItsOwn() {
        for event in TriggerEvent.allCases {
            let set = TriggerSet(event)
            #expect(TriggerEvent.allCases.filter { set.contains($0) } == [event])
        }
    }

    @Test func aLogEntryKeepsItsTriggerWhenItsFactChanges() {
        var entry = LogEntry(time: 0, part: .app, fact: .appCrashed)
        #expect(entry.triggers.contains(.crashed))
        entry.fact = .appLaunched(freshInstall: false)
        #expect(!entry.triggers.contains(.crashed))
        #expect(entry.triggers.contains(.launched))
        #expect(entry == LogEntry(time: 0, part: .app, fact: .appLaunched(freshInstall: false)))
    }

    @Test func runsWithoutALogCountWhatRunsWithALogKeep() {
        for preset in PolicyPreset.allCases {
            let explorer = Explorer(policy: preset.policy, seed: 3)
            for i in 0..<40 {
                let schedule = explorer.schedule(i), seed = explorer.runSeed(i)
                let kept = explorer.simulate(schedule, seed: seed, keepLog: true)
                let counted = explorer.simulate(schedule, seed: seed, keepLog: false)
                #expect(kept.logCount == kept.log.count)
                #expect(counted.logCount == kept.logCount, "\(preset.rawValue) run \(i)")
                #expect(counted.eventsProcessed == kept.eventsProcessed)
                #expect(counted.auditor == kept.auditor)
                #expect(counted.auditor.anomalies.map(\.changedAt) == kept.auditor.anomalies.map(\.changedAt))
            }
        }
    }

    /// Explore restarts each thread's world in place, keeping its lists' room: a restarted
    /// world must be a fresh one in everything but capacity, and every run in it must end as
    /// the same run in a new world.
    @Test func aRestartedWorldIsAFreshWorld() {
        for preset in PolicyPreset.allCases {
            let explorer = Explorer(policy: preset.policy, seed: 11)
            var world: Simulation?
            for i in 0..<60 {
                #expect(explorer.run(i, in: &world) == explorer.run(i), "\(preset.rawValue) run \(i)")
            }
            var used = world!
            let room = used.server.orders.capacity
            #expect(room > 0)
            for config in [
                explorer.config(explorer.schedule(7), seed: 99),
                WorldConfig(seed: 5, users: ["dave"], policy: PolicyPreset.naive.policy, appRunning: false),
            ] {
                used.restart(config)
                let fresh = Simulation(config)
                #expect(used.store == fresh.store)
                #expect(used.app == fresh.app)
                #expect(used.server == fresh.server)
                #expect(used.server.balances.map(\.user) == fresh.server.balances.map(\.user))
                #expect(used.network == fresh.network)
                #expect(used.attacker == fresh.attacker)
                #expect(used.auditor == fresh.auditor)
                #expect(used.policy == fresh.policy)
                #expect(used.outbox.policy == fresh.outbox.policy)
                #expect(used.config == fresh.config)
                #expect(used.log == fresh.log)
                #expect(used.now == fresh.now && used.logCount == fresh.logCount)
                let (a, b) = (used.counters, fresh.counters)
                #expect(
                    [a.eventsProcessed, a.seq, a.nextMessageId, a.nextExchange]
                        == [b.eventsProcessed, b.seq, b.nextMessageId, b.nextExchange])
                #expect(used.queue.unordered == fresh.queue.unordered)
                #expect(used.outbox.pending.count == fresh.outbox.pending.count)
                #expect(used.server.jobs == fresh.server.jobs && a.firstLaunchDone == b.firstLaunchDone)
            }
            // The room is what a restart keeps.
            #expect(used.server.orders.capacity == room)
        }
    }

    @Test func numbersHashAsTheirDigits() {
        for n in [0, 7, 10, 99, 1_000_000_000_001, -42, Int.max, Int.min] {
            var digits = FNV1a(), text = FNV1a()
            digits.add(n)
            text.add(String(n))
            #expect(digits.value == text.value, "\(n)")
        }
    }

    @Test func uuidsAreShapedLikeUUIDs() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<200 {
            let id = rng.uuid()
            #expect(isUUID(id))
            let chars = Array(id)
            #expect(chars[14] == "4")
            #expect("89ab".contains(chars[19]))
        }
        var a = SplitMix64(seed: 8), b = a
        for _ in 0..<200 { #expect(a.uuid() == EngineShortcutTests.uuidSpelledOut(&b)) }
        #expect(!isUUID("not-a-uuid"))
        #expect(!isUUID("0123456789abcdef0123456789abcdef0123"))
        #expect(isUUID("01234567-89AB-4DEF-8123-456789ABCDEF"))
    }

    @Test func clockFacesReadAsTheyAlwaysDid() {
        func spelled(_ t: VirtualTime) -> String {
            func pad(_ v: Int, _ n: Int) -> String {
                String(repeating: "0", count: max(0, n - String(v).count)) + String(v)
            }
            return "\(t / 3_600_000):\(pad(t / 60_000 % 60, 2)):\(pad(t / 1000 % 60, 2)).\(pad(t % 1000, 3))"
        }
        var rng = SplitMix64(seed: 4)
        let times: [VirtualTime] = [0, 1, 999, 1000, 59_999, 60_000, 3_599_999, 3_600_000, 2_592_000_000, .max]
        for t in times + (0..<300).map({ _ in rng.below(1 << 40) }) {
            #expect(DurationText.clock(t) == spelled(t), "\(t)")
        }
        #expect(DurationText.clock(-1_500) == "-0:00:01.500")
    }

    @Test func decimalStringsSpellNumbersAsStringDoes() {
        var rng = SplitMix64(seed: 11)
        let numbers = [0, 9, 10, 99, 100, 1_000_000_000_001, 999_999_999_999_999, Int.max]
        for n in numbers + (0..<300).map({ _ in rng.below(Int.max) }) {
            #expect(decimalString(n) == String(n))
            #expect(decimalString(n, prefix: UInt8(ascii: "o")) == "o\(n)")
        }
        #expect(!isUUID("01234567-89ab-4def-8123-456789abcdeg"))
        #expect(!isUUID("01234567+89ab-4def-8123-456789abcdef"))
        #expect(isUUID("０1234567-89ab-4def-8123-456789abcde") == false)
    }

    /// The UUID as the first version of `uuid()` built it, digit array by digit array.
    static func uuidSpelledOut(_ rng: inout SplitMix64) -> String {
        let a = rng.next(), b = rng.next()
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8](repeating: 0, count: 32)
        for i in 0..<16 {
            hex[i] = digits[Int((a >> UInt64(60 - 4 * i)) & 0xF)]
            hex[16 + i] = digits[Int((b >> UInt64(60 - 4 * i)) & 0xF)]
        }
        hex[12] = UInt8(ascii: "4")
        hex[16] = Array("89ab".utf8)[Int(b >> 62)]
        var out: [UInt8] = []
        for (i, byte) in hex.enumerated() {
            if i == 8 || i == 12 || i == 16 || i == 20 { out.append(UInt8(ascii: "-")) }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func aSmallMapActsAsADictionary() {
        var map = SmallMap<Int, String>()
        var dict: [Int: String] = [:]
        // The same edits, in an order that inserts, replaces, removes and re-adds.
        let edits: [(Int, String?)] = [(3, "c"), (1, "a"), (2, "b"), (1, "A"), (3, nil), (4, "d"), (3, "C"), (9, nil)]
        for (key, value) in edits {
            map[key] = value
            dict[key] = value
            #expect(map.count == dict.count)
            for k in 0...9 { #expect(map[k] == dict[k]) }
        }
        #expect(map.removeValue(forKey: 2) == dict.removeValue(forKey: 2))
        #expect(map.removeValue(forKey: 2) == nil)
        #expect(map.keys.sorted() == dict.keys.sorted())
        #expect(map.values.sorted() == dict.values.sorted())
        #expect(map.containsValue { $0 == "d" } && !map.containsValue { $0 == "b" })
        // Equal and hashed alike whatever the order of insertion, as dictionaries are.
        var other = SmallMap<Int, String>()
        for key in map.keys.reversed() { other[key] = map[key] }
        #expect(other == map && other.hashValue == map.hashValue)
        other[4] = "x"
        #expect(other != map)
    }

    @Test func resendTriggersAreASetInTheirFixedOrder() {
        var p = PolicyPreset.naive.policy
        p.resendOn = [.network, .launch, .network]
        #expect(p.resendOn == [.launch, .network])
        #expect(p.resends(on: .network) && !p.resends(on: .login) && p.resendsAtAll)
        var q = PolicyPreset.naive.policy
        q.resendOn = [.launch, .network]
        #expect(p == q && p.hashValue == q.hashValue)
        q.resendOn = []
        #expect(!q.resendsAtAll && q == PolicyPreset.naive.policy)
        let built = Policy(
            observer: .launch, finish: .afterCredit, finishFailed: true, persist: .keychain,
            retryImmediate: 3, retryIntervalMs: 300_000, resendOn: ResendTrigger.allCases.reversed(),
            match: .token, serverDedup: true, serverBindOrder: true, creditTo: .orderOwner,
            retryMaxIntervalMs: 86_400_000)
        #expect(built == PolicyPreset.hardened.policy && built.resendOn == ResendTrigger.allCases)
    }
}
