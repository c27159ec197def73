import IAPSimScenario

/// An asciicast v2 recording of the screen, built frame by frame from the grids the UI drew
/// (pure: the edge gives the wall-clock seconds and writes the text to a file).
/// Format: a JSON header line, then one `[seconds, "o", text]` line per frame, where the
/// text is the ANSI output that turns the previous frame into this one (changed cells only;
/// the first frame, and any frame after a resize, redraws everything).
package struct Asciicast: Sendable {
    package private(set) var text: String
    var last: Grid?
    let color: Bool

    /// `unixTime`: when recording began (the header's `timestamp`).
    package init(width: Int, height: Int, unixTime: Int, color: Bool = true) {
        self.color = color
        text =
            "{\"version\": 2, \"width\": \(width), \"height\": \(height), \"timestamp\": \(unixTime), "
            + "\"env\": {\"TERM\": \"xterm-256color\"}, \"title\": \"iapsim\"}\n"
    }

    /// Adds the frame `grid`, shown `seconds` after recording began. A frame equal to the
    /// previous one adds nothing.
    package mutating func add(_ grid: Grid, at seconds: Double) {
        let time = Asciicast.seconds(seconds)
        // A new size is said as asciicast's resize event before the frame drawn at it.
        if let last, last.width != grid.width || last.height != grid.height {
            text += "[\(time), \"r\", \"\(grid.width)x\(grid.height)\"]\n"
        }
        let ansi = Asciicast.ansi(
            from: last?.width == grid.width && last?.height == grid.height ? last : nil,
            to: grid, color: color)
        last = grid
        guard !ansi.isEmpty else { return }
        text += "[\(time), \"o\", \(JSONLinesExport.jsonString(ansi))]\n"
    }

    /// Seconds as the file writes them: three decimals.
    static func seconds(_ seconds: Double) -> String {
        let millis = Int((max(0, seconds) * 1000).rounded())
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - String(millis % 1000).count))\(millis % 1000)"
    }

    /// The ANSI text that draws `new` over `old` (everything when `old` is nil).
    static func ansi(from old: Grid?, to new: Grid, color: Bool) -> String {
        var out = old == nil ? "\u{1B}[0m\u{1B}[2J" : ""
        var current: Style?
        for y in 0..<new.height {
            var x = 0
            while x < new.width {
                let cell = new[x, y]
                if let old, old[x, y] == cell { x += 1; continue }
                if cell.isContinuation { x += 1; continue }
                out += "\u{1B}[\(y + 1);\(x + 1)H"
                while x < new.width, old == nil || old![x, y] != new[x, y] {
                    let c = new[x, y]
                    if !c.isContinuation {
                        if current != c.style { out += sgr(c.style, color: color); current = c.style }
                        out.append(c.character)
                    }
                    x += 1
                }
            }
        }
        if !out.isEmpty { out += "\u{1B}[0m";  }
        return out
    }

    static let foreground: [Role: Int] = [
        .title: 36, .focus: 33, .good: 32, .bad: 31, .warn: 33,
        .info: 36, .accent: 35, .key: 36,
    ]

    static func sgr(_ s: Style, color: Bool) -> String {
        var codes = ["0"]
        if s.bold { codes.append("1") }
        if s.role == .dim { codes.append("2") }
        if s.reverse { codes.append("7") }
        if color, let fg = foreground[s.role] { codes.append(String(fg)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
