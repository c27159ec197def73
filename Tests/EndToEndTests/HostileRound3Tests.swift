import Foundation
import Testing

/// The third hostile round beyond `serve`: handouts bounded and escaped, two outputs on one
/// new folder refused before anything runs (round 2), and the costs that grew with
/// repetition (subscriptions' renewals, the what-if replays of round 1) bounded.
@Suite struct HostileRound3Tests {
    /// A naive file whose buyer replays her receipt `replays` times: one anomaly each.
    static func replays(_ replays: Int, title: String) -> String {
        "format: 1\ntitle: \(title)\npolicy: naive\nusers: [mallory]\nsteps:\n  - do: buy coins_100\n"
            + String(repeating: "  - after: 10s\n    do: replay\n", count: replays)
    }

    @Test func handoutPagesAreTheAnomalysOwnAndEscapeTheTitle() throws {
        let dir = try HostileInputTests.scratch("handout")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let title = "'<img src=x onerror=alert(1)> [click](javascript:alert(1)) `code` | pipe'"
        try HostileInputTests.write(Self.replays(60, title: title), dir + "/r.yaml")
        let result = try CLI.run(["run", dir + "/r.yaml", "--quiet", "--handout", dir + "/h"])
        #expect(result.status == 0, "\(result.stderr)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: dir + "/h")
        #expect(pages.count == 60)
        var total = 0
        for page in pages {
            let text = try String(contentsOfFile: dir + "/h/" + page, encoding: .utf8)
            total += text.utf8.count
            #expect(text.utf8.count < 64_000, "\(page): \(text.utf8.count) bytes")
            #expect(!text.contains("<img"), "\(page)")
            #expect(!text.contains("](javascript"), "\(page)")
        }
        let first = try String(contentsOfFile: dir + "/h/A1-replay-fraud.md", encoding: .utf8)
        #expect(first.contains("&lt;img src=x onerror=alert\\(1\\)&gt; \\[click\\]\\(javascript\\:alert\\(1\\)\\)"))
        #expect(first.contains("(the first 200 of"), "a page's chain is cut, and says so")
        #expect(total < 60 * 64_000)
    }

    @Test func twoOutputsOnOneNewFolderAreRefusedBeforeAnythingRuns() throws {
        let dir = try HostileInputTests.scratch("new-folder")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try HostileInputTests.write(HostileInputTests.passing, dir + "/s.yaml")
        let cases: [([String], String)] = [
            (["--signed", dir + "/new", "--diagram", dir + "/new"], "the same file as --diagram"),
            (["--diagram", dir + "/new", "--handout", dir + "/new"], "the same file as --diagram"),
        ]
        for (flags, message) in cases {
            let result = try CLI.run(["run", dir + "/s.yaml"] + flags)
            #expect(result.status == 2, "\(flags)")
            #expect(result.stdout.isEmpty, "\(flags): no PASS before the refusal")
            #expect(result.stderr.contains(message), "\(flags): \(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["s.yaml"], "\(flags)")
        }
    }
}
