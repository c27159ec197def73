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

    /// The `.yaml` files of `directory`, sorted by name, the weak policy that shows a failure
    /// before its fix (`x-naive.yaml`, then `x-hardened.yaml`, as scenarios/README.md
    /// promises); empty when it cannot be read.
    static func list(_ directory: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else { return [] }
        let files = ScenarioFiles.expand([directory]).map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 }
        return files.sorted { teachingKey($0) < teachingKey($1) }
    }

    /// A file's place: its name without the policy's suffix, then naive before the rest
    /// before hardened.
    static func teachingKey(_ path: String) -> String {
        let name = path.hasSuffix(".yaml") ? String(path.dropLast(5)) : path
        for (suffix, rank) in [("-naive", "0"), ("-hardened", "2")] where name.hasSuffix(suffix) {
            return String(name.dropLast(suffix.count)) + "\u{0}" + rank
        }
        return name + "\u{0}1"
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
