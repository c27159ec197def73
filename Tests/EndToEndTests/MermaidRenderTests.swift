import Foundation
import Testing

/// mermaid.js itself (the copy `tools/mermaid-venv.sh` installs from PyPI, or
/// `IAPSIM_MERMAID_JS`) in Debian's headless Chromium (`chromium`, or `IAPSIM_CHROMIUM`).
enum MermaidJS {
    static var script: String? {
        if let p = ProcessInfo.processInfo.environment["IAPSIM_MERMAID_JS"], !p.isEmpty {
            return FileManager.default.fileExists(atPath: p) ? p : nil
        }
        let venv = CLI.root.appendingPathComponent(".venv-mermaid/lib")
        let found = (try? FileManager.default.subpathsOfDirectory(atPath: venv.path))?
            .first { $0.hasSuffix("mermaidx/assets/mermaid.js") }
        return found.map { venv.appendingPathComponent($0).path }
    }

    static var chromium: String? {
        if let p = ProcessInfo.processInfo.environment["IAPSIM_CHROMIUM"], !p.isEmpty { return p }
        return ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile)
    }

    static var ready: Bool { script != nil && chromium != nil }
    static let missing =
        "mermaid.js or Chromium is missing: run tools/mermaid-venv.sh and apt-get install chromium, "
        + "or set IAPSIM_MERMAID_JS and IAPSIM_CHROMIUM"

    /// `tools/mermaid_render.py` over `files`: its exit status and what it printed.
    static func render(_ files: [String]) throws -> CLI.Result {
        try CLI.run(
            ["tools/mermaid_render.py", "--mermaid-js", script!, "--chromium", chromium!] + files,
            executable: URL(fileURLWithPath: "/usr/bin/python3"))
    }
}

/// The Mermaid that iapsim writes is Mermaid that mermaid.js draws: every shipped scenario's
/// handout pages and `--diagram`, rendered to SVG by mermaid.js in a real browser. A diagram
/// that Mermaid refuses fails here (and so in CI).
@Suite(.serialized) struct MermaidRenderTests {
    @Test(.enabled(if: MermaidJS.ready, Comment(rawValue: MermaidJS.missing)))
    func everyShippedScenariosHandoutAndDiagramRender() throws {
        let dir = CLI.temporaryFile("mermaid")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let scenarios = try FileManager.default.contentsOfDirectory(
            atPath: CLI.root.appendingPathComponent("scenarios").path
        ).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(scenarios.count >= 100)
        // Two lanes: each run replays its anomalies for the handout.
        let lanes = 2
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            for (i, file) in scenarios.enumerated() where i % lanes == lane {
                let name = String(file.dropLast(5))
                let result = try? CLI.run([
                    "run", "--quiet", "scenarios/\(file)", "--handout", "\(dir)/\(name)", "--diagram",
                    "\(dir)/\(name).mmd",
                ])
                if result?.status != 0 && result?.status != 1 { failures.add("\(file): \(result?.stderr ?? "")") }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let pages = try FileManager.default.subpathsOfDirectory(atPath: dir)
            .filter { $0.hasSuffix(".md") || $0.hasSuffix(".mmd") }.map { "\(dir)/\($0)" }
        #expect(pages.filter { $0.hasSuffix(".mmd") }.count == scenarios.count)
        #expect(pages.filter { $0.hasSuffix(".md") }.count >= 50, "a handout page per anomaly")
        let rendered = try MermaidJS.render(pages)
        #expect(rendered.status == 0, "\(rendered.stdout)\(rendered.stderr)")
        #expect(rendered.stdout.contains("(0 refused)"), "\(rendered.stdout)")
    }

    @Test(.enabled(if: MermaidJS.ready, Comment(rawValue: MermaidJS.missing)))
    func aDiagramMermaidRefusesFailsTheCheck() throws {
        let bad = CLI.temporaryFile("refused.md")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        try "# page\n\n```mermaid\nsequenceDiagram\n    App->>: no receiver\n```\n".write(
            toFile: bad, atomically: true, encoding: .utf8)
        let rendered = try MermaidJS.render([bad])
        #expect(rendered.status == 1)
        #expect(rendered.stdout.contains("refused: \(bad) block 1: Parse error on line 2"), "\(rendered.stdout)")
        #expect(rendered.stdout.contains("0 of 1 diagrams rendered by mermaid.js (1 refused)"))
    }
}

/// What the lanes of a test found, kept under a lock.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}
