import Testing

@testable import IAPSimCore

@Suite struct SeedSweepTests {
    /// 2,000 random fault schedules under `hardened`, healed and settled: nothing may stay
    /// open or be lost for good, nobody is credited twice, every charge reaches its payer once.
    @Test func hardenedRecoversEverythingAfterHealing() {
        var failures: [String] = []
        for seed in UInt64(1)...2_000 {
            let schedule = Schedule.random(seed: seed, count: 24)
            var sim = Simulation(
                WorldConfig(
                    seed: seed, users: schedule.users,
                    policy: PolicyPreset.hardened.policy, logLimit: 0))
            // The run of `sim.run(schedule)`, with the invariants asked after each phase
            // (debug builds also assert them after every event, naming the seed).
            var watch = InvariantWatch()
            var broken: [InvariantViolation] = []
            _ = sim.runSteps(schedule)
            broken += sim.invariantViolations(&watch)
            sim.heal()
            broken += sim.invariantViolations(&watch)
            sim.settle()
            broken += sim.invariantViolations(&watch)
            let a = sim.auditor
            var problems = broken.map { "invariant broken: \($0)" }
            if !a.unresolved.isEmpty {
                problems.append(
                    "unresolved "
                        + a.unresolved.map { "\($0.type.rawValue):\($0.status.rawValue) \($0.txn ?? "")" }.joined(
                            separator: ", "))
            }
            if a.count(.doubleCredit) > 0 { problems.append("double credit") }
            for c in a.charges where c.credits.count != 1 || c.credits.first?.user != c.buyer {
                problems.append("charge \(c.txn) of \(c.buyer) credited \(c.credits.map(\.user))")
            }
            if !problems.isEmpty {
                failures.append("seed \(seed): " + problems.joined(separator: "; "))
            }
        }
        for failure in failures.prefix(5) { print(failure) }
        #expect(
            failures.isEmpty, "\(failures.count) failing seeds, first: \(failures.prefix(5).joined(separator: "\n"))")
    }

    @Test func sameSeedAndCommandsGiveTheSameLogByteForByte() {
        func render(_ seed: UInt64) -> String {
            var sim = Simulation(WorldConfig(seed: seed, users: ["alice", "bob", "carol"]))
            sim.run(Schedule.random(seed: 42, count: 30))
            return sim.log.map(\.line).joined(separator: "\n")
        }
        let first = render(7), second = render(7)
        #expect(first == second)
        #expect(first.utf8.count > 1_000)
        #expect(render(8) != first, "another seed draws other tokens and receipt orders")
    }

    @Test func schedulesAreDrawnFromTheSeed() {
        #expect(Schedule.random(seed: 5, count: 20) == Schedule.random(seed: 5, count: 20))
        #expect(Schedule.random(seed: 5, count: 20) != Schedule.random(seed: 6, count: 20))
    }
}
