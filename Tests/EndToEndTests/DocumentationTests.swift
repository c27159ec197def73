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

    /// The checker beside the world (issue 34, item 5; architecture review 2, change 4): the
    /// engine (`World`: the files of `World/` and `Kernel/`, and every file that extends
    /// `World`) names neither the auditor nor the checkers, and stores none: it knows its
    /// onlooker only as a generic `Onlooker`, which the harness (`Simulation`, in `Harness/`)
    /// lends it. The auditor (`Audit/`) reads no policy value: it asks the parts
    /// (`willStillCredit`, `readsReceiptAtEachSend`, `listensLate`, `statusPollWithin`, ...).
    @Test func theEngineNamesNoCheckerAndTheAuditorReadsNoPolicy() throws {
        let core = CLI.root.path + "/Sources/IAPSimCore/"
        let fm = FileManager.default
        // A folder's files, its subfolders' included.
        func files(_ folder: String) throws -> [(String, String)] {
            try (fm.subpaths(atPath: core + folder) ?? []).filter { $0.hasSuffix(".swift") }.sorted().map {
                (folder + "/" + $0, try String(contentsOfFile: core + folder + "/" + $0, encoding: .utf8))
            }
        }
        let folders = try fm.contentsOfDirectory(atPath: core).filter { !$0.hasPrefix(".") }.sorted()
        let extendsWorld = try Regex(#"(?m)^extension World\b"#)
        let elsewhere = try folders.filter { !["World", "Kernel"].contains($0) }.flatMap(files).filter {
            $0.1.contains(extendsWorld)
        }
        let engine = try files("World") + files("Kernel") + elsewhere
        #expect(engine.count >= 20)
        #expect(
            engine.contains { $0.1.contains("package struct World") }, "the engine type is not where it was looked for")
        // Named anywhere (comments too), or, for the checkers' own field name, in code.
        let named = try Regex(#"\b(Auditor|auditor|Checkers|Checker)\b"#)
        let stored = try Regex(#"\bcheckers\b"#)
        for (name, text) in engine {
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                #expect(!String(line).contains(named), "\(name):\(n + 1) names a checker: \(line)")
                #expect(!code || !String(line).contains(stored), "\(name):\(n + 1) names the checkers: \(line)")
            }
        }
        let audit = try files("Audit")
        #expect(audit.count >= 10)
        let read = try Regex(#"\bpolicy\.[a-z]"#)
        for (name, text) in audit {
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                #expect(!String(line).contains(read), "\(name):\(n + 1) reads a policy value: \(line)")
            }
        }
    }

    /// ARCHITECTURE's module tree names every module of `Sources/` and every folder of
    /// IAPSimCore, IAPSimServe and IAPSimScenario: a folder added without a place in the tree
    /// fails here.
    @Test func architecturesTreeNamesEveryFolder() throws {
        let root = CLI.root.path
        let text = try String(contentsOfFile: root + "/ARCHITECTURE.md", encoding: .utf8)
        let start = try #require(text.range(of: "```\nSources/\n"))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        let tree = text[start.upperBound..<end.lowerBound]
        let names = Set(
            tree.split(separator: "\n").compactMap { line in
                line.split(separator: " ", omittingEmptySubsequences: true).first.map(String.init)
            })
        let fm = FileManager.default
        func folders(_ path: String) -> [String] {
            ((try? fm.contentsOfDirectory(atPath: path)) ?? []).filter { name in
                var isDirectory: ObjCBool = false
                return fm.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory) && isDirectory.boolValue
            }.sorted()
        }
        let modules = folders(root + "/Sources")
        #expect(modules.count >= 10)
        for module in modules {
            #expect(names.contains(module + "/"), "ARCHITECTURE.md's tree does not name Sources/\(module)/")
        }
        for module in ["IAPSimCore", "IAPSimServe", "IAPSimScenario", "IAPSimTUI", "IAPSimStoreKit", "iapsim"] {
            for folder in folders(root + "/Sources/" + module) {
                #expect(names.contains(folder + "/"), "ARCHITECTURE.md's tree does not name \(module)/\(folder)/")
            }
        }
    }

    /// Rooms by feature (issue 53): no folder of `Sources/` holds more than 15 Swift files of
    /// its own; a folder that grows past that is split by role.
    @Test func noSourceFolderHoldsMoreThanFifteenFiles() throws {
        let sources = CLI.root.path + "/Sources"
        let paths = try #require(FileManager.default.subpaths(atPath: sources)).filter { $0.hasSuffix(".swift") }
        let byFolder = Dictionary(grouping: paths) { ($0 as NSString).deletingLastPathComponent }
        #expect(byFolder.count >= 30, "\(byFolder.keys.sorted())")
        for (folder, files) in byFolder.sorted(by: { $0.key < $1.key }) {
            #expect(files.count <= 15, "Sources/\(folder) holds \(files.count) files: \(files.sorted())")
        }
    }

    /// Every source path ARCHITECTURE.md names (`IAPSimTUI/Boxes/Box.swift`,
    /// `iapsim/Serve/ServeCommand*.swift`) is a file of `Sources/` (a pattern: at least one): a
    /// file moved or renamed without the page following fails here.
    @Test func everySourcePathArchitectureNamesExists() throws {
        let root = CLI.root.path
        let text = try String(contentsOfFile: root + "/ARCHITECTURE.md", encoding: .utf8)
        let modules = try FileManager.default.contentsOfDirectory(atPath: root + "/Sources")
        let cores = try FileManager.default.contentsOfDirectory(atPath: root + "/Sources/IAPSimCore")
        let all = try #require(FileManager.default.subpaths(atPath: root + "/Sources")).filter {
            $0.hasSuffix(".swift")
        }
        let path = try Regex(#"`([A-Za-z][A-Za-z-]*/[A-Za-z0-9+*/_-]*\.swift)`"#)
        var checked = 0
        for match in text.matches(of: path) {
            var named = String(match.output[1].substring ?? "")
            guard let first = named.split(separator: "/").first.map(String.init) else { continue }
            // A path of the core's layers (`Audit/...`) is IAPSimCore's.
            if !modules.contains(first) {
                guard cores.contains(first) else { continue }
                named = "IAPSimCore/" + named
            }
            checked += 1
            let pattern = try Regex(
                "^"
                    + NSRegularExpression.escapedPattern(for: named)
                    .replacingOccurrences(of: "\\*", with: "[^/]*") + "$")
            #expect(
                all.contains { $0.contains(pattern) }, "ARCHITECTURE.md names \(named), which is no file of Sources/")
        }
        #expect(checked >= 20, "only \(checked) source paths were found in ARCHITECTURE.md")
    }

    @Test func theLinkReaderFindsLinks() {
        #expect(Self.links(in: "see [a](docs/a.md#x) and [b](../b.md)") == ["docs/a.md", "../b.md"])
    }
}

