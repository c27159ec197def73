import Foundation
import Testing

/// The asciinema client the recording tests check files with: `IAPSIM_ASCIINEMA`, or the one
/// `tools/asciinema-venv.sh` installs into `.venv-asciinema/`.
enum Asciinema {
    static var path: String? {
        if let p = ProcessInfo.processInfo.environment["IAPSIM_ASCIINEMA"], !p.isEmpty {
            return FileManager.default.isExecutableFile(atPath: p) ? p : nil
        }
        let local = CLI.root.appendingPathComponent(".venv-asciinema/bin/asciinema").path
        return FileManager.default.isExecutableFile(atPath: local) ? local : nil
    }

    static let missing = "asciinema 2.4.0 is not installed: run tools/asciinema-venv.sh, or set IAPSIM_ASCIINEMA"

    /// `asciinema cat FILE`: the recorded output stream, as the client reads it.
    static func cat(_ file: String) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path!)
        process.arguments = ["cat", file]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self)
        )
    }

    /// The screen the ANSI stream leaves behind: it uses only clear, cursor moves, SGR and text.
    static func screen(_ stream: String, width: Int, height: Int) -> [String] {
        var rows = Array(repeating: Array(repeating: Character(" "), count: width), count: height)
        var x = 0, y = 0
        var chars = Array(stream)[...]
        while let c = chars.popFirst() {
            guard c == "\u{1B}" else {
                if y < height, x < width { rows[y][x] = c }
                x += 1
                continue
            }
            guard chars.popFirst() == "[" else { continue }
            var params = ""
            while let p = chars.popFirst() {
                if p.isLetter {
                    let numbers = params.split(separator: ";").compactMap { Int($0) }
                    if p == "H" { y = (numbers.first ?? 1) - 1; x = (numbers.count > 1 ? numbers[1] : 1) - 1 }
                    if p == "J" { rows = rows.map { $0.map { _ in " " } } }
                    break
                }
                params.append(p)
            }
        }
        return rows.map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }
}

/// Recording, inspectors and the new keys, end to end in tmux.
@Suite(.serialized) struct TUITeachingEndToEndTests {
    let e2e = TUIEndToEndTests()

    static func temporaryDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("iapsim-e2e-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test(.enabled(if: Asciinema.path != nil, Comment(rawValue: Asciinema.missing)))
    func playRecordWritesACastThatAsciinemaReadsBackAsTheScreen() throws {
        let directory = try TUITeachingEndToEndTests.temporaryDirectory("record")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cast = directory.appendingPathComponent("demo.cast").path
        let scenario = CLI.root.appendingPathComponent("scenarios/lost-order-crash-at-charge-hardened.yaml").path
        let tmux = try Tmux(["play", scenario, "--record", cast], width: 80, height: 24)
        defer { tmux.kill() }
        try e2e.waitForPanels(tmux)
        try tmux.send("G")
        try tmux.wait(for: "holds", timeout: 20)
        let shown = try tmux.wait("the verdict on screen") { $0.contains("settled: every expectation holds") }
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
        let text = try String(contentsOfFile: cast, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        let header = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        #expect(
            header?["version"] as? Int == 2 && header?["width"] as? Int == 80 && header?["height"] as? Int == 24,
            "\(lines[0])")
        var last = -1.0
        for line in lines.dropFirst() {
            let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any]
            let time = event?[0] as? Double ?? -2
            #expect(event?.count == 3 && event?[1] as? String == "o" && time >= last, "\(line)")
            last = time
        }
        #expect(lines.count > 2, "more than one frame")
        let read = try Asciinema.cat(cast)
        #expect(read.status == 0, "\(read.errors)")
        let replayed = Asciinema.screen(read.output, width: 80, height: 24)
        let expected = shown.split(separator: "\n", omittingEmptySubsequences: false).prefix(24)
            .map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
        #expect(replayed == Array(expected), "asciinema cat:\n\(replayed.joined(separator: "\n"))\nscreen:\n\(shown)")
        #expect(!FileManager.default.fileExists(atPath: cast + ".tmp-\(0)"), "no temp file left")
    }

