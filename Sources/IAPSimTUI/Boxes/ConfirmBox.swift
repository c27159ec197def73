import IAPSimCore

/// What a y/n question asks.
package enum Confirmation: Sendable, Hashable {
    case restart
    /// `u`: the app and its files go; only the keychain survives.
    case uninstall
    /// `]` / `[` in a sandbox with a session: another file replaces this world.
    case leave(by: Int)
    /// `O` in a sandbox with a session: the file browser, whose choice replaces this world.
    case browse
}

/// A y/n question's keys.
package enum ConfirmKeyAction: Sendable, Hashable {
    case yes, no
}

/// A question answered with y or n (`R`: restart?). Its state is `Overlay.confirm(question)`;
/// its keys, what they do, its words and how it is drawn are here.
enum ConfirmBox {
    package static let keys: [OverlayBinding<ConfirmKeyAction>] = [
        OverlayBinding([.char("y"), .char("Y")], named: 1, "yes: do it", footer: "yes", .yes),
        OverlayBinding(
            [.char("n"), .escape, .char("q"), .char("N")], named: 3, "no: the world is kept", footer: "no", .no),
    ]

    static func handle(_ key: Key, _ question: Confirmation, _ model: inout UIModel) -> [UIEffect] {
        guard let action = keys.action(for: key) else { return [] }
        model.overlay = nil
        switch action {
        case .yes:
            switch question {
            case .restart: model.restart()
            case .uninstall: model.act(.uninstall)
            case .leave(let delta): return model.openFile(by: delta)
            case .browse: model.overlay = .picker(model.browser)
            }
        case .no: model.status = declined(question)
        }
        return []
    }

    /// The status line after `n`, Esc or `q` to a question.
    static func declined(_ question: Confirmation) -> String {
        switch question {
        case .restart: return "not restarted"
        case .uninstall: return "not uninstalled"
        case .leave, .browse: return "stayed in this world"
        }
    }

    /// The y/n table's footer, its words the question's: `y restart  n Esc q keep the world`.
    static func footer(_ question: Confirmation, ascii: Bool) -> [FooterEntry] {
        let yes: String, no: String
        switch question {
        case .restart: (yes, no) = ("restart", "keep the world")
        case .uninstall: (yes, no) = ("uninstall", "keep the app")
        case .leave: (yes, no) = ("open the file", "stay")
        case .browse: (yes, no) = ("list the files", "stay")
        }
        return keys.footer(ascii: ascii, word: { $0 == .yes ? yes : no })
    }

    static func render(_ question: Confirmation, _ model: UIModel, _ grid: inout Grid) {
        let text: String, title: String
        // What the answer does is said in the question: its footer is the y/n table's own.
        let keep = "to keep them, answer n and save the session with s"
        switch question {
        case .restart:
            text =
                model.isPlay
                ? "Restart from step 0 with the file's policy?" : "Restart: a fresh world, the same seed and policy?"
            title = "Restart"
        case .uninstall:
            text = "Uninstall the app? Memory and files go; the keychain survives."
            title = "Uninstall"
        case .leave(let delta):
            text = "Open the \(delta > 0 ? "next" : "previous") file? This sandbox world and its actions go; \(keep)."
            title = "Leave the sandbox"
        case .browse:
            text = "Choose another file? This sandbox world and its actions go; \(keep)."
            title = "Leave the sandbox"
        }
        let entries = footer(question, ascii: model.options.ascii)
        // A long question wraps at 66 columns.
        let width = min(
            max(min(TextWidth.of(text), 66), entries.reduce(0) { $0 + $1.width(gap: 2) }, 52) + 4, grid.width - 2)
        let lines = Wrap.words(text, width: width - 4)
        let r = model.centeredBox(&grid, width: width, height: lines.count + 4, title: title)
        for (i, line) in lines.enumerated() {
            grid.put(" " + line, x: r.inner.x, y: r.inner.y + i, Style(bold: true), maxWidth: r.inner.width)
        }
        model.boxFooter(entries, &grid, r)
    }
}
