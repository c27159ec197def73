/// What a cell's colour means; the terminal edge maps each role to a colour pair (or to
/// nothing under `NO_COLOR`). Meaning never rests on colour alone: text, bold and reverse
/// carry it too.
package enum Role: UInt8, Sendable, Hashable, CaseIterable {
    case normal, dim, title, focus, good, bad, warn, info, accent, header, key
}

/// How one cell is drawn.
package struct Style: Sendable, Hashable {
    package var role: Role
    package var bold: Bool
    package var reverse: Bool

    package init(_ role: Role = .normal, bold: Bool = false, reverse: Bool = false) {
        self.role = role
        self.bold = bold
        self.reverse = reverse
    }

    package static let plain = Style()
}

/// One terminal cell. A character two columns wide sits in its first cell; the cell to its
/// right is a continuation the edge never writes.
package struct Cell: Sendable, Hashable {
    package var character: Character
    package var style: Style
    package var isContinuation: Bool

    package init(_ character: Character = " ", _ style: Style = .plain, continuation: Bool = false) {
        self.character = character
        self.style = style
        isContinuation = continuation
    }

    package static let blank = Cell()
}

/// An in-memory screen: what `render` produces, what tests compare as text, and what the
/// terminal edge diffs against the previous frame.
package struct Grid: Sendable, Hashable {
    package let width: Int
    package let height: Int
    package private(set) var cells: [Cell]

    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    package subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Writes `text` from column `x` of row `y`, clipped at `x + maxWidth` (or the grid's
    /// edge). A wide character that would not fit whole is replaced by a space. Returns the
    /// columns written.
    @discardableResult
    package mutating func put(
        _ text: String, x: Int, y: Int, _ style: Style = .plain,
        maxWidth: Int? = nil
    ) -> Int {
        guard y >= 0, y < height, x < width else { return 0 }
        let limit = min(width, x + (maxWidth ?? width))
        var col = x
        for ch in text {
            let w = TextWidth.of(ch)
            if w == 0 { continue }
            if col + w > limit {
                if col < limit { self[col, y] = Cell(" ", style); col += 1 }
                break
            }
            if col >= 0 {
                self[col, y] = Cell(ch, style)
                if w == 2 { self[col + 1, y] = Cell(" ", style, continuation: true) }
            }
            col += w
        }
        return max(0, col - x)
    }

    /// Fills a rectangle with one character and style.
    package mutating func fill(
        x: Int, y: Int, width w: Int, height h: Int, _ ch: Character = " ",
        _ style: Style = .plain
    ) {
        for row in max(0, y)..<min(height, y + h) {
            for col in max(0, x)..<min(width, x + w) { self[col, row] = Cell(ch, style) }
        }
    }

    /// The rows as plain text (continuation cells skipped), trailing spaces kept.
    package var lines: [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width where !self[x, y].isContinuation { line.append(self[x, y].character) }
            return line
        }
    }

    /// The rows as text with trailing spaces removed: what golden files hold.
    package var text: String {
        lines.map { line in
            var s = Substring(line)
            while s.last == " " { s = s.dropLast() }
            return String(s)
        }.joined(separator: "\n") + "\n"
    }
}
