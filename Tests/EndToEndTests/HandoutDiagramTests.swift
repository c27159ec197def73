import Foundation
import Testing

/// A handout's diagram draws what happened, in order (issue 52, item 3): every shipped naive
/// scenario's pages, read as a class reads them, hold the arrows its failure turns on (the
/// two POSTs of a double credit, the attacker's replay, the lost request), the app's call
/// that started the purchase under the step that made it, and every step of the file.
@Suite(.serialized) struct HandoutDiagramTests {
    /// One page: its anomaly type and its diagram's lines.
    struct Page {
        var name: String
        var type: String
        var lines: [String]
        var cut: Bool
        func has(_ prefix: String) -> Bool { lines.contains { $0.hasPrefix("    " + prefix) } }
        func index(_ prefix: String) -> Int? { lines.firstIndex { $0.hasPrefix("    " + prefix) } }
    }

    /// One naive file's run: its StoreKit, its steps in order (from the log) and its pages.
    struct Handouts {
        var file: String
        var storeKit2: Bool
        var steps: [(number: Int, command: String)]
        var pages: [Page]
    }

    static let naive: [String] = {
        let all =
            (try? FileManager.default.contentsOfDirectory(atPath: CLI.root.appendingPathComponent("scenarios").path))
        return (all ?? []).filter { $0.hasSuffix("-naive.yaml") }.sorted()
    }()

    static func handouts(_ file: String) throws -> Handouts {
        let dir = CLI.temporaryFile("diagrams-\(file)"), log = CLI.temporaryFile("diagrams-\(file).jsonl")
        defer {
            try? FileManager.default.removeItem(atPath: dir)
            try? FileManager.default.removeItem(atPath: log)
        }
        let result = try CLI.run(["run", "--quiet", "scenarios/\(file)", "--handout", dir, "--log", log])
        #expect(result.status == 0 || result.status == 1, "\(file): \(result.stderr)")
        var steps: [(Int, String)] = []
        for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") {
            guard let data = line.data(using: .utf8),
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                object["kind"] as? String == "step", let n = object["step"] as? Int,
                let command = object["do"] as? String
            else { continue }
            steps.append((n, command))
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        let pages = try names.filter { $0.hasSuffix(".md") }.sorted().map { name in
            let text = try String(contentsOfFile: "\(dir)/\(name)", encoding: .utf8)
            let block =
                text.components(separatedBy: "```mermaid\n").dropFirst().first?
                .components(separatedBy: "\n```").first ?? ""
            let type = name.split(separator: "-", maxSplits: 1).last.map { String($0.dropLast(3)) } ?? name
            return Page(
                name: name, type: type, lines: block.split(separator: "\n").map(String.init),
                cut: text.contains("(the first 200 of"))
        }
        let policy =
            try String(contentsOfFile: "scenarios/\(file)", encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("policy:") } ?? ""
        return Handouts(file: file, storeKit2: policy.contains("sk2"), steps: steps, pages: pages)
    }

    @Test func theNaiveFilesAreTheLessonsAndMore() {
        #expect(Self.naive.count >= 50)
        #expect(Self.naive.contains("double-credit-crash-before-finish-naive.yaml"))
        #expect(Self.naive.contains("sub-grace-cut-naive.yaml"))
    }

    @Test(arguments: naive) func eachPageDrawsTheArrowsItsFailureTurnsOnAndEveryStep(file: String) throws {
        let run = try Self.handouts(file)
        #expect(!run.steps.isEmpty, "\(file): no step in the log")
        for page in run.pages where !page.cut {
            for missing in Self.missingArrows(page, storeKit2: run.storeKit2) {
                Issue.record("\(file) \(page.name): \(missing)\n\(page.lines.joined(separator: "\n"))")
            }
            try Self.checkSteps(page, of: run)
        }
    }

