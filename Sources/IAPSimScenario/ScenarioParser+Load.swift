import Foundation

extension ScenarioParser {
    /// Reads and parses the file at `path`; `path` is also the name errors show.
    /// The only file I/O of this module.
    public static func load(path: String) throws(ScenarioError) -> Scenario {
        let start = SourceLocation(file: path, line: 1, column: 1)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadableFile(at: start, reason: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw .unreadableFile(at: start, reason: "it is a directory, not a scenario file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .unreadableFile(at: start, reason: "it cannot be opened for reading")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw .unreadableFile(at: start, reason: error.localizedDescription)
        }
        return try parse(bytes: [UInt8](data), file: path)
    }
}
