import Foundation
import Testing

/// Issue 52, "one account of each anomaly, everywhere": for every shipped scenario, the line
/// `run` prints under each anomaly (`prevented by: …` or `resolved by: …`) is the line its
/// handout page, its JSON export's `account` and its split header (`avoided: …`) carry: one
/// value from the core, one wording, and it always names keys.
@Suite(.serialized) struct OneAccountTests {
    struct Account {
        var id: Int
        var type: String
        var line: String
    }

    /// Each anomaly's id, type and account line as `run` prints them.
    static func accounts(_ lines: [String]) -> [Account] {
        var out: [Account] = []
        var current: (Int, String)?
        for line in lines {
            if line.hasPrefix("  A"), let space = line.dropFirst(3).firstIndex(of: " "),
                let id = Int(line.dropFirst(3)[..<space])
            {
                let type = line[line.index(after: space)...].prefix { $0 != " " }
                current = (id, String(type))
            } else if let c = current, line.hasPrefix("    prevented by: ") || line.hasPrefix("    resolved by: ") {
                out.append(Account(id: c.0, type: c.1, line: String(line.dropFirst(4))))
                current = nil
            } else if !line.hasPrefix("    ") {
                current = nil
            }
        }
        return out
    }

    static var scenarios: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "scenarios")) ?? [])
            .filter { $0.hasSuffix(".yaml") && !$0.contains("explore") }.sorted()
    }

    @Test func everyShippedScenarioSaysOneThingOnEverySurface() throws {
        var checked = 0
        for file in Self.scenarios {
            let dir = CLI.temporaryFile("account-\(file)")
            let log = dir + ".jsonl"
            defer {
                try? FileManager.default.removeItem(atPath: dir)
                try? FileManager.default.removeItem(atPath: log)
            }
            let result = try CLI.run(["run", "scenarios/\(file)", "--handout", dir, "--log", log])
            guard result.status == 0 || result.status == 1 else { continue }
            let accounts = Self.accounts(result.lines)
            let json = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            for a in accounts {
                #expect(!a.line.hasSuffix("by: "), "\(file) A\(a.id): \(a.line)")
                #expect(!a.line.contains("more than two settings"), "\(file) A\(a.id)")
                let page = (try? String(contentsOfFile: "\(dir)/A\(a.id)-\(a.type).md", encoding: .utf8)) ?? ""
                #expect(page.contains("`\(a.line)`"), "\(file) A\(a.id) handout lacks \(a.line)")
                let escaped = a.line.replacingOccurrences(of: "\"", with: "\\\"")
                #expect(json.contains("\"account\":\"\(escaped)\""), "\(file) A\(a.id) JSON lacks \(a.line)")
                checked += 1
            }
        }
        #expect(checked > 50, "accounts checked: \(checked)")
    }

    /// Lesson 8's file: the naive side's resolved grace cut names its fix, and the side that
    /// never had it counts it avoided with the same keys (review N1).
    @Test func theGraceCutNamesItsFixAtTheEndAndTheOtherSideCountsItAvoided() throws {
        let result = try CLI.run(["run", "scenarios/sub-grace-cut-naive.yaml", "--against", "sk2-hardened"])
        let fix = "prevented by: server-notifications true + server-grace honor"
        #expect(result.lines.contains { $0.hasPrefix("    " + fix) }, "\(result.stdout)")
        #expect(result.lines.contains { $0.contains("avoided: grace-cut 1000000000001, " + fix) }, "\(result.stdout)")
    }

    /// Review N4: the StoreKit 2 missed order is not "prevented by more than two settings":
    /// the hardened side names the keys, and a side where it happened and was put right says
    /// `resolved by`.
    @Test func avoidedAlwaysNamesItsKeysAndSaysResolvedWhenItHappened() throws {
        let missed = try CLI.run([
            "run", "scenarios/sk2-missed-order-request-lost-naive.yaml", "--against", "sk2-hardened",
        ])
        #expect(missed.lines.contains { $0.contains("avoided: missed-order o1, prevented by: retry-immediate") })
        let lost = try CLI.run(["run", "scenarios/lost-order-crash-at-charge-hardened.yaml"])
        #expect(lost.lines.contains("    resolved by: observer launch"), "\(lost.stdout)")
        #expect(lost.lines.contains("  avoided: lost-order o1, resolved by: observer launch"), "\(lost.stdout)")
    }
}
