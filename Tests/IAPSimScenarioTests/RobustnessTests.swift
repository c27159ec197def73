import Foundation
import IAPSimCore
import IAPSimScenario
import Testing

@Suite struct RobustnessTests {
    @Test func deeplyNestedInputIsRefusedAtItsStart() {
        let open = String(repeating: "[", count: 100_000)
        let expected =
            "s.yaml:3:9: YAML not accepted in a scenario: lists and maps are nested more than 1000 deep; "
            + "the limit is 1000"
        #expect(refusal("format: 1\ntitle: t\nsteps: " + open) == expected)
        #expect(
            refusal(
                "format: 1\ntitle: t\nsteps: " + open
                    + String(repeating: "]", count: 100_000)) == expected)
    }

    /// Seeded mutations of the format example: each either parses or is refused with a
    /// position inside the file; none crashes.
    @Test func mutatedFilesAreParsedOrRefusedWithAPositionInsideTheFile() throws {
        let original = try Fixtures.text("format-example.yaml")
        var rng = SplitMix64(seed: 42)
        for round in 0..<2_000 {
            let bytes = Mutator.mutate(Array(original.utf8), rng: &rng)
            do {
                _ = try ScenarioParser.parse(bytes: bytes, file: "m.yaml")
            } catch {
                let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).count
                let at = error.location
                #expect(at.line >= 1 && at.line <= lines + 1, "round \(round): \(error)")
                #expect(at.column >= 1, "round \(round): \(error)")
                #expect(
                    !error.message.isEmpty && !error.message.contains("\n"),
                    "round \(round): \(error)")
            }
        }
    }
}

/// Small edits of a file's bytes: delete, duplicate or swap lines, change a value, insert
/// random bytes.
enum Mutator {
    static func mutate(_ bytes: [UInt8], rng: inout SplitMix64) -> [UInt8] {
        var lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
        let pick = { (rng: inout SplitMix64) in rng.below(max(lines.count, 1)) }
        switch rng.below(5) {
        case 0: lines.remove(at: pick(&rng))
        case 1: let i = pick(&rng); lines.insert(lines[i], at: i)
        case 2: lines.swapAt(pick(&rng), pick(&rng))
        case 3:
            let i = pick(&rng)
            if let colon = lines[i].firstIndex(of: 58) {
                let values = [
                    "", " 0", " -1", " x", " [a]", " {a: 1}", " 99999999999999999999",
                    " \"", " 1h", " coins_999", " login carol",
                ]
                lines[i] = Array(lines[i][...colon]) + Array(values[rng.below(values.count)].utf8)
            }
        default:
            var flat = Array(lines.joined(separator: [10]))
            for _ in 0..<(1 + rng.below(4)) {
                flat.insert(UInt8(truncatingIfNeeded: rng.next()), at: rng.below(flat.count + 1))
            }
            return flat
        }
        return Array(lines.joined(separator: [10]))
    }
}
