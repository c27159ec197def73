import Foundation
import Testing

/// The project's own documentation stays inside the repository: every link in its Markdown
/// files points at a file of the checkout, and none leaves it (a user's clone has nothing
/// beside it).
@Suite struct DocumentationTests {
    static var markdownFiles: [String] {
        let root = CLI.root.path
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root + "/docs")) ?? []
        return ["README.md", "ARCHITECTURE.md", "scenarios/README.md"]
            + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// The targets of `[text](target)` links, without a `#fragment`.
    static func links(in text: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0].split(separator: "#").first ?? "") }
        }
    }

    @Test(arguments: markdownFiles)
    func everyLinkStaysInTheRepository(_ file: String) throws {
        let root = CLI.root.standardizedFileURL
        let url = root.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        let mentionsShared = text.contains("../shared")
        #expect(!mentionsShared, "\(file) mentions ../shared")
        for link in Self.links(in: text) where !link.isEmpty {
            #expect(!link.contains("://") && !link.hasPrefix("mailto:"), "\(file) links outside: \(link)")
            let target = url.deletingLastPathComponent().appendingPathComponent(link).standardizedFileURL
            #expect(target.path.hasPrefix(root.path + "/"), "\(file): \(link) leaves the repository")
            #expect(FileManager.default.fileExists(atPath: target.path), "\(file): \(link) does not exist")
        }
    }

    @Test func theLinkReaderFindsLinks() {
        #expect(Self.links(in: "see [a](docs/a.md#x) and [b](../b.md)") == ["docs/a.md", "../b.md"])
    }
}
