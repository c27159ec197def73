import Foundation
import IAPSimScenario
import Testing

/// The shipped scenarios of `scenarios/`.
enum Library {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scenarios")

    static var paths: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted()
            .map { directory.appendingPathComponent($0).path }
    }
}

@Suite struct LibraryTests {
    @Test func theLibraryHasAtLeastSixteenScenarios() {
        #expect(Library.paths.count >= 16)
    }

    @Test(arguments: Library.paths)
    func shippedScenarioWritesBackToAnEqualScenario(_ path: String) throws {
        let scenario = try ScenarioParser.load(path: path)
        let again = try ScenarioParser.parse(text: ScenarioWriter.yaml(scenario), file: path)
        #expect(again == scenario)
    }

    @Test(arguments: Library.paths)
    func shippedScenarioPasses(_ path: String) throws {
        let scenario = try ScenarioParser.load(path: path)
        let (_, result) = ScenarioPlayer.run(scenario)
        #expect(result.timeout == nil)
        #expect(result.settledCompletely)
        #expect(!result.expectations.isEmpty)
        for failing in result.expectations where !failing.holds {
            Issue.record("\(failing.name): expected \(failing.expected), actual \(failing.actual)")
        }
    }

    @Test(arguments: Library.paths)
    func shippedScenarioTellsAStory(_ path: String) throws {
        let scenario = try ScenarioParser.load(path: path)
        #expect(scenario.story?.isEmpty == false)
        #expect(scenario.steps.contains { $0.say != nil })
    }
}