    @Test(.enabled(if: Asciinema.path != nil, Comment(rawValue: Asciinema.missing)))
    func wInTheSandboxStartsAndStopsARecording() throws {
        let directory = try TUITeachingEndToEndTests.temporaryDirectory("record-key")
        defer { try? FileManager.default.removeItem(at: directory) }
        let tmux = try Tmux([], directory: directory.path)
        defer { tmux.kill() }
        try e2e.waitForPanels(tmux)
        try tmux.send("W")
        try tmux.wait(for: "recording the screen to iapsim-demo-1.cast")
        #expect(tmux.screen().contains("REC"))
        try tmux.send("b")
        try tmux.wait(for: "coins_100")
        try tmux.send("Enter")
        try tmux.wait("the charge in the queue") { $0.panel("Payment queue").contains("purchased") }
        try tmux.send("W")
        try tmux.wait(for: "recorded iapsim-demo-1.cast")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
        let cast = directory.appendingPathComponent("iapsim-demo-1.cast").path
        let read = try Asciinema.cat(cast)
        #expect(read.status == 0, "\(read.errors)")
        #expect(read.output.contains("REC") && read.output.contains("purchased"))
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["iapsim-demo-1.cast"], "no temp file left: \(left)")
    }

    @Test func enterOnAnAuditorRowExplainsTheAnomaly() throws {
        let scenario = CLI.root.appendingPathComponent("scenarios/duplicate-receipt-unfinished-failure-naive.yaml").path
        let tmux = try Tmux(["play", scenario], width: 80, height: 24)
        defer { tmux.kill() }
        try e2e.waitForPanels(tmux)
        try tmux.send("G")
        try tmux.wait(for: "holds", timeout: 20)
        try tmux.send("BTab")
        try tmux.send("i")
        try tmux.wait(for: "Anomaly A1")
        try tmux.wait(for: "sent instead: (none)")
        try tmux.send("j", "j", "j", "j", "j", "j")
        try tmux.wait(for: "prevented by: finish-failed true | match token")
        try tmux.send("Escape")
        try tmux.waitGone("Anomaly A1")
        try tmux.send("BTab", "BTab", "BTab", "i")
        try tmux.wait(for: "the receipt the server would see now")
        try tmux.send("q")  // closes the inspector, as in less
        try tmux.waitGone("the receipt the server would see now")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }

    @Test func zoomFilterRestartAndStepBack() throws {
        let scenario = CLI.root.appendingPathComponent("scenarios/lost-order-crash-at-charge-hardened.yaml").path
        let tmux = try Tmux(["play", scenario])
        defer { tmux.kill() }
        try e2e.waitForPanels(tmux)
        try tmux.send("Enter")
        try tmux.wait(for: "Step 1 (line")
        try tmux.send("z")
        try tmux.wait(for: "Events (zoomed: z returns, Tab pages)")
        #expect(!tmux.screen().contains("┌ App "))
        try tmux.send("z", "F", "F", "F", "F")
        try tmux.wait(for: "Events: Network only")
        try tmux.send("B")
        try tmux.wait(for: "back to the start (step 0)")
        try tmux.send("R")
        try tmux.wait(for: "Restart from step 0 with the file's policy?")
        try tmux.send("y")
        try tmux.wait(for: "restarted: back to step 0")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }

    @Test func aRecordingThatCannotBeWrittenIsRefusedBeforeTheUIStarts() throws {
        let run = try CLI.run(["play", "scenarios/ask-to-buy.yaml", "--record", "/nonexistent-folder/demo.cast"])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(
            run.stderr.contains(
                "Error: --record /nonexistent-folder/demo.cast: cannot write in /nonexistent-folder: "
                    + "No such file or directory"), "\(run.stderr)")
    }
}
