import ArgumentParser
import Foundation
import IAPSimCore
import IAPSimScenario
import IAPSimServe

/// `iapsim serve`: the user's own backend as the merchant server (docs/serve.md). Scenario
/// files headless, `--explore`, or (neither) the terminal UI. Exit status: 0 all pass, 1 one
/// failed, 2 bad input (nothing runs), 3 the backend cannot be started or reached, or its
/// ledger is unreadable: no verdict.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Play scenarios, explore or the UI against your own backend as the merchant server.",
        discussion: "iapsim plays the device, the App Store, its notifications V2 and Server API, the network "
            + "and the faults; your backend answers orders, reports and notifications, and its ledger is judged. "
            + "Exit status: 0 all pass, 1 one failed, 2 bad input, 3 the backend cannot be started or reached "
            + "(or its ledger is unreadable)."
    )

    @OptionGroup(title: "Catalog") var catalog: CatalogFlags

    @Argument(help: "Scenario files or directories (merchant: external); none: the terminal UI.")
    var paths: [String] = []

    @Option(help: ArgumentHelp("Your backend's base URL (or backend: in serve.yaml).", valueName: "url"))
    var backend: String?

    @Option(help: ArgumentHelp("The serve.yaml that says where and how to call your backend.", valueName: "file"))
    var config: String?

    @Option(help: "The StoreKit 2 preset of the app: sk2-naive or sk2-hardened (default: each file's own).")
    var policy: PolicyPreset?

    @Option(name: .customLong("seed"), parsing: .unconditional, help: "The seed (explore and the UI).")
    var seedFlag = NumberFlag("1")

    @OptionGroup var swarmFlags: SwarmFlags
    var swarm: Bool { swarmFlags.swarm }

    @Option(
        name: .customLong("api-listen"),
        help: ArgumentHelp(
            "Where the App Store Server API listens: HOST:PORT, :PORT, :0 (any free port).", valueName: "addr"))
    var apiListen = "127.0.0.1:0"

    @Option(
        name: .customLong("port-file"),
        help: ArgumentHelp("Write {\"api\": URL, \"backend\": URL} here once the API listens.", valueName: "file"))
    var portFile: String?

    @Option(
        help: ArgumentHelp(
            "Start your backend: /bin/sh -c CMD with PORT, IAPSIM_API_URL, IAPSIM_CERTS, IAPSIM_ENVIRONMENT, "
                + "IAPSIM_BUNDLE_ID, IAPSIM_APP_APPLE_ID; stopped at exit.", valueName: "cmd"))
    var spawn: String?

    @Option(help: "real: virtual time passes at wall speed; warp: it jumps over waits (the default).")
    var time: ServeTime = .warp

    @Option(help: ArgumentHelp("Write every HTTP exchange with the backend as JSON Lines.", valueName: "file"))
    var record: String?

    @Option(help: ArgumentHelp("Answer from a recording instead of a backend: the same run.", valueName: "file"))
    var replay: String?

    @Flag(help: "Keep the API (and a spawned backend) up after the last file, until SIGTERM or SIGINT.")
    var hold = false

    @Flag(
        help: ArgumentHelp(
            "Race each delivery that has a twin: a report and its charge's notification, a notification and its "
                + "duplicate, a retry and the attempt it repeats, together on separate connections (explore: drawn)."))
    var race = false

    /// `--hold`: says so on stderr (stdout's last line stays the count, docs/serve.md rule 2),
    /// then keeps the API and a spawned backend up until SIGINT or SIGTERM.
    func holdIfAsked(_ session: ServeSession) {
        guard hold else { return }
        let backend = session.backend.isEmpty ? " (a replay: no backend)" : " and the backend at \(session.backend)"
        Output.error(
            "holding: the App Store Server API at \(session.apiURL)\(backend) answers from the final state;"
                + " SIGINT or SIGTERM ends it")
        session.hold()
    }

    @Flag(help: "Explore's random schedules against your backend (--runs N).")
    var explore = false

    @Option(name: .customLong("runs"), parsing: .unconditional, help: "Explore runs (with --explore).")
    var runsFlag: NumberFlag?

    @Option(name: .customLong("skip"), parsing: .unconditional, help: "Explore: start at this run index.")
    var skipFlag = NumberFlag("0")

    @Option(
        name: .customLong("stop-after"), parsing: .unconditional,
        help: ArgumentHelp(
            "Explore: stop after this many runs with unresolved anomalies (default: play every run).",
            valueName: "n"))
    var stopAfterFlag: NumberFlag?

    @OptionGroup(title: "Sharding (with --explore)") var sharding: ShardFlags

    @Option(
        name: .customLong("log"), help: ArgumentHelp("Also write every run as JSON Lines.", valueName: "file.jsonl"))
    var logFile: String?

    @Flag(help: "Print each file's event log and verdict, not only its line.")
    var verbose = false

    @Option(
        help: ArgumentHelp(
            "Also write the results as JUnit XML (one testcase per file or explore run).", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("serve.yaml's order: (a path, or a flow map {path, fields}).", valueName: "path"))
    var order: String?
    @Option(help: ArgumentHelp("serve.yaml's report:.", valueName: "path"))
    var report: String?
    @Option(help: ArgumentHelp("serve.yaml's notify:.", valueName: "path"))
    var notify: String?
    @Option(help: ArgumentHelp("serve.yaml's ledger:.", valueName: "path"))
    var ledger: String?
    @Option(help: ArgumentHelp("serve.yaml's spend:.", valueName: "path"))
    var spend: String?
    @Option(help: ArgumentHelp("serve.yaml's users: (a flow map).", valueName: "map"))
    var users: String?
    @Option(help: ArgumentHelp("serve.yaml's ticks: (a flow list of {path, every}).", valueName: "list"))
    var ticks: String?

    enum ServeTime: String, ExpressibleByArgument, CaseIterable { case real, warp }

    func validate() throws {
        _ = try seedFlag.unsigned("--seed")
        _ = try swarmFlags.swarmFlag.value()
        let skip = try skipFlag.whole("--skip", in: FlagRange.skip)
        if backend != nil && spawn != nil {
            throw ValidationError(
                "--backend and --spawn: give one (with --spawn the backend is http://127.0.0.1:$PORT)")
        }
        if record != nil && replay != nil { throw ValidationError("--record and --replay: give one") }
        if replay != nil && spawn != nil { throw ValidationError("--replay needs no backend: drop --spawn") }
        if explore && !paths.isEmpty { throw ValidationError("--explore plays random schedules: give no files") }
        if runsFlag != nil && !explore { throw ValidationError("--runs goes with --explore") }
        if stopAfterFlag != nil && !explore { throw ValidationError("--stop-after goes with --explore") }
        _ = try stopAfterFlag?.whole("--stop-after", in: FlagRange.runs)
        if (sharding.shardText != nil || sharding.shardsFlag != nil) && !explore {
            throw ValidationError("--shard and --shards go with --explore")
        }
        if explore { try sharding.check() }
        let runs = try runsFlag?.whole("--runs", in: FlagRange.runs) ?? ServeExplore.defaultRuns
        guard skip <= Int.max - runs else {
            throw ValidationError("--skip plus --runs must be at most \(Int.max), got \(skip) + \(runs)")
        }
        if let policy, policy.policy.storekit != .two {
            throw ValidationError("--policy: serve is the StoreKit 2 world; accepted: sk2-naive, sk2-hardened")
        }
        _ = try listenAddress()
    }

    func listenAddress() throws -> (host: String, port: Int) {
        let parts = apiListen.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let port = Int(parts[1]), (0...65_535).contains(port) else {
            throw ValidationError("--api-listen must be HOST:PORT, :PORT or :0, got \(apiListen)")
        }
        return (parts[0].isEmpty ? "127.0.0.1" : String(parts[0]), port)
    }

    func run() throws {
        // A refused StoreKit file is said before anything is started or called.
        _ = try catalog.load()
        var options = ServeSession.Options()
        options.config = try serveConfig()
        if options.config.backend == nil && spawn == nil && replay == nil {
            Output.error("Error: serve needs your backend: --backend URL, backend: in --config, or --spawn 'CMD'")
            throw ExitCode(2)
        }
        let (host, port) = try listenAddress()
        options.apiHost = host
        options.apiPort = port
        options.spawn = spawn
        options.realTime = time == .real
        options.replay = replay
        options.race = race
        let outputs = try ServeOutputs(self, inputs: inputs)
        defer { outputs.discard() }
        options.record = outputs.recordSink
        if explore {
            return try ServeExplore(command: self, options: options, outputs: outputs).run()
        }
        if paths.isEmpty {
            return try ServeUI(command: self, options: options, outputs: outputs).run()
        }
        var files = ServeFiles(command: self, options: options, outputs: outputs)
        try files.run()
    }

    /// The session (the API listening, the backend reached or spawned), then `--port-file`;
    /// a failure of either stops what was started.
    static func start(_ options: ServeSession.Options, outputs: ServeOutputs) throws -> ServeSession {
        let session: ServeSession
        do { session = try ServeSession(options) } catch { throw fail(error, session: nil) }
        do {
            try outputs.writePortFile(api: session.apiURL, backend: session.backend)
        } catch {
            session.close()
            throw error
        }
        return session
    }

    /// serve.yaml, then each flag over it.
    func serveConfig() throws -> ServeConfig {
        var config = ServeConfig()
        do {
            if let file = self.config {
                let text: String
                do { text = try PlainYAML.readFile(file) } catch { throw ServeConfigError(error.description) }
                config = try ServeConfig.parse(text, file: file)
            }
            let flags: [(String, String?)] = [
                ("order", order), ("report", report), ("notify", notify), ("ledger", ledger), ("spend", spend),
                ("users", users), ("ticks", ticks),
            ]
            for case (let key, let value?) in flags {
                let written = value.hasPrefix("/") ? "{path: \"\(value)\"}" : value
                let one = try ServeConfig.parse("\(key): \(written)", file: "--\(key)")
                config.take(key, from: one)
            }
        } catch let error as ServeConfigError {
            Output.error("Error: \(error.description)")
            throw ExitCode(2)
        }
        if let backend {
            if let problem = ServeConfig.backendProblem(backend) {
                Output.error("Error: --backend \(problem)")
                throw ExitCode(2)
            }
            config.backend = backend
        }
        if spawn != nil { config.backend = nil }
        return config
    }

    var seed: UInt64 { (try? seedFlag.unsigned("--seed")) ?? 1 }

    /// Every file this serve reads: serve.yaml, the recording, the scenarios, the catalog's
    /// files and the script `--spawn` runs (`OutputCheck`: no output may be one of them).
    var inputs: [OutputCheck.Input] {
        [config, replay].compactMap { $0 }.map(OutputCheck.Input.scenario)
            + catalog.inputs(scenarios: ScenarioFiles.expand(paths))
            + (spawn.map(Self.scripts) ?? []).map { .flag("--spawn's script", $0) }
    }

    /// The words of a `--spawn` command that name an existing regular file (`./backend.sh`,
    /// `python3 server.py`: `server.py`), as the shell would read a plain or quoted word.
    static func scripts(_ command: String) -> [String] {
        command.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == ";" || $0 == "&" || $0 == "|" })
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "'\"")) }
            .filter {
                !$0.isEmpty && !$0.contains("$") && OSPath.info($0).map { $0.st_mode & S_IFMT == S_IFREG } == true
            }
    }

    /// Ends the session and exits 3 (or 2) for a failure that is not a verdict.
    /// `--log` and `--record` are put in place with what happened until then (the
    /// recording of a backend that stopped answering is what explains it), unless writing
    /// them is what failed.
    static func fail(_ failure: ServeFailure, session: ServeSession?, outputs: ServeOutputs? = nil) -> ExitCode {
        session?.close()
        Output.error("Error: \(failure.description)")
        if let outputs, outputs.recordProblem == nil {
            do { try outputs.commit() } catch { return error as? ExitCode ?? ExitCode(2) }
        }
        return ExitCode(failure.exitCode)
    }
}
