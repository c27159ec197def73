import Testing

@testable import IAPSimTUI

/// The asciicast encoder: a header, then one output event per changed frame.
@Suite struct AsciicastTests {
    @Test func framesCarryOnlyTheChangedCellsAndEscapeJSON() {
        var cast = Asciicast(width: 4, height: 2, unixTime: 1_700_000_000, color: false)
        var grid = Grid(width: 4, height: 2)
        grid.put("ab\"\\", x: 0, y: 0)
        cast.add(grid, at: 0)
        cast.add(grid, at: 0.5)  // unchanged: no event
        grid.put("é", x: 1, y: 1, Style(bold: true))
        cast.add(grid, at: 1.25)
        let lines = cast.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(
            lines[0]
                == "{\"version\": 2, \"width\": 4, \"height\": 2, \"timestamp\": 1700000000, \"env\": {\"TERM\": \"xterm-256color\"}, \"title\": \"iapsim\"}"
        )
        #expect(
            lines[1].hasPrefix("[0.000, \"o\", \"\\u001b[0m\\u001b[2J\\u001b[1;1H\\u001b[0mab\\\"\\\\"), "\(lines[1])")
        #expect(lines[2] == "[1.250, \"o\", \"\\u001b[2;2H\\u001b[0;1mé\\u001b[0m\"]", "\(lines[2])")
    }
}
