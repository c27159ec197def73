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
        let policy = command.policy?.rawValue ?? "each file's own"
        var junit = try JUnitReport(
            suite: "iapsim serve" + (command.race ? " --race" : "")
                + (command.policy.map { " --policy \($0.rawValue)" } ?? "")
                + " --seed \(command.seed)",
            path: command.junit, inputs: command.inputs,
            properties: JUnitReport.properties(
                seed: "\(command.seed)", idBlock: "not started", policy: policy, catalog: command.catalog))
        var scenarios: [(file: String, scenario: Scenario)] = []
        var invalid: [(file: String, line: String)] = []
        for file in files {
            do {
                var scenario = try ScenarioParser.load(path: file, options: command.catalog.options)
                if let preset = command.policy { scenario.policy = preset.policy }
                if let why = refusal(scenario) {
                    invalid.append((file, "\(file): \(why)"))
                } else {
                    scenarios.append((file, scenario))
                }
            } catch {
                invalid.append((file, error.description))
            }
        }
        if let first = scenarios.first?.scenario.environment {
            options.environment = first
            for (file, s) in scenarios where s.environment != first {
                invalid.append(
                    (
                        file,
                        "\(file): environment: \(s.environment.payloadName.lowercased()); one serve serves one "
                            + "environment (the first file's, \(first.payloadName.lowercased())): serve it apart"
                    ))
            }
            scenarios.removeAll { $0.scenario.environment != first }
        }
        // An invalid file never hides the valid ones (SERVE-CI rule 8): each is listed first,
        // the others run, and the exit status is the worst.
        for (file, line) in invalid { junit.add(file, .invalid(reason: line)) }
        try Output.print(invalid.map { "INVALID  \($0.line)" })
        var passed = 0
        var failed = 0
        if !scenarios.isEmpty {
            (passed, failed) = try play(scenarios, junit: &junit)
        }
        // Whatever ends the serve (a failure, a write error, standard output gone), the
        // backend is stopped and the keys removed.
        defer { session?.close() }
        try junit.write()
        try Output.print(["\(passed) passed, \(failed) failed, \(invalid.count) invalid"])
        try outputs.commit()
        if let session { command.holdIfAsked(session) }
        session?.close()
        if !invalid.isEmpty { throw ExitCode(2) }
        if failed > 0 { throw ExitCode(1) }
    }

    var session: ServeSession?

    /// Starts the session and plays each valid file against the backend.
    mutating func play(_ scenarios: [(file: String, scenario: Scenario)], junit: inout JUnitReport) throws
        -> (passed: Int, failed: Int)
    {
        let session = try ServeCommand.start(options, outputs: outputs)
        self.session = session
        junit.properties = junit.properties.map { $0.name == "id-block" ? ($0.name, "\(session.block)") : $0 }
        let log = ServeLog(outputs: outputs)
        var passed = 0
        var failed = 0
        for (file, scenario) in scenarios {
            let outcome: ServeFileOutcome
            do {
                outcome = try play(scenario, file: file, session: session, log: log)
            } catch let failure as ServeFailure {
                // No verdict for this file (exit 3): it is named, the files before it keep
                // their lines and testcases, JUnit holds it as an error and `--log` what it did.
                let named = ServeFailure(exitCode: failure.exitCode, "\(file): \(failure.description)")
                junit.add(file, .invalid(reason: named.description))
                let exit = ServeCommand.fail(named, session: session, outputs: outputs)
                try junit.write()
                throw exit
            }
            if outcome.result.passed {
                passed += 1
                junit.add(file, ms: outcome.ms, .passed)
            } else {
                failed += 1
                junit.add(file, ms: outcome.ms, .failed(lines: outcome.verdict))
            }
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
        return (passed, failed)
    }

    /// Why a file cannot be served (exit 2), or nil.
    func refusal(_ s: Scenario) -> String? {
        if s.merchant != .external {
            return "not written for serve (no merchant: external): its expectations describe the simulated "
                + "merchant server; run it with iapsim run, or write merchant: external and expectations of your backend"
        }
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
        // Under serve a subscription's access is read from the ledger (an entitlement of its
        // product or group), but its timeline is not judged: a ledger has no expiry to compare.
        let unjudged = e.anomalies.map(\.type).filter(\.isSubscription).map(\.rawValue)
        if !unjudged.isEmpty {
            return "expect \(unjudged.joined(separator: ", ")): a subscription's access timeline is not judged under"
                + " serve (your ledger has no expiry to compare); expect subscriptions.NAME.access (read from"
                + " the ledger's entitlements), status, product and renewals instead"
        }
        guard options.config.ledger == nil else { return nil }
        var needs: [String] = []
        if !e.credited.isEmpty { needs.append("credited") }
        if !e.entitlements.isEmpty { needs.append("entitlements") }
        if e.subscriptions.values.contains(where: { $0.access != nil }) { needs.append("subscriptions.*.access") }
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
        // Logged before a failure is thrown: `--log` keeps what happened until the backend failed.
        if outputs.recordProblem == nil {
            try log.add(records, world: session.worlds, prefix: "f\(session.worlds)-", source: file)
        }
        if let failure = session.failure(of: merchant) ?? outputs.recordProblem { throw failure }
        let wall = clock.now - start
        let backendMs = HTTPExchange.milliseconds(merchant.exchanges.reduce(.zero) { $0 + $1.backendWall })
        let ms = wall.components.seconds * 1000 + wall.components.attoseconds / 1_000_000_000_000_000
        let timing =
            "(virtual \(DurationText.clock(result.simulation.now)), \(merchant.exchanges.count) exchanges, "
            + "\(ms) ms, backend \(backendMs) ms)"
        var lines: [String] = []
        if command.verbose {
            lines += Transcript.header(scenario, file: file)
            lines += records.flatMap { Transcript.lines(for: $0, in: .two) }
            lines += Transcript.verdict(result, scenario: scenario, whatIf: nil)
            lines += Self.backendIds(merchant, result: result, users: scenario.users)
        }
        let verdict = Self.verdict(result, merchant: merchant)
        if result.passed {
            lines.append("PASS     \(file)  \(timing)")
        } else {
            lines.append("FAIL     \(file)  \(timing)  \(verdict[0])")
            lines += verdict.dropFirst().map { "         " + $0 }
        }
        return ServeFileOutcome(result: result, lines: lines, verdict: verdict, ms: ms)
    }

    /// A failed file's verdict: what went wrong first, each unresolved anomaly, and each
    /// genuine report the backend refused (`report refused: TXN (STATUS, BODY)`, in its ids).
    static func verdict(_ result: ScenarioResult, merchant: ServeMerchant) -> [String] {
        var lines = CheckCommand.anomalyLines(result) + [CheckCommand.reason(result)]
        for r in result.simulation.external?.refusedReports ?? [] {
            lines.append("report refused: \(merchant.ids.transaction(r.txn)) (\(r.why))")
        }
        return lines
    }

    /// `--verbose`: the ids your backend saw for this world's users and transactions, so that
    /// its own logs can be searched for what the transcript shows.
    static func backendIds(_ merchant: ServeMerchant, result: ScenarioResult, users: [String]) -> [String] {
        var lines = ["Your backend's ids:"]
        for user in users {
            lines.append("  user \(user) = \(merchant.ids.user(user)) (ledger account \(merchant.account(user)))")
        }
        for t in result.simulation.store.chargedTransactions {
            lines.append("  transaction \(t.id) = \(merchant.ids.transaction(t.id))")
        }
        lines.append("  appTransactionId = \(merchant.ids.appTransaction)")
        return lines
    }
}

struct ServeFileOutcome {
    var result: ScenarioResult
    var lines: [String]
    /// The verdict's lines (the first: what went wrong first), for JUnit.
    var verdict: [String]
    var ms: Int64
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
