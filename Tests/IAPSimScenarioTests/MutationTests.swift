import Foundation
import IAPSimCore
import IAPSimScenario
import Testing

@Suite struct MutationTests {
    /// 10,000 seeded mutations of the shipped files (deleted, duplicated and swapped lines,
    /// changed values, random bytes): each is refused with a one-line message inside the
    /// file, or runs to a verdict. A crash or a hang fails the suite.
    @Test(.timeLimit(.minutes(10)))
    func mutatedShippedFilesAreRefusedOrRunToAVerdict() throws {
        let originals = try Library.paths.map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) }
        try #require(!originals.isEmpty)
        var rng = SplitMix64(seed: 2026)
        var outcomes = [0, 0, 0]
        for round in 0..<10_000 {
            let bytes = Mutator.mutate(originals[rng.below(originals.count)], rng: &rng)
            let scenario: Scenario
            do {
                scenario = try ScenarioParser.parse(bytes: bytes, file: "m.yaml")
            } catch {
                outcomes[2] += 1
                let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).count
                #expect(
                    error.location.line >= 1 && error.location.line <= lines + 1,
                    "round \(round): \(error)")
                #expect(!error.description.contains("\n"), "round \(round): \(error)")
                continue
            }
            let (_, result) = ScenarioPlayer.run(scenario)
            outcomes[result.passed ? 0 : 1] += 1
        }
        // Every kind of outcome happens, or the mutations are not doing their job.
        #expect(outcomes.allSatisfy { $0 > 100 }, "\(outcomes)")
    }
}
