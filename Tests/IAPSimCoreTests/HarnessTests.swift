import Testing

@testable import IAPSimCore

/// The checkers beside the world (`Checkers`): a second checker is added at run time, with
/// no edit of the engine or the auditor, and sees exactly the facts of the kinds it reads.
@Suite struct HarnessTests {
    /// A test's checker: keeps every fact of its kinds it is shown, and counts its looks.
    struct Recorder: Checker {
        let subscription: FactKindSet
        var seen: [LogEntry] = []
        var looks = 0

        mutating func see(_ entry: LogEntry, _ out: inout [LogEntry]) { seen.append(entry) }

        mutating func look(
            now: VirtualTime, store: AppStore, app: AppProcess, server: MerchantServer, policy: Policy,
            _ out: inout [LogEntry]
        ) { looks += 1 }
    }

    /// Kinds the auditor reads (a charge, a credit) and kinds it does not (an order, a
    /// message sent): the engine must build the latter for the recorder alone.
    static let kinds: [Fact.Kind] = [.paymentCharged, .coinsCredited, .orderCreated, .messageSent]

    /// One explore run (schedule `index` under `preset`), with the recorder beside the
    /// auditor or not; `keepLog` false is explore's own world, which keeps no log.
    static func run(_ preset: PolicyPreset, _ index: Int, recorder: Bool, keepLog: Bool) -> Simulation {
        let explorer = Explorer(policy: preset.policy, seed: 5)
        let seed = explorer.runSeed(index)
        let schedule = explorer.schedule(seed: seed)
        // As `Simulation(config)` makes it, the recorder added before the launch.
        var sim = Simulation(unlaunched: explorer.config(schedule, seed: seed, keepLog: keepLog))
        sim.reserveTypicalRoom()
        if recorder { sim.addChecker(Recorder(subscription: FactKindSet(kinds))) }
        sim.launchIfConfigured()
        sim.run(schedule)
        return sim
    }

    @Test(arguments: [PolicyPreset.naive, .hardened, .sk2Naive, .sk2Hardened])
    func aSecondCheckerSeesExactlyTheFactsOfItsKinds(_ preset: PolicyPreset) throws {
        var anomalies = 0
        // Facts of the kinds the auditor does not read (orders, messages sent).
        var othersSeen = 0
        for index in 0..<12 {
            let sim = Self.run(preset, index, recorder: true, keepLog: true)
            let recorder = try #require(sim.checker(Recorder.self))
            let expected = sim.log.filter { Self.kinds.contains($0.fact.kind) }
            #expect(recorder.seen == expected)
            othersSeen += recorder.seen.filter { !Auditor.subscription.contains($0.fact.kind) }.count
            #expect(recorder.looks > 0)
            anomalies += sim.auditor.anomalies.count

            // Explore's world keeps no log: the kinds only the recorder reads are built for it.
            let unlogged = Self.run(preset, index, recorder: true, keepLog: false)
            #expect(try #require(unlogged.checker(Recorder.self)).seen == expected)
            #expect(unlogged.logCount == sim.logCount)
        }
        // The runs have anomalies: the auditor's verdict below is compared on something.
        #expect(anomalies > 0)
        // The recorder saw kinds the auditor does not read: built for it alone in explore's world.
        #expect(othersSeen > 0)
    }

    @Test(arguments: [PolicyPreset.naive, .hardened, .sk2Naive, .sk2Hardened])
    func theAuditorsVerdictIsTheSameBesideASecondChecker(_ preset: PolicyPreset) {
        for index in 0..<12 {
            let alone = Self.run(preset, index, recorder: false, keepLog: true)
            let beside = Self.run(preset, index, recorder: true, keepLog: true)
            #expect(alone.auditor == beside.auditor)
            #expect(alone.auditor.anomalies == beside.auditor.anomalies)
            #expect(alone.log == beside.log)
            #expect(alone.eventsProcessed == beside.eventsProcessed)
            #expect(beside.checkers.subscription.contains(.orderCreated))
            #expect(!alone.checkers.subscription.contains(.orderCreated))
        }
    }