    /// Every step is a note, in order; a purchase is drawn under the step that made it.
    static func checkSteps(_ page: Page, of run: Handouts) throws {
        let file = run.file
        let notes = page.lines.compactMap { line -> Int? in
            guard let rest = line.components(separatedBy: "Note left of User: step ").dropFirst().first else {
                return nil
            }
            return Int(rest.prefix { $0.isNumber })
        }
        #expect(notes == run.steps.map(\.number), "\(file) \(page.name): steps drawn \(notes)")
        // The purchase starts under the step that made it: its order request or its call.
        for (n, command) in run.steps where command.hasPrefix("buy ") {
            let product = command.dropFirst(4).split(separator: " ").first.map(String.init) ?? ""
            let call =
                run.storeKit2
                ? "App->>StoreKit: purchase() of \(product)" : "App->>StoreKit: add(SKPayment(\(product)))"
            // The purchase of this step, if drawn, comes before the next `buy` of the product.
            let again = run.steps.first { $0.number > n && $0.command == command }?.number
            let step = try #require(page.index("Note left of User: step \(n): "))
            let end = again.flatMap { page.index("Note left of User: step \($0): ") } ?? page.lines.count
            guard page.lines[step..<end].contains(where: { $0.hasPrefix("    " + call) }) else { continue }
            let next = page.index("Note left of User: step \(n + 1): ") ?? page.lines.count
            let under = page.lines[step..<next]
            #expect(
                under.contains { $0.hasPrefix("    App->>Server: POST /orders") || $0.hasPrefix("    " + call) },
                "\(file) \(page.name): the purchase of step \(n) does not start under it")
        }
    }

    /// What `page`'s failure turns on and its diagram does not draw.
    static func missingArrows(_ page: Page, storeKit2: Bool) -> [String] {
        let purchase = storeKit2 ? "App->>StoreKit: purchase() of " : "App->>StoreKit: add(SKPayment("
        let recharges = page.lines.filter { $0.hasPrefix("    App->>Server: POST /recharge (") }
        var out: [String] = []
        func need(_ ok: Bool, _ what: String) { if !ok { out.append(what) } }
        switch page.type {
        case "double-credit":
            // Two deliveries of one payment: two POSTs of one transaction (or a POST and a
            // notification), each answered.
            let txns = recharges.map { $0.components(separatedBy: "(")[1].prefix { $0.isNumber } }
            let twice = Set(txns).contains { t in txns.filter { $0 == t }.count >= 2 }
            need(
                twice || (recharges.count >= 1 && page.has("AppStore->>Server: notification")),
                "two POST /recharge of one payment")
            need(
                page.lines.filter { $0.contains("Server-->>App: credited") || $0.contains("Server-xApp: credited") }
                    .count >= 1, "the server's answer `credited`")
        case "replay-fraud":
            need(page.has("Attacker->>Server: POST /recharge ("), "the attacker's POST /recharge")
            need(page.has("Server-->>Attacker: credited"), "the answer to the attacker")
        case "missed-order":
            // The app paid and sent (or tried to): the request or its answer was lost, or the
            // answer was no credit.
            let lost =
                page.has("App-xServer: POST /recharge (") || page.has("Server-xApp: ")
                || page.has("Server-->>App: refused") || page.has("Server-->>App: not credited")
                || page.has("Server-->>App: HTTP 503") || page.lines.contains { $0.contains("offline") }
            need(lost, "the lost or unanswered POST /recharge")
        case "lost-order":
            // Paid, and no POST /recharge of it before the auditor saw it lost.
            need(page.has(purchase), "the app's purchase call")
            let opened = page.lines.firstIndex { $0.contains(": auditor: A") && $0.contains(" lost-order ") }
            let firstPost = page.lines.firstIndex { $0.hasPrefix("    App->>Server: POST /recharge (") }
            need(opened != nil && (firstPost ?? Int.max) > opened!, "no POST /recharge before the order is lost")
        case "wrong-account":
            need(!recharges.isEmpty, "the POST /recharge under the wrong account")
            need(page.has("Server-->>App: credited"), "the server's answer")
        case "duplicate-receipt":
            // An order paired with another transaction (or with none): the purchases it is
            // between are drawn.
            need(page.has(purchase), "the app's purchase call")
        case "access-after-revoke" where page.lines.contains { $0.contains("FAMILY_SHARED") }:
            // A family member's access: the member's shared transaction and the REVOKE that
            // ended it (the purchaser's own purchase call is another account's chain).
            need(page.lines.contains { $0.contains("REVOKE") }, "the REVOKE that ended the share")
        case "renewal-unserved" where page.lines.contains { $0.contains("redeemed outside the app") }:
            // An offer code redeemed in the App Store app: no purchase call of the app; the App
            // Store's redemption and its hand-off to StoreKit are drawn.
            need(page.has("AppStore-->>StoreKit: "), "the redeemed transaction handed to StoreKit")
        case "grace-cut", "renewal-unserved", "access-after-revoke", "access-after-end":
            need(page.has(purchase), "the app's purchase call")
        default:
            break
        }
        return out
    }
}
