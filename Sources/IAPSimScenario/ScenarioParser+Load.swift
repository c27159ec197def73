import Foundation

extension ScenarioParser {
    /// Reads and parses the file at `path`; `path` is also the name errors show.
    /// The only file I/O of this module.
    public static func load(path: String) throws(ScenarioError) -> Scenario {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as NSError).localizedFailureReason
                ?? (error as NSError).localizedDescription
            throw .unreadableFile(at: SourceLocation(file: path, line: 1, column: 1),
                                  reason: reason)
        }
        return try parse(bytes: [UInt8](data), file: path)
    }
}
