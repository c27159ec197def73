import Foundation
import IAPSimScenario
import IAPSimTUI

/// The scenario files the UI moves between (`]`, `[`, `O`): read here, at the edge, and
/// handed to the model whole.
enum PlaylistFiles {
    /// Reads and parses `path` (with the hostile-file checks of `run`).
    static func open(_ path: String) -> UIMessage {
        do {
            return .scenarioOpened(ScenarioFile(path: path, scenario: try ScenarioParser.load(path: path)))
        } catch {
            return .scenarioFailed(path: path, reason: error.description)
        }
    }

    /// The `.yaml` files of `directory`, sorted by name; empty when it cannot be read.
    static func list(_ directory: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else { return [] }
        return ScenarioFiles.expand([directory]).map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 }
    }

    /// The files `play` moves between: the ones named when more than one, else every file
    /// of the named file's folder.
    static func playlist(_ files: [String]) -> [String] {
        if files.count > 1 { return files }
        guard let file = files.first else { return [] }
        let folder = (file as NSString).deletingLastPathComponent
        let all = list(folder.isEmpty ? "." : folder)
        return all.contains(file) ? all : [file] + all
    }
}
