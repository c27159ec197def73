import ArgumentParser
import Foundation
import IAPSimCore
import IAPSimScenario
import IAPSimServe

/// `iapsim serve FILE ...`: each file a world of its own against the backend, one line each,
/// then `N passed, N failed` (docs/serve.md, "Exit status").
struct ServeFiles {
    let command: ServeCommand
    var options: ServeSession.Options
    let outputs: ServeOutputs

    init(command: ServeCommand, options: ServeSession.Options, outputs: ServeOutputs) {
        self.command = command
        self.options = options
        self.outputs = outputs
    }

    /// The anomaly types a blind serve (no `ledger`) can judge.
    static let blindTypes: [AnomalyType] = [.lostOrder, .missedOrder, .ackedNotCredited]

    mutating func run() throws {
        let files = ScenarioFiles.expand(command.paths)
        var scenarios: [(file: String, scenario: Scenario)] = []
        var invalid: [String] = []
        for file in files {
            do {
                var scenario = try ScenarioParser.load(path: file)
                if let preset = command.policy { scenario.policy = preset.policy }
                if let why = refusal(scenario) {
                    invalid.append("INVALID  \(file): \(why)")
                } else {
                    scenarios.append((file, scenario))
                }
            } catch {
                invalid.append("INVALID  \(error.description)")
            }
        }
        if let first = scenarios.first?.scenario.environment {
            options.environment = first
            for (file, s) in scenarios where s.environment != first {
                invalid.append(
                    "INVALID  \(file): environment: \(s.environment.payloadName.lowercased()); one serve serves one "
                        + "environment (the first file's, \(first.payloadName.lowercased())): serve it apart")
            }
        }
        guard invalid.isEmpty else {
            try Output.print(invalid + ["0 passed, \(invalid.count) failed"])
            throw ExitCode(2)
        }
        let session = try ServeCommand.start(options, outputs: outputs)
        // Whatever ends the serve (a failure, a write error, standard output gone), the
        // backend is stopped and the keys removed.
        defer { session.close() }
        let log = ServeLog(outputs: outputs)
        var passed = 0
        var failed = 0
        for (file, scenario) in scenarios {
            let outcome: ServeFileOutcome
            do {
                outcome = try play(scenario, file: file, session: session, log: log)
            } catch let failure as ServeFailure {
                throw ServeCommand.fail(failure, session: session, outputs: outputs)
            }
            if outcome.result.passed { passed += 1 } else { failed += 1 }
            try Output.print(outcome.lines)
        }
        if let unfinished = session.replayUnfinished {
            throw ServeCommand.fail(unfinished, session: session, outputs: outputs)
        }
        if options.config.ledger == nil {
            try Output.print([
                "blind: no ledger in serve.yaml; only lost and missed orders (and acknowledgements) were judged:"
                    + " credits, double credits, wrong accounts and clawbacks were not seen"
            ])
        }
        try Output.print(["\(passed) passed, \(failed) failed"])
        try outputs.commit()
        command.holdIfAsked(session)
        session.close()
        if failed > 0 { throw ExitCode(1) }
    }

    /// Why a file cannot be served (exit 2), or nil.
    func refusal(_ s: Scenario) -> String? {
        if s.policy.storekit != .two {
            return "serve is the StoreKit 2 world only; write storekit: 2 (or a preset sk2-naive, sk2-hardened)"
        }
        if options.config.spend == nil,
            s.steps.contains(where: {
                if case .spend = $0.command { return true }
                return false
            })
        {
            return "spend needs spend: {path: ...} in serve.yaml (your backend's call that spends coins)"
        }
        let e = s.expect
        // Under serve a subscription's access is not judged (a ledger has no expiry).
        let unjudged =
            (e.subscriptions.values.contains { $0.access != nil } ? ["subscriptions.*.access"] : [])
            + e.anomalies.map(\.type).filter(\.isSubscription).map(\.rawValue)
        if !unjudged.isEmpty {
            return "expect \(unjudged.joined(separator: ", ")): a subscription's access is not judged under serve"
                + " (your ledger has no expiry to compare); expect status, product and renewals instead"
        }
        guard options.config.ledger == nil else { return nil }
        var needs: [String] = []
        if !e.credited.isEmpty { needs.append("credited") }
        if !e.entitlements.isEmpty { needs.append("entitlements") }
        if !e.spent.isEmpty { needs.append("spent") }
        if e.money != nil { needs.append("money") }
        let seen = e.anomalies.map(\.type).filter { !Self.blindTypes.contains($0) }
        if !seen.isEmpty { needs.append("anomalies of type " + seen.map(\.rawValue).joined(separator: ", ")) }
        guard !needs.isEmpty else { return nil }
        return "blind serve (no ledger in serve.yaml): expect \(needs.joined(separator: "; ")) needs the ledger;"
            + " add ledger: {path: ...} or drop them"
    }

    func play(_ scenario: Scenario, file: String, session: ServeSession, log: ServeLog) throws
        -> ServeFileOutcome
    {
        let clock = ContinuousClock()
        let start = clock.now
        let (merchant, link) = try session.merchant(users: scenario.users, prefix: "f\(session.worlds + 1)-")
        var player = ScenarioPlayer(scenario, logLimit: nil)
        player.attach(link)
        var records = player.openingRecords
        while !player.stepsDone { records += player.playStep() }
        let (rest, result) = player.finish()
        records += rest
        if let failure = session.failure(of: merchant) ?? outputs.recordProblem { throw failure }
        try log.add(records, world: session.worlds, prefix: "f\(session.worlds)-", source: file)
        let wall = clock.now - start
        let backendMs = merchant.exchanges.reduce(0) { $0 + $1.wallMs }
        let ms = wall.components.seconds * 1000 + wall.components.attoseconds / 1_000_000_000_000_000
        let timing =
            "(virtual \(DurationText.clock(result.simulation.now)), \(merchant.exchanges.count) exchanges, "
            + "\(ms) ms, backend \(backendMs) ms)"
        var lines: [String] = []
        if command.verbose {
            lines += Transcript.header(scenario, file: file)
            lines += records.flatMap { Transcript.lines(for: $0, in: .two) }
            lines += Transcript.verdict(result, scenario: scenario, whatIf: nil)
        }
        if result.passed {
            lines.append("PASS     \(file)  \(timing)")
        } else {
            lines.append("FAIL     \(file)  \(timing)  \(CheckCommand.reason(result))")
            for a in result.simulation.auditor.anomalies where a.status.isUnresolved {
                lines.append("         \(a.type.rawValue) (\(a.status.rawValue)): \(a.summary)")
            }
        }
        return ServeFileOutcome(result: result, lines: lines)
    }
}

struct ServeFileOutcome {
    var result: ScenarioResult
    var lines: [String]
}

/// `--log`: every world's records as JSON Lines, one file for the invocation (staged by
/// `ServeOutputs`, put in place with the verdict).
struct ServeLog {
    let outputs: ServeOutputs

    /// One world's records, after a line that names the world (its anomaly ids start at 1
    /// again): `{"kind":"world","world":N,"prefix":"f3-","source":FILE}`.
    func add(_ records: [RunRecord], world: Int, prefix: String, source: String) throws {
        guard outputs.logging else { return }
        let head =
            "{\"kind\":\"world\",\"world\":\(world),\"prefix\":\(JSONLinesExport.jsonString(prefix)),"
            + "\"source\":\(JSONLinesExport.jsonString(source))}\n"
        try outputs.writeLog(head + records.compactMap { JSONLinesExport.line($0) }.map { $0 + "\n" }.joined())
    }
}