    @Test func aRestartedWorldHasTheAuditorOnly() {
        var sim = Self.run(.hardened, 0, recorder: true, keepLog: false)
        sim.restart(sim.config)
        #expect(sim.checker(Recorder.self) == nil)
        #expect(sim.checkers.subscription == Auditor.subscription)
    }

    /// The harness holds the world and its checkers as two values side by side; the world
    /// stores no checker of any kind (architecture review 2, change 4).
    @Test func theHarnessHoldsTheWorldAndItsCheckersSideBySide() {
        let sim = Self.run(.hardened, 0, recorder: true, keepLog: true)
        #expect(Mirror(reflecting: sim).children.map(\.label) == ["world", "checkers"])
        let fields = Mirror(reflecting: sim.world).children
        #expect(fields.count >= 10)
        for field in fields {
            // The notes an event writes for its onlooker are the world's own (`OnlookerNote`).
            let type = String(describing: Swift.type(of: field.value)).replacing("OnlookerNote", with: "")
            let label = field.label ?? "?"
            #expect(!(field.value is any Onlooker) && !(field.value is any Checker), "World.\(label) is a checker")
            #expect(
                !type.contains("Auditor") && !type.contains("Checker") && !type.contains("Onlooker"),
                "World.\(label) is a \(type)")
        }
    }

    /// An onlooker of a test's own, in place of the checkers: it counts what it is shown.
    struct Tally: Onlooker {
        var seen: [LogEntry] = []
        var looks = 0
        mutating func see(_ entry: LogEntry, _ out: inout [LogEntry]) { seen.append(entry) }
        mutating func hear(_ note: OnlookerNote, at now: VirtualTime, _ out: inout [LogEntry]) {}
        mutating func look(now: VirtualTime, _ out: inout [LogEntry]) { looks += 1 }
        var looksAtParts: Bool { false }
        mutating func look(
            now: VirtualTime, store: AppStore, app: AppProcess, server: MerchantServer, policy: Policy,
            _ out: inout [LogEntry]
        ) {}
        func violations(in world: World) -> [InvariantViolation] { [] }
    }

    /// The world runs without the auditor: the engine alone, beside a tally, writes every
    /// fact the audited world writes (the auditor's own words aside), and shows the tally
    /// exactly the facts of the kinds it was built to read.
    @Test(arguments: [PolicyPreset.naive, .hardened, .sk2Naive, .sk2Hardened])
    func theWorldRunsWithoutTheAuditor(_ preset: PolicyPreset) {
        let config = WorldConfig(seed: 3, policy: preset.policy)
        let commands: [Command] = [
            .login(user: "alice"), .openStore, .buy(product: "coins_100"), .wait(5_000), .crash, .launch, .wait(60_000),
        ]
        var audited = Simulation(config)
        var world = World(unlaunched: config, subscription: FactKindSet([.paymentCharged, .appLaunched]))
        var tally = Tally()
        var none: [LogEntry]?
        _ = world.command(.launch, into: &none, &tally)
        for command in commands {
            audited.apply(command)
            guard case .wait = command else {
                _ = world.command(command, into: &none, &tally)
                continue
            }
            while let next = world.nextEventTime, next <= audited.now { _ = world.runNext(into: &none, &tally) }
            world.passTo(audited.now)
        }
        audited.settle()
        while world.runNext(into: &none, &tally) != nil {}
        #expect(audited.auditor.ledger.charges.count == 1)
        #expect(world.log == audited.log.filter { $0.part != .auditor })
        #expect(tally.seen == world.log.filter { [.paymentCharged, .appLaunched].contains($0.fact.kind) })
        #expect(tally.seen.count >= 3)
        #expect(tally.looks > world.eventsProcessed)
    }
}
