import Foundation
import Testing

/// `serve --explore --stop-after N` (issue 55 item 5: the zoo's first detections over real HTTP).
@Suite(.serialized) struct ServeStopAfterTests {
    static func serve(_ extra: [String], junit: String) throws -> CLI.Result {
        let server = CLI.root.path + "/Tests/Fixtures/serve/other_backend.py"
        return try CLI.run(
            [
                "serve", "--config", CLI.root.path + "/Tests/Fixtures/serve/other_backend.yaml", "--spawn",
                "BUGS=no-dedup python3 \(server)", "--explore", "--policy", "sk2-naive", "--seed", "2",
                "--junit", junit,
            ] + extra)
    }

    @Test(.enabled(if: HostileRound4Tests.python, "python3 is not installed"))
    func stopAfterEndsAtTheNthFailingRunAndSaysSo() throws {
        let dir = ExploreCLITests.scratch("serve-stop-after")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let whole = try Self.serve(["--runs", "12"], junit: dir + "/whole.xml")
        let cases = try ShardMergeTests.testcases(dir + "/whole.xml")
        #expect(cases.count == 12, "\(whole.stdout)\(whole.stderr)")
        // The failing runs of the whole exploration, by index.
        let failing = cases.filter(\.value).keys.compactMap { Int($0.dropFirst(4).prefix { $0 != "," }) }.sorted()
        try #require(failing.count >= 2, "no-dedup failed fewer than two of 12 runs: \(whole.stdout)")
        let stopped = try Self.serve(["--runs", "12", "--stop-after", "2"], junit: dir + "/stopped.xml")
        #expect(stopped.status == 1, "\(stopped.stderr)")
        let played = try ShardMergeTests.testcases(dir + "/stopped.xml")
        // Every run up to the second failing one, and none after it.
        #expect(played.count == failing[1] + 1, "\(stopped.stdout)")
        #expect(played.filter(\.value).count == 2)
        #expect(
            stopped.lines.first?.hasPrefix(
                "\(failing[1] + 1) runs (stopped after 2 failing; --stop-after) of sk2-naive")
                == true, "\(stopped.stdout)")
        // Never reached: the summary is the whole one.
        let enough = try Self.serve(["--runs", "12", "--stop-after", "12"], junit: dir + "/enough.xml")
        #expect(enough.lines.first?.hasPrefix("12 runs of sk2-naive") == true, "\(enough.stdout)")
    }

    @Test(arguments: [
        (["serve", "--stop-after", "1", "--backend", "http://127.0.0.1:9"], "Error: --stop-after goes with --explore"),
        (
            ["serve", "--explore", "--stop-after", "0", "--backend", "http://127.0.0.1:9"],
            "Error: --stop-after must be from 1 to 10000000, got 0"
        ),
    ])
    func aStopAfterOutOfPlaceIsRefused(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").first.map(String.init) == message, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
