/// A rectangle of the screen.
package struct Rect: Sendable, Hashable {
    package var x: Int, y: Int, width: Int, height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Inside the frame.
    var inner: Rect { Rect(x: x + 1, y: y + 1, width: max(0, width - 2), height: max(0, height - 2)) }
}

/// A piece of a line with its style.
struct Span: Sendable, Hashable {
    var text: String
    var style: Style

    init(_ text: String, _ style: Style = .plain) {
        self.text = text
        self.style = style
    }
}

typealias Line = [Span]

/// The characters frames and markers are drawn with: Unicode, or ASCII when the locale is
/// not UTF-8.
struct Glyphs: Sendable {
    var h, v, tl, tr, bl, br: Character
    var dot, check, cross, right, left, up, down, sep: String
    var more: Character { dot == "*" ? "~" : "…" }

    static let unicode = Glyphs(
        h: "─", v: "│", tl: "┌", tr: "┐", bl: "└", br: "┘",
        dot: "●", check: "✓", cross: "✗", right: "→", left: "←",
        up: "↑", down: "↓", sep: "·")
    static let ascii = Glyphs(
        h: "-", v: "|", tl: "+", tr: "+", bl: "+", br: "+",
        dot: "*", check: "+", cross: "x", right: "->", left: "<-",
        up: "^", down: "v", sep: "/")
}

extension Grid {
    /// A box with a title in its top edge; a focused box has a bold, reversed title.
    mutating func frame(
        _ r: Rect, title: String, focused: Bool, glyphs g: Glyphs,
        badge: String? = nil
    ) {
        guard r.width >= 4, r.height >= 2 else { return }
        let edge = Style(focused ? .focus : .dim, bold: focused)
        for col in r.x + 1..<r.x + r.width - 1 {
            self[col, r.y] = Cell(g.h, edge)
            self[col, r.y + r.height - 1] = Cell(g.h, edge)
        }
        for row in r.y + 1..<r.y + r.height - 1 {
            self[r.x, row] = Cell(g.v, edge)
            self[r.x + r.width - 1, row] = Cell(g.v, edge)
        }
        self[r.x, r.y] = Cell(g.tl, edge)
        self[r.x + r.width - 1, r.y] = Cell(g.tr, edge)
        self[r.x, r.y + r.height - 1] = Cell(g.bl, edge)
        self[r.x + r.width - 1, r.y + r.height - 1] = Cell(g.br, edge)
        let titleStyle = focused ? Style(.focus, bold: true, reverse: true) : Style(.title, bold: true)
        // A title too long for the edge ends in a visible mark, never mid-word without one.
        let shown = TextWidth.truncate(title, to: r.width - 4, ascii: g.dot == "*")
        let used = put(" \(shown) ", x: r.x + 1, y: r.y, titleStyle, maxWidth: r.width - 2)
        if let badge, used + TextWidth.of(badge) + 6 <= r.width {
            put(" \(badge) ", x: r.x + r.width - 3 - TextWidth.of(badge), y: r.y, Style(.dim))
        }
    }

    /// Writes styled spans from (x, y), clipped at `width` columns. Returns columns used.
    @discardableResult
    /// A line that does not fit ends in `ellipsis`, so a cut is never mistaken for the end.
    mutating func put(_ line: Line, x: Int, y: Int, width: Int, ellipsis: Character? = nil) -> Int {
        var col = 0
        var total = 0
        for span in line {
            let w = TextWidth.of(span.text)
            if col < width { col += put(span.text, x: x + col, y: y, span.style, maxWidth: width - col) }
            total += w
        }
        if let ellipsis, total > width, width > 0, y >= 0, y < height {
            let last = x + width - 1
            if last >= 0, last < self.width {
                if self[last, y].isContinuation, last > 0 { self[last - 1, y] = Cell(" ", self[last - 1, y].style) }
                self[last, y] = Cell(ellipsis, Style(.dim))
            }
        }
        return col
    }

    /// Fills the inside of `r` with `lines` starting at line `offset`.
    mutating func lines(_ lines: [Line], in r: Rect, offset: Int, ellipsis: Character? = nil) {
        for (i, line) in lines.dropFirst(offset).prefix(r.height).enumerated() {
            put(line, x: r.x, y: r.y + i, width: r.width, ellipsis: ellipsis)
        }
    }
}