extension DocumentationTests {
    /// The kernel names no type declared in another folder of IAPSimCore (issue 53: `Outbox`
    /// lives in `World/`, the facts' log entry in `Vocabulary/`), and nothing is `public` but
    /// the StoreKit library's API (IAPSimStoreKit and IAPSimStoreKitServe).
    @Test func theKernelNamesNoOtherFolderAndOnlyTheLibraryIsPublic() throws {
        let fm = FileManager.default
        let core = CLI.root.path + "/Sources/IAPSimCore"
        let declaration = try Regex(
            #"(?m)^\s*(?:package |public |private |fileprivate |internal )?(?:final |indirect )?(?:struct|enum|class|protocol|typealias|actor)\s+([A-Z]\w*)"#
        )
        var declaredIn: [String: Set<String>] = [:]
        let paths = try #require(fm.subpaths(atPath: core)).filter { $0.hasSuffix(".swift") }
        for path in paths {
            let folder = String(path.split(separator: "/").first ?? "")
            let text = try String(contentsOfFile: core + "/" + path, encoding: .utf8)
            for match in text.matches(of: declaration) {
                declaredIn[String(match.output[1].substring ?? ""), default: []].insert(folder)
            }
        }
        #expect(declaredIn["World"]?.contains("World") == true && declaredIn["VirtualTime"] == ["Kernel"])
        let word = try Regex(#"\b[A-Z]\w+\b"#)
        let kernel = paths.filter { $0.hasPrefix("Kernel/") }
        #expect(kernel.count >= 4)
        for path in kernel {
            let text = try String(contentsOfFile: core + "/" + path, encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for match in line.matches(of: word) {
                    let name = String(line[match.range])
                    if let folders = declaredIn[name], !folders.contains("Kernel") {
                        Issue.record("IAPSimCore/\(path):\(n + 1) names \(name) of \(folders.sorted()): \(line)")
                    }
                }
            }
        }
        let sources = CLI.root.path + "/Sources"
        let open = try Regex(#"(?m)^\s*(?:@[\w()]+\s+)*public\s"#)
        var read = 0
        for path in try #require(fm.subpaths(atPath: sources)) where path.hasSuffix(".swift") {
            guard !path.hasPrefix("IAPSimStoreKit/"), !path.hasPrefix("IAPSimStoreKitServe/") else { continue }
            read += 1
            let text = try String(contentsOfFile: sources + "/" + path, encoding: .utf8)
            #expect(!text.contains(open), "Sources/\(path) declares something public")
        }
        #expect(read > 300)
    }
}

extension DocumentationTests {
    /// ARCHITECTURE's placement rule: "`World` is extended only in `World/` and in family files"
    /// (a family file holds its `CommandSpec` rows: `static let specs: [CommandSpec]`), and
    /// `CommandSpec.all` is built from the families, not a hand list of their rows.
    @Test func worldIsExtendedOnlyInWorldAndFamilyFiles() throws {
        let core = CLI.root.path + "/Sources/IAPSimCore"
        let extendsWorld = try Regex(#"(?m)^extension World\b"#)
        var families: [String] = []
        var outside: [String] = []
        for path in try #require(FileManager.default.subpaths(atPath: core)) where path.hasSuffix(".swift") {
            let text = try String(contentsOfFile: core + "/" + path, encoding: .utf8)
            let family = text.contains("static let specs: [CommandSpec]")
            if family { families.append(path) }
            if text.contains(extendsWorld), !path.hasPrefix("World/"), !family { outside.append(path) }
        }
        #expect(outside.isEmpty, "World is extended outside World/ and the family files: \(outside.sorted())")
        #expect(families.count >= 5, "\(families.sorted())")
        let command = try String(contentsOfFile: core + "/Vocabulary/Commands/Command.swift", encoding: .utf8)
        for path in families {
            let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            #expect(command.contains("\(name).specs"), "CommandSpec.all does not take \(name)'s rows")
        }
        let architecture = try String(contentsOfFile: CLI.root.path + "/ARCHITECTURE.md", encoding: .utf8)
        #expect(architecture.contains("`World` is extended only in `World/` and in family files"))
    }
}

extension DocumentationTests {
    /// No `default:` over a message's payload or an external request (issue 53): a new case is
    /// named by the compiler at every switch over them, never swallowed.
    @Test func noSwitchOverAPayloadOrARequestHasADefault() throws {
        let sources = CLI.root.path + "/Sources"
        let subject = try Regex(#"^(\s*)(?:return |let \w+ = )?switch ((?:\w+\.)*payload|request) \{$"#)
        var switches = 0
        for path in try #require(FileManager.default.subpaths(atPath: sources)) where path.hasSuffix(".swift") {
            let lines = try String(contentsOfFile: sources + "/" + path, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (n, line) in lines.enumerated() {
                guard let match = line.wholeMatch(of: subject) else { continue }
                switches += 1
                let indent = String(match.output[1].substring ?? "")
                for later in lines[(n + 1)...] {
                    if later == indent + "}" { break }
                    #expect(
                        !later.hasPrefix(indent + "default:"),
                        "Sources/\(path):\(n + 1): a switch over \(match.output[2].substring ?? "") has a default")
                }
            }
        }
        #expect(switches >= 6, "only \(switches) switches over a payload or a request were found")
    }
}
