import ArgumentParser
import Foundation
import IAPSimCore
import IAPSimScenario

/// `iapsim check [DIR|FILE ...]`: runs many scenarios and prints one line each, then
/// `N passed, N failed`. Exit 0 when all pass, 1 when one failed, 2 when one was invalid.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run many scenarios headless; one line each, then a count.",
        discussion: "Directories are searched for *.yaml and *.yml files (not recursively). "
            + "Exit status: 0 all pass, 1 one failed, 2 one was invalid."
    )

    @OptionGroup(title: "Catalog") var catalog: CatalogFlags

    @Argument(help: "Scenario files or directories (default: scenarios).")
    var paths: [String] = []

    @Option(help: ArgumentHelp("Also write the results as JUnit XML (one testcase per file).", valueName: "file"))
    var junit: String?

    func run() throws {
        // A refused --storekit or --grants file is one line, not one a scenario.
        _ = try catalog.load()
        let files = ScenarioFiles.expand(paths.isEmpty ? ["scenarios"] : paths)
        var report = try JUnitReport(
            suite: "iapsim check", path: junit, inputs: catalog.inputs(scenarios: files),
            properties: JUnitReport.properties(
                seed: "each file's own", idBlock: "core", policy: "each file's own", catalog: catalog))
        var passed = 0, failed = 0, invalid = 0
        func refuse(_ file: String, _ line: String) throws {
            invalid += 1
            report.add(file, .invalid(reason: line))
            try Output.print(["INVALID  \(line)"])
        }
        for file in files {
            let clock = ContinuousClock()
            let start = clock.now
            let scenario: Scenario
            do {
                scenario = try ScenarioParser.load(path: file, options: catalog.options)
            } catch {
                try refuse(file, error.description)
                continue
            }
            if scenario.merchant == .external {
                try refuse(file, ServeRefusal.message(file))
                continue
            }
            // Only the verdict is printed: no entry of the run is kept.
            var player = ScenarioPlayer(scenario)
            player.collectsEntries = false
            let (_, result) = player.finish()
            if let stopped = result.stopped {
                try refuse(file, "\(file): \(stopped)")
                continue
            }
            let elapsed = clock.now - start
            let ms =
                elapsed.components.seconds * 1000
                + elapsed.components.attoseconds / 1_000_000_000_000_000
            let virtual = DurationText.clock(result.simulation.now)
            let timing = "(virtual \(virtual), \(ms) ms)"
            if result.passed {
                passed += 1
                report.add(file, ms: ms, .passed)
                try Output.print(["PASS     \(file)  \(timing)"])
            } else {
                failed += 1
                report.add(file, ms: ms, .failed(lines: Self.verdictLines(result)))
                try Output.print(["FAIL     \(file)  \(timing)  \(Self.reason(result))"])
            }
        }
        try report.write()
        try Output.print(["\(passed) passed, \(failed + invalid) failed"])
        if invalid > 0 { throw ExitCode(2) }
        if failed > 0 { throw ExitCode(1) }
    }

    /// A failed run's verdict for JUnit: each unresolved anomaly (its type and status first),
    /// then the expectation that failed; the first line is the `message`.
    static func verdictLines(_ result: ScenarioResult) -> [String] {
        anomalyLines(result) + [reason(result)]
    }

    /// `lost-order (unresolved): ...`: each unresolved anomaly, its type and status first.
    static func anomalyLines(_ result: ScenarioResult) -> [String] {
        result.simulation.auditor.anomalies.filter(\.status.isUnresolved).map {
            "\($0.type.rawValue) (\($0.status.rawValue)): \($0.summary)"
        }
    }

    /// The first thing that went wrong, in one line.
    static func reason(_ result: ScenarioResult) -> String {
        if let stop = result.timeout { return stop.description }
        let failing = result.expectations.filter { !$0.holds }
        return failing.map { "\($0.name): expected \($0.expected), actual \($0.actual)" }
            .joined(separator: "; ")
    }
}

/// Which files a list of paths names.
enum ScenarioFiles {
    /// Files as given; directories replaced by their `*.yaml` / `*.yml` files, sorted.
    /// A path that does not exist is kept, so that loading it reports it. Names are read as
    /// the bytes the directory holds (`FileName`), so that a name that is not UTF-8 is
    /// loaded and shown as itself.
    static func expand(_ paths: [String]) -> [String] {
        var files: [String] = []
        for path in paths {
            guard let info = OSPath.info(path), info.st_mode & S_IFMT == S_IFDIR,
                let names = names(in: path)
            else {
                files.append(path)
                continue
            }
            let base = path.hasSuffix("/") ? path : path + "/"
            files += names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
                .sorted { FileName.bytes($0).lexicographicallyPrecedes(FileName.bytes($1)) }.map { base + $0 }
        }
        return files
    }

    private static func names(in directory: String) -> [String]? {
        guard let handle = FileName.withCString(directory, { opendir($0) }) else { return nil }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if bytes != [0x2E] && bytes != [0x2E, 0x2E] { names.append(FileName.fromBytes(bytes)) }
        }
        return names
    }
}
