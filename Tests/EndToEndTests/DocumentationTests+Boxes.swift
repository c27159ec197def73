import Foundation
import Testing

/// The terminal UI by feature (issue 53, item 1; TCA's one-file feature): each box over the
/// panels is one file of `IAPSimTUI/Boxes/`, holding its state, its key table, what its keys
/// do and how it is drawn, so that a key added to a box touches that file alone; `UIModel`
/// is extended in at most 8 files.
extension DocumentationTests {
    static let tui = CLI.root.path + "/Sources/IAPSimTUI"

    /// The TUI's Swift files, by path under `Sources/IAPSimTUI/`, with their text.
    static func tuiFiles() throws -> [(path: String, text: String)] {
        try #require(FileManager.default.subpaths(atPath: tui)).filter { $0.hasSuffix(".swift") }.sorted().map {
            ($0, try String(contentsOfFile: tui + "/" + $0, encoding: .utf8))
        }
    }

    @Test func uiModelIsExtendedInAtMostEightFiles() throws {
        let extends = try Regex(#"(?m)^extension UIModel\b"#)
        let sources = CLI.root.path + "/Sources"
        var files: [String] = []
        for path in try #require(FileManager.default.subpaths(atPath: sources)) where path.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources + "/" + path, encoding: .utf8)
            if text.contains(extends) { files.append(path) }
        }
        #expect(files.count >= 4, "the extensions of UIModel were not found: \(files.sorted())")
        #expect(files.count <= 8, "UIModel is extended in \(files.count) files: \(files.sorted())")
    }

    /// One file per box (`Boxes/<Name>Box.swift`), one box per case of `Overlay`. Each box
    /// file declares its action enum, its table of that action (`static let keys`), the
    /// handler that looks a key up in that table, and its render; no other file of the TUI
    /// names a box's action type or builds a row of a box's table (but the scrolling rows
    /// help, inspectors and pages share, in `OverlayKeys.scrolling`), and no box file extends
    /// `UIModel`: a key moved out of its box fails here.
    @Test func eachBoxIsOneFileWithItsKeysHandlerAndRender() throws {
        let files = try Self.tuiFiles()
        let boxName = try Regex(#"^Boxes/(\w+)Box\.swift$"#)
        let boxes = files.filter { $0.path.contains(boxName) }
        let box = try #require(files.first { $0.path == "Boxes/Box.swift" })
        // The cases of `Overlay`: one box each.
        let overlay = try #require(box.text.firstRange(of: "package enum Overlay"))
        let body = box.text[overlay.upperBound...].prefix { $0 != "}" }
        let cases = body.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("case ") }
        #expect(cases.count == 7, "Overlay's cases: \(cases)")
        #expect(
            Set(boxes.map(\.path))
                == Set(
                    ["Help", "Picker", "Policy", "Inspector", "Confirm", "Search", "Page"].map {
                        "Boxes/\($0)Box.swift"
                    }),
            "the box files: \(boxes.map(\.path))")
        // A failing check names the file and what it lacks (not the whole text).
        func check(_ holds: Bool, _ what: @autoclosure () -> String, at: SourceLocation = #_sourceLocation) {
            if !holds { Issue.record(Comment(rawValue: what()), sourceLocation: at) }
        }
        let action = try Regex(#"package enum (\w+KeyAction)\b"#)
        var actions: [String: String] = [:]
        for (path, text) in boxes {
            let name = String(path.dropFirst("Boxes/".count).dropLast(".swift".count))
            let declared = text.matches(of: action).map { String($0.output[1].substring ?? "") }
            #expect(declared.count == 1, "\(path) declares \(declared.count) action enums: \(declared)")
            guard let keyAction = declared.first else { continue }
            actions[keyAction] = path
            check(text.contains("enum \(name) {"), "\(path) declares no \(name)")
            check(
                text.contains("static let keys: [OverlayBinding<\(keyAction)>]"),
                "\(path) holds no table of \(keyAction)")
            check(text.contains("static func handle("), "\(path) has no handler")
            check(text.contains("keys.action(for: key"), "\(path)'s handler does not read its own table")
            check(text.contains("switch action {"), "\(path)'s handler does not switch over its action")
            check(text.contains("static func render("), "\(path) does not draw its box")
            check(!text.contains("extension UIModel"), "\(path) extends UIModel")
        }
        #expect(actions.count == 7, "\(actions)")
        let row = try Regex(#"\bOverlayBinding\("#)
        for (path, text) in files where !boxes.contains(where: { $0.path == path }) {
            for (keyAction, owner) in actions {
                check(!text.contains(keyAction), "\(path) names \(keyAction), which is \(owner)'s alone")
            }
            let rows = text.matches(of: row).count
            // `OverlayKeys.scrolling`: the six scrolling rows every scrolling box shares.
            check(rows == (path == "Boxes/OverlayKeys.swift" ? 6 : 0), "\(path) builds \(rows) rows of a box's table")
        }
    }

    /// ARCHITECTURE's touch table says what adding a key to a box touches: its box's file.
    @Test func architectureSaysABoxKeyIsItsBoxFile() throws {
        let text = try String(contentsOfFile: CLI.root.path + "/ARCHITECTURE.md", encoding: .utf8)
        let row = try #require(
            text.split(separator: "\n").first { $0.hasPrefix("| a box key |") }, "no row for a box key")
        #expect(row.contains("`IAPSimTUI/Boxes/*Box.swift`"), "\(row)")
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(cells.last?.hasPrefix("1") == true, "a box key takes \(cells.last ?? "?") files: \(row)")
    }
}
