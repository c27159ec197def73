import Foundation
import Testing

/// The restructuring oracle: what the binary prints and writes for every shipped scenario,
/// for explore under two presets and for the matrix, compared byte for byte with the files in
/// `Tests/Fixtures/oracle`. A change that means to change behaviour regenerates them with
/// `IAPSIM_UPDATE_ORACLE=1 swift test --filter OracleTests` and shows the diff in its commit.
@Suite(.serialized) struct OracleTests {
    static let folder = CLI.root.appendingPathComponent("Tests/Fixtures/oracle")
    static let updating = ProcessInfo.processInfo.environment["IAPSIM_UPDATE_ORACLE"] == "1"

    static var scenarios: [String] {
        let dir = CLI.root.appendingPathComponent("scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted()
    }

    /// Compares `actual` with the golden file `name`, or writes it when updating.
    static func compare(_ actual: String, _ name: String) throws {
        let url = folder.appendingPathComponent(name)
        if updating {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        if expected != actual {
            let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let first = (0..<min(e.count, a.count)).first { e[$0] != a[$0] } ?? min(e.count, a.count)
            Issue.record(
                """
                \(name) differs from the oracle at line \(first + 1):
                  expected: \(first < e.count ? String(e[first]) : "<end>")
                  actual:   \(first < a.count ? String(a[first]) : "<end>")
                """)
        }
    }

    @Test func everyShippedScenarioPrintsLogsAndDrawsAsBefore() throws {
        #expect(Self.scenarios.count >= 20)
        for name in Self.scenarios {
            let base = String(name.dropLast(".yaml".count))
            let log = CLI.temporaryFile("oracle.jsonl"), diagram = CLI.temporaryFile("oracle.md")
            defer {
                try? FileManager.default.removeItem(atPath: log)
                try? FileManager.default.removeItem(atPath: diagram)
            }
            let result = try CLI.run(["run", "scenarios/\(name)", "--log", log, "--diagram", diagram])
            try Self.compare("exit \(result.status)\n" + result.stdout + result.stderr, "\(base).run.txt")
            try Self.compare(String(contentsOfFile: log, encoding: .utf8), "\(base).log.jsonl")
            try Self.compare(String(contentsOfFile: diagram, encoding: .utf8), "\(base).diagram.md")
        }
    }

    @Test(arguments: ["naive", "hardened"])
    func exploreFindsTheSameAnomaliesAndFindings(policy: String) throws {
        let out = CLI.temporaryFile("oracle-explore-\(policy)")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try CLI.run([
            "explore", "--policy", policy, "--runs", "1000", "--seed", "1",
            "--json", "--out", out,
        ])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        var stable = object
        for key in ["seconds", "runs_per_second", "events_per_second", "facts_per_second", "jobs", "version"] {
            stable.removeValue(forKey: key)
        }
        var findings = ""
        if let files = object["findings"] as? [String: String] {
            stable["findings"] = files.mapValues { ($0 as NSString).lastPathComponent }
            for (type, path) in files.sorted(by: { $0.key < $1.key }) {
                findings += "# \(type)\n" + (try String(contentsOfFile: path, encoding: .utf8))
            }
        }
        let json = try JSONSerialization.data(withJSONObject: stable, options: [.sortedKeys, .prettyPrinted])
        try Self.compare(
            "exit \(result.status)\n" + String(decoding: json, as: UTF8.self) + "\n",
            "explore-\(policy).json")
        try Self.compare(findings, "explore-\(policy)-findings.yaml")
    }

    @Test func matrixPrintsTheSameTable() throws {
        let result = try CLI.run(["matrix", "--runs", "500", "--seed", "1"])
        try Self.compare("exit \(result.status)\n" + result.stdout, "matrix.md")
    }
}
