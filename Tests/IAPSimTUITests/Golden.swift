import Foundation
import Testing

@testable import IAPSimTUI

/// Golden text files of rendered screens. `UPDATE_GOLDEN=1 swift test` rewrites them; a
/// missing file is written and the test fails, so a new screen is always looked at once.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden")

    static func check(_ grid: Grid, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = directory.appendingPathComponent(name + ".txt")
        let actual = grid.text
        let update = ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1"
        guard !update, let expected = try? String(contentsOf: url, encoding: .utf8) else {
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("wrote \(url.lastPathComponent); look at it and run again", sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let row = Array(zip(a, e)).firstIndex { $0.0 != $0.1 } ?? min(a.count, e.count)
            Issue.record(
                """
                \(name): screen differs from the golden file at row \(row + 1)
                expected: \(row < e.count ? String(e[row]) : "<none>")
                actual:   \(row < a.count ? String(a[row]) : "<none>")
                --- actual screen ---
                \(actual)
                """, sourceLocation: sourceLocation)
        }
    }
}
