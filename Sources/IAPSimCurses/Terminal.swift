import CNcurses
import IAPSimTUI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The ncurses screen: start and stop, keys in, cells out. Nothing else in the program calls
/// ncurses, and nothing prints while it is active.
final class Terminal {
    /// Whether colour pairs are in use (asked for, and the terminal has colours).
    let color: Bool
    private(set) var width: Int
    private(set) var height: Int
    private var active = false
    private var attrCache: [Style: (attrs: attr_t, pair: Int16)] = [:]
    // Reused buffers for one run of cells.
    private var chars: [wchar_t] = []
    private var cols: [Int32] = []
    private var widths: [UInt8] = []

    /// Installs the signal handlers, then starts curses. Throws when the terminal type is
    /// unknown or cannot address the cursor (nothing has been drawn then).
    init(color wantColor: Bool) throws {
        cn_install_signals()
        let term = getenv("TERM").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        switch cn_start() {
        case 0: break
        case -2: throw TerminalError.cannotMoveCursor(term: term ?? "")
        default: throw TerminalError.unknownTerminal(term: term)
        }
        active = true
        cn_set_curses_active(1)
        cbreak()
        noecho()
        let screen = cn_stdscr()
        keypad(screen, true)
        nodelay(screen, true)
        leaveok(screen, true)
        set_escdelay(25)
        curs_set(0)
        color = wantColor && has_colors()
        if color { Terminal.startColor() }
        width = Int(getmaxx(screen))
        height = Int(getmaxy(screen))
    }

    deinit { stop() }

    /// Gives the terminal back as it was. Safe to call more than once.
    func stop() {
        guard active else { return }
        active = false
        cn_set_curses_active(0)
        endwin()
    }

    /// Back from a stop (SIGSTOP, then SIGCONT): curses mode again, and the next `draw`
    /// repaints every cell.
    func resume() {
        guard active else { return }
        cn_resume()
        invalidate()
    }

    /// The locale from the environment; true when its codeset is not UTF-8 (ASCII frames).
    static func setLocaleFromEnvironment() -> (ascii: Bool, codeset: String) {
        setlocale(LC_ALL, "")
        let codeset = cn_codeset().map { String(cString: $0) } ?? ""
        let upper = codeset.uppercased()
        return (upper != "UTF-8" && upper != "UTF8", codeset)
    }

    // MARK: colour

    /// Colour pair numbers: each role has its own (its raw value + 1).
    private static let palette: [Role: Int16] = [
        .dim: -1, .title: Int16(COLOR_CYAN), .focus: Int16(COLOR_YELLOW),
        .good: Int16(COLOR_GREEN), .bad: Int16(COLOR_RED), .warn: Int16(COLOR_YELLOW),
        .info: Int16(COLOR_CYAN), .accent: Int16(COLOR_MAGENTA), .key: Int16(COLOR_CYAN),
    ]

    private static func startColor() {
        start_color()
        use_default_colors()
        for (role, fg) in palette { init_pair(pairNumber(role), fg, -1) }
    }

    private static func pairNumber(_ role: Role) -> Int16 { Int16(role.rawValue) + 1 }

    /// ncurses attributes and colour pair for a style.
    func attributes(_ style: Style) -> (attrs: attr_t, pair: Int16) {
        if let cached = attrCache[style] { return cached }
        var attrs = cn_a_normal()
        var pair: Int16 = 0
        if style.bold { attrs |= cn_a_bold() }
        if style.reverse { attrs |= cn_a_reverse() }
        if style.role == .dim { attrs |= cn_a_dim() }
        if color {
            switch style.role {
            case .normal: break
            case .header: attrs |= cn_a_reverse()
            case .title, .focus, .key: attrs |= cn_a_bold(); pair = Terminal.pairNumber(style.role)
            case .dim, .good, .bad, .warn, .info, .accent: pair = Terminal.pairNumber(style.role)
            }
        }
        attrCache[style] = (attrs, pair)
        return (attrs, pair)
    }

    // MARK: input

    /// Every key waiting, translated; a resize comes as `.resize` with the new size.
    func readMessages() -> [UIMessage] {
        var out: [UIMessage] = []
        var keys: [Key] = []
        // Escape sequences ncurses did not know are folded into their keys (`EscapeSequences`).
        func flush() {
            out += EscapeSequences.fold(keys).map(UIMessage.key)
            keys.removeAll()
        }
        var ch: wint_t = 0
        let screen = cn_stdscr()
        while true {
            let kind = wget_wch(screen, &ch)
            if kind == ERR { break }
            if kind == KEY_CODE_YES {
                if Int32(ch) == KEY_RESIZE {
                    width = Int(getmaxx(screen))
                    height = Int(getmaxy(screen))
                    flush()
                    out.append(.resize(width: width, height: height))
                } else if let key = KeyMap.special(Int32(ch)) {
                    keys.append(key)
                }
            } else if let key = KeyMap.character(UInt32(ch)) {
                keys.append(key)
            }
        }
        flush()
        return out
    }

    // MARK: output

    /// The last frame on screen, one packed key per cell (see `key`); empty after
    /// `invalidate()`, which makes the next `draw` erase and repaint everything.
    private var drawn: [UInt64] = []
    private var current: [UInt64] = []
    private var drawnWidth = 0

