import Foundation
import IAPSimCore
import Testing

/// `iapsim explore` and `iapsim matrix`, run as a user runs them.
@Suite(.serialized) struct ExploreCLITests {
    /// Every anomaly type, in the order explore and matrix print them.
    static let allTypes = AnomalyType.simulatedWorld.map(\.rawValue)
    /// The types StoreKit 1 schedules can produce: they draw no refunds and sell no subscriptions.
    static let types = AnomalyType.simulatedWorld.filter { !$0.rawValue.hasPrefix("refund-") && !$0.isSubscription }
        .map(\.rawValue)
    /// Fields that measure the machine, not the simulation.
    static let timing: Set<String> = [
        "seconds", "runs_per_second", "events_per_second",
        "facts_per_second", "jobs",
    ]

    static func json(_ result: CLI.Result) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(result.stdout)")
    }

    /// The report without its timing fields, with the findings as file contents instead of
    /// paths, as canonical JSON text.
    static func results(_ result: CLI.Result) throws -> String {
        var object = try json(result).filter { !timing.contains($0.key) }
        let files = try #require(object["findings"] as? [String: String])
        object["findings"] = try files.mapValues { try String(contentsOfFile: $0, encoding: .utf8) }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    static func scratch(_ name: String) -> String {
        let path = CLI.temporaryFile(name)
        try? FileManager.default.removeItem(atPath: path)
        return path
    }

    @Test func sameSeedGivesTheSameResultsTwiceAndOnAnyNumberOfJobs() throws {
        var seen: [String] = []
        for (i, jobs) in ["1", "1", "2"].enumerated() {
            let out = Self.scratch("same-\(i)")
            defer { try? FileManager.default.removeItem(atPath: out) }
            let result = try CLI.run([
                "explore", "--policy", "naive", "--runs", "300", "--seed", "5",
                "--jobs", jobs, "--out", out, "--json",
            ])
            #expect(result.status == 1)
            seen.append(try Self.results(result))
        }
        #expect(seen[0] == seen[1])
        #expect(seen[0] == seen[2])
        let otherOut = Self.scratch("same-other")
        defer { try? FileManager.default.removeItem(atPath: otherOut) }
        let other = try CLI.run([
            "explore", "--policy", "naive", "--runs", "300", "--seed", "6",
            "--out", otherOut, "--json",
        ])
        #expect(try Self.results(other) != seen[0])
    }

    @Test func jsonIsOneObjectWithCountsFindingsAndTimings() throws {
        let out = Self.scratch("json")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try CLI.run([
            "explore", "--policy", "retransmit", "--runs", "200", "--seed", "3",
            "--jobs", "2", "--out", out, "--json",
        ])
        let object = try Self.json(result)
        for key in [
            "policy", "runs", "seed", "anomalies", "findings", "seconds", "runs_per_second",
            "jobs", "events", "events_per_second",
        ] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["policy"] as? String == "retransmit")
        #expect(object["runs"] as? Int == 200)
        #expect(object["seed"] as? Int == 3)
        #expect(object["jobs"] as? Int == 2)
        let anomalies = try #require(object["anomalies"] as? [String: [String: Int]])
        #expect(Set(anomalies.keys) == Set(Self.allTypes))
        for (type, byStatus) in anomalies {
            #expect(Set(byStatus.keys) == Set(AnomalyStatus.allCases.map(\.rawValue)), "\(type)")
        }
        #expect(result.stderr.isEmpty)
    }

    @Test func hardenedEndsEveryRunResolvedAndExitsZero() throws {
        let out = Self.scratch("hardened")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try CLI.run([
            "explore", "--policy", "hardened", "--runs", "2000", "--seed", "1",
            "--out", out, "--json",
        ])
        #expect(result.status == 0)
        let object = try Self.json(result)
        let anomalies = try #require(object["anomalies"] as? [String: [String: Int]])
        for (type, byStatus) in anomalies {
            #expect(byStatus["open"] == 0 && byStatus["permanent"] == 0, "\(type): \(byStatus)")
        }
        #expect((object["findings"] as? [String: String])?.isEmpty == true)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func naiveFindsAllSixTypesEachShrunkToAFileThatRunPasses() throws {
        let out = Self.scratch("naive")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try CLI.run([
            "explore", "--policy", "naive", "--runs", "2000", "--seed", "1",
            "--out", out,
        ])
        #expect(result.status == 1)
        #expect(result.lines[0] == "explore: policy naive, 2000 runs from seed 1, 24 steps each, 1 job(s)")
        #expect(result.lines[1].hasPrefix("  2000/2000 runs, "))
        #expect(result.lines[1].contains(" runs/s, "))
        #expect(result.lines[1].contains(" unresolved anomalies in "))
        #expect(result.lines.contains { $0.hasPrefix("type ") && $0.hasSuffix(" open  resolved  blocked  permanent") })
        for type in Self.types {
            let file = "\(out)/\(type).yaml"
            #expect(result.lines.contains("    iapsim run \(file)"), "no reproduce line for \(type)")
            let header = try #require(result.lines.first { $0.hasPrefix("  \(type): run ") })
            let steps = try Self.shrinkage(header)
            #expect(steps.after <= steps.before, "\(header)")
            // 24 drawn steps, and the server faults drawn from their own generator.
            #expect(steps.before >= 24 && steps.before <= 30, "\(header)")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(Self.stepCount(text) == steps.after, "\(type): \(text)")
            let replay = try CLI.run(["run", "--quiet", file])
            #expect(replay.status == 0, "\(type): \(replay.stdout)\(replay.stderr)")
        }
    }

    @Test func thePrintedExploreCommandReplaysTheFailingRun() throws {
        let out = Self.scratch("replay")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try CLI.run([
            "explore", "--policy", "naive", "--runs", "100", "--seed", "1",
            "--out", out,
        ])
        let at = try #require(result.lines.firstIndex { $0.hasPrefix("    iapsim explore ") })
        // "  lost-order: run 10, 24 -> 2 steps, ..." two lines above names the type.
        let type = String(result.lines[at - 2].dropFirst(2).prefix { $0 != ":" })
        #expect(Self.types.contains(type))
        var arguments = result.lines[at].split(separator: " ").dropFirst().map(String.init)
        arguments += ["--out", out, "--json"]
        let again = try CLI.run(arguments)
        #expect(again.status == 1)
        let object = try Self.json(again)
        #expect(object["runs"] as? Int == 1)
        #expect((object["findings"] as? [String: String])?[type] != nil, "\(type) not found again")
    }

    @Test(arguments: [
        (["explore", "--runs", "0"], "Error: --runs must be from 1 to 10000000, got 0"),
        (["explore", "--jobs", "x"], "Error: --jobs must be a whole number from 1 to 256, got x"),
        (["explore", "--runs", "-1"], "Error: --runs must be from 1 to 10000000, got -1"),
        (
            ["explore", "--seed", "18446744073709551616"],
            "Error: --seed must be from 0 to 18446744073709551615, got 18446744073709551616"
        ),
        (
            ["explore", "--policy", "bogus"],
            "Error: The value 'bogus' is invalid for '--policy <policy>'. "
                + "Please provide one of the following:"
        ),
        (["explore", "--steps", "0"], "Error: --steps must be from 1 to 1000, got 0"),
        (["matrix", "--jobs", "0"], "Error: --jobs must be from 1 to 256, got 0"),
    ])
    func badFlagsExitTwoWithOneMessage(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }
        #expect(errors == [Substring(message)])
    }

    @Test func matrixIsAMarkdownTableWithHardenedAllZero() throws {
        let result = try CLI.run(["matrix", "--runs", "300", "--seed", "1", "--jobs", "2"])
        #expect(result.status == 0)
        #expect(
            result.lines.contains("| preset | " + Self.allTypes.joined(separator: " | ") + " |"))
        let rows = result.lines.filter { $0.hasPrefix("| ") && !$0.hasPrefix("| preset") }
        #expect(
            rows.map { $0.split(separator: "|")[0].trimmingCharacters(in: .whitespaces) }
                == ["naive", "local-table", "retransmit", "retry-file", "hardened"])
        #expect(rows.last == "| hardened |" + String(repeating: " 0% |", count: Self.allTypes.count))
        // StoreKit 1 schedules draw no refunds and sell no subscriptions: naive shows every
        // other failure (the two refund types, the four subscription types and
        // promo-ineligible are last).
        let none = String(repeating: " 0% |", count: 7)
        #expect((rows.first ?? "").hasSuffix(none))
        #expect(!(rows.first ?? "").dropLast(none.count).contains(" 0% "), "naive: \(rows.first ?? "")")
    }

    /// "  lost-order: run 10, 24 -> 2 steps, ..." -> (24, 2)
    static func shrinkage(_ line: String) throws -> (before: Int, after: Int) {
        let words = line.split(separator: " ")
        let arrow = try #require(words.firstIndex(of: "->"))
        return (try #require(Int(words[arrow - 1])), try #require(Int(words[arrow + 1])))
    }

    /// The number of items in a scenario file's `steps:` list before the heal phase (the
    /// file spells the heal out as steps, the first saying "Heal phase: ...").
    static func stepCount(_ yaml: String) -> Int {
        let lines = yaml.split(separator: "\n")
        guard let start = lines.firstIndex(of: "steps:") else { return 0 }
        var count = 0
        for line in lines[(start + 1)...].prefix(while: { $0.hasPrefix("  ") }) {
            if line.contains("say: \"Heal phase:") { return count - 1 }
            if line.hasPrefix("  - ") { count += 1 }
        }
        return count
    }
}
