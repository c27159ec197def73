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

    /// The `.yaml` files of `directory` in the order of its README.md (grouped by failure
    /// mode, the weak policy that shows a failure before its fix, as scenarios/README.md
    /// promises), then the files it does not name, sorted by name with `x-naive.yaml` before
    /// `x-hardened.yaml`; empty when it cannot be read.
    static func list(_ directory: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else { return [] }
        let files = ScenarioFiles.expand([directory]).map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 }
        let sorted = files.sorted { teachingKey($0) < teachingKey($1) }
        let listed = readmeGroups(directory).map(\.path).filter { files.contains($0) }
        return listed + sorted.filter { !listed.contains($0) }
    }

    /// The files README.md of `directory` names, in its order, each with the heading it is
    /// under (`## Lost order (掉单)`, backticks dropped).
    static func readmeGroups(_ directory: String) -> [(path: String, group: String)] {
        let readme = (directory as NSString).appendingPathComponent("README.md")
        guard let text = try? String(contentsOfFile: readme, encoding: .utf8) else { return [] }
        var out: [(path: String, group: String)] = [], group = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                group = String(line.dropFirst(3)).replacingOccurrences(of: "`", with: "")
            } else if line.hasPrefix("- `"), let end = line.dropFirst(3).firstIndex(of: "`") {
                let name = line[line.index(line.startIndex, offsetBy: 3)..<end]
                guard name.hasSuffix(".yaml") else { continue }
                let path =
                    directory == "." ? String(name) : (directory as NSString).appendingPathComponent(String(name))
                let clean = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
                if !out.contains(where: { $0.path == clean }) { out.append((clean, group)) }
            }
        }
        return out
    }

    /// Each file's failure mode (its README heading) and `title:`, for the browser.
    static func describe(_ files: [String]) -> (groups: [String: String], titles: [String: String]) {
        var groups: [String: String] = [:], titles: [String: String] = [:]
        let folders = Set(files.map { ($0 as NSString).deletingLastPathComponent })
        for folder in folders.sorted() {
            for entry in readmeGroups(folder.isEmpty ? "." : folder) { groups[entry.path] = entry.group }
        }
        for file in files {
            if groups[file] == nil { groups[file] = "Not in the folder's README" }
            titles[file] = title(of: file)
        }
        return (groups, titles)
    }

    /// The `title:` line of a scenario file, unquoted; nil when it has none or cannot be read.
    static func title(of path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n").prefix(40) where line.hasPrefix("title:") {
            var value = line.dropFirst(6).trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
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