    /// The next `draw` erases the screen and writes every cell (after a resize).
    func invalidate() { drawn.removeAll(keepingCapacity: true) }

    /// A cell as a number: its character's first scalar, role, bold, reverse, continuation;
    /// bit 32 marks a character of several scalars, which is always rewritten (rare, and
    /// comparing numbers is much cheaper than comparing `Character`s).
    static func key(_ cell: Cell) -> UInt64 {
        var scalars = cell.character.unicodeScalars.makeIterator()
        var key = UInt64(scalars.next()?.value ?? 0x20)
        if scalars.next() != nil { key |= 1 << 32 }
        key |= UInt64(cell.style.role.rawValue) << 21
        if cell.style.bold { key |= 1 << 29 }
        if cell.style.reverse { key |= 1 << 30 }
        if cell.isContinuation { key |= 1 << 31 }
        return key
    }

    /// Writes the cells of `grid` that differ from the last frame drawn (all of them, after an
    /// erase, when there is none of the same size). Returns the number of cells written;
    /// `flush` then puts them on the terminal.
    @discardableResult
    func draw(_ grid: Grid) -> Int {
        current.removeAll(keepingCapacity: true)
        for cell in grid.cells { current.append(Terminal.key(cell)) }
        let full = drawn.count != current.count || drawnWidth != grid.width
        if full { erase() }
        var written = 0
        for y in 0..<grid.height { written += drawRow(y, grid, full) }
        swap(&drawn, &current)
        drawnWidth = grid.width
        pendingFlush = pendingFlush || written > 0 || full
        return written
    }

    private var pendingFlush = false

    /// Sends what `draw` wrote to the terminal, if anything.
    func flush() {
        guard pendingFlush else { return }
        pendingFlush = false
        wnoutrefresh(cn_stdscr())
        doupdate()
    }

    /// Whether the cell at index `i` must be written: it, or the continuation it owns, changed.
    private func changed(_ i: Int, _ x: Int, _ width: Int, _ full: Bool) -> Bool {
        if full || current[i] != drawn[i] || current[i] & (1 << 32) != 0 { return true }
        return x + 1 < width && current[i + 1] & (1 << 31) != 0 && current[i + 1] != drawn[i + 1]
    }

    /// Writes the changed cells of one row, in runs of one style.
    private func drawRow(_ y: Int, _ grid: Grid, _ full: Bool) -> Int {
        let width = grid.width, base = y * width
        var written = 0
        var x = 0
        while x < width {
            let cell = grid.cells[base + x]
            guard !cell.isContinuation, changed(base + x, x, width, full) else { x += 1; continue }
            chars.removeAll(keepingCapacity: true)
            cols.removeAll(keepingCapacity: true)
            widths.removeAll(keepingCapacity: true)
            let style = cell.style
            while x < width {
                let next = grid.cells[base + x]
                if next.isContinuation { x += 1; continue }
                guard next.style == style, changed(base + x, x, width, full) else { break }
                let wide = x + 1 < width && grid.cells[base + x + 1].isContinuation
                append(next.character, column: x, wide: wide)
                x += wide ? 2 : 1
            }
            flushRun(y, style)
            written += cols.count
        }
        return written
    }

    private func append(_ ch: Character, column: Int, wide: Bool) {
        var n = 0
        for scalar in ch.unicodeScalars where n < Int(CN_CELL_STRIDE) - 1 {
            chars.append(wchar_t(bitPattern: scalar.value))
            n += 1
        }
        for _ in n..<Int(CN_CELL_STRIDE) { chars.append(0) }
        cols.append(Int32(column))
        widths.append(wide ? 2 : 1)
    }

    private func flushRun(_ y: Int, _ style: Style) {
        guard !cols.isEmpty else { return }
        let (attrs, pair) = attributes(style)
        chars.withUnsafeBufferPointer { c in
            cols.withUnsafeBufferPointer { x in
                widths.withUnsafeBufferPointer { w in
                    cn_put_cells(
                        Int32(y), c.baseAddress, x.baseAddress, w.baseAddress,
                        Int32(x.count), attrs, pair)
                }
            }
        }
    }
}

/// Why the UI cannot start on this terminal. The message names TERM and what works; the
/// executable makes its control characters visible.
package enum TerminalError: Error, CustomStringConvertible {
    /// TERM is unset (nil) or names a type this system's terminfo does not know.
    case unknownTerminal(term: String?)
    /// The terminal cannot move the cursor (TERM=dumb, a hardcopy terminal).
    case cannotMoveCursor(term: String)

    static let whatWorks =
        "the terminal UI needs a terminal that can move the cursor, such as "
        + "TERM=xterm-256color, screen or tmux; for headless runs use `iapsim run FILE` or `iapsim check`"

    package var description: String {
        switch self {
        case .unknownTerminal(nil):
            return "cannot start the terminal UI: TERM is not set; " + Self.whatWorks
        case .unknownTerminal(let term?):
            return "cannot start the terminal UI: TERM=\(term) is a terminal type this system does "
                + "not know; " + Self.whatWorks
        case .cannotMoveCursor(let term):
            return "cannot start the terminal UI: TERM=\(term) cannot move the cursor; " + Self.whatWorks
        }
    }
}
