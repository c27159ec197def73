import Foundation
import IAPSimScenario
import Testing

/// Files written to hurt: each is refused with a message that says why (and where), or is
/// read as the format says.
@Suite struct HostileParseTests {
    @Test func complexKeysAreRefusedBeforeTheTreeIsBuilt() {
        #expect(
            refusal("format: 1\ntitle: t\nsteps: []\n? [a, b]\n: x\n")
                == "s.yaml:4:3: YAML not accepted in a scenario: a map key must be plain text, not a "
                + "list, a map or an alias (complex keys such as '? [a, b]' are not part of the format)")
        #expect(
            refusal("format: 1\ntitle: t\nsteps: []\nx: &k a\n*k : y\n")?
                .hasPrefix("s.yaml:5:1: YAML not accepted in a scenario: a map key must be plain") == true)
    }

    @Test func manyAliasesAreRefusedWithTheLimit() {
        let aliases = Array(repeating: "*s", count: 101).joined(separator: ", ")
        let text = "format: 1\ntitle: t\nx: &s {do: settle}\nsteps: [\(aliases)]\n"
        #expect(
            refusal(text) == "s.yaml:4:409: YAML not accepted in a scenario: more than 100 "
                + "aliases ('*name'); a scenario needs at most 100")
        let few = Array(repeating: "*s", count: 3).joined(separator: ", ")
        #expect(refusal("format: 1\ntitle: t\nsteps: [&s {do: settle}, \(few)]\n") == nil)
    }

    @Test func hugeMapsAndTreesAreRefusedBeforeTheTreeIsBuilt() {
        let keys = (0...1_000).map { "k\($0): 1" }.joined(separator: ", ")
        #expect(
            refusal("format: 1\ntitle: t\nsteps: []\nx: {\(keys)}\n")?
                .hasSuffix(
                    "YAML not accepted in a scenario: a map of more than 1000 keys; a scenario "
                        + "needs at most 1000") == true)
        let items = Array(repeating: "1", count: 200_000).joined(separator: ",")
        #expect(
            refusal("format: 1\ntitle: t\nsteps: []\nx: [\(items)]\n")?
                .hasSuffix(
                    "YAML not accepted in a scenario: more than 200000 values (lists, maps, keys "
                        + "and texts); a scenario needs at most 200000") == true)
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let text = "format: 1\ntitle: t\nsteps:\n  - do: settle\n"
        #expect(refusal(bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8)) == nil)
        #expect(refusal("\u{FEFF}" + text) == nil)
        // Positions still count from the first character after the mark.
        #expect(
            refusal(bytes: [0xEF, 0xBB, 0xBF] + Array("format: 2\ntitle: t\nsteps: []\n".utf8))?
                .hasPrefix("s.yaml:1:9: unsupported format '2'") == true)
    }

    @Test func limitsAreStatedWhenHit() {
        let steps = String(repeating: "  - do: settle\n", count: 20_001)
        #expect(
            refusal("format: 1\ntitle: t\nsteps:\n" + steps)
                == "s.yaml:20004:5: too many steps (20001); the limit is 20000")
        let long = String(repeating: "a", count: 65)
        #expect(
            refusal("format: 1\ntitle: t\nusers: [\(long)]\nsteps: []\n")
                == "s.yaml:3:9: a user name is too long (65 characters); the limit is 64")
        let users = (0...100).map { "u\($0)" }.joined(separator: ", ")
        #expect(
            refusal("format: 1\ntitle: t\nusers: [\(users)]\nsteps: []\n")?
                .hasSuffix("too many users (101); the limit is 100") == true)
        #expect(
            refusal("format: 1\ntitle: \(String(repeating: "t", count: 201))\nsteps: []\n")
                == "s.yaml:2:8: 'title' is too long (201 characters); the limit is 200")
    }

    @Test func atBeforeAWaitIsRefusedWithTheLineOfBothSteps() {
        #expect(
            refusal(head + "  - do: wait 2m\n  - at: 10s\n    do: crash\n")
                == "s.yaml:6:9: 'at: 10s' is earlier than the step at line 5, which ends at 2m at "
                + "the earliest; 'at' counts from the start of the run")
        #expect(refusal(head + "  - do: wait 2m\n  - at: 2m\n    do: crash\n") == nil)
        #expect(
            refusal(
                head + "  - after: 1m\n    do: wait 1m\n  - when: charged\n    do: crash\n"
                    + "  - at: 1m\n    do: settle\n")?
                .hasPrefix("s.yaml:9:9: 'at: 1m' is earlier than the step at line 5, which ends at 2m")
                == true)
    }

    @Test func controlCharactersInErrorsAreMadeVisible() {
        #expect(
            refusal("format: 1\ntitle: \"a\\e]0;x\\a\"\nusers: [\"b\\e[2J\"]\nsteps: []\n")
                == "s.yaml:3:9: bad user name 'b\\e[2J'; a name is letters, digits, '_', '-' or '.'")
        #expect(refusal("format: 1\n", file: "x\u{1B}[31m.yaml")?.hasPrefix("x\\e[31m.yaml:1:1:") == true)
    }

    @Test func visibleTextNamesEveryControlCharacter() {
        #expect(
            VisibleText.escaped("a\u{1B}]0;t\u{07}\t\r\n\u{7F}\u{9B}é✓\\") == "a\\e]0;t\\x07\\t\\r\\n\\x7F\\x9Bé✓\\")
        #expect(VisibleText.escaped("plain text, 中文") == "plain text, 中文")
    }

    @Test func transcriptAndDiagramShowControlCharactersEscaped() throws {
        let text =
            "format: 1\ntitle: \"T\\e]0;x\\a\"\nstory: \"s\\e[2J\"\nsteps:\n"
            + "  - do: settle\n    say: \"\\x9b31m\"\n"
        let scenario = try ScenarioParser.parse(text: text, file: "f\u{7}.yaml")
        let (records, result) = ScenarioPlayer.run(scenario)
        let lines =
            Transcript.header(scenario, file: "f\u{7}.yaml")
            + records.flatMap({ Transcript.lines(for: $0) }) + Transcript.verdict(result, scenario: scenario)
        let printed = lines.joined(separator: "\n")
        #expect(lines.first == "== T\\e]0;x\\x07")
        #expect(
            printed.contains("f\\x07.yaml") && printed.contains("| s\\e[2J")
                && printed.contains("| \\x9B31m"))
        let diagram = MermaidExport.diagram(records) + JSONLinesExport.text(records)
        #expect(diagram.contains("\\x9B31m"))
        for output in [printed, diagram] {
            #expect(!output.unicodeScalars.contains { VisibleText.isControl($0) && $0 != "\n" })
        }
    }

    @Test func onlyRegularFilesAreRead() throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("hostile-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/fifo.yaml"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(
            loadRefusal(fifo)
                == "\(fifo):1:1: cannot read the file: it is a FIFO (named pipe), not a regular file")
        #expect(
            loadRefusal("/dev/zero")
                == "/dev/zero:1:1: cannot read the file: it is a device, not a regular file")
        let big = dir + "/big.yaml"
        #expect(FileManager.default.createFile(atPath: big, contents: Data(count: 4 * 1_048_576 + 1)))
        #expect(
            loadRefusal(big) == "\(big):1:1: the file is 4194305 bytes; the limit is 4194304 "
                + "bytes (4 MB)")
        let locked = dir + "/locked.yaml"
        #expect(
            FileManager.default.createFile(
                atPath: locked, contents: Data("x".utf8),
                attributes: [.posixPermissions: 0]))
        if getuid() != 0 {
            #expect(loadRefusal(locked) == "\(locked):1:1: cannot read the file: Permission denied")
        }
    }

    private func loadRefusal(_ path: String) -> String? {
        do {
            _ = try ScenarioParser.load(path: path)
            return nil
        } catch {
            return error.description
        }
    }
}
