/// Word wrapping for narration and messages, by terminal columns.
enum Wrap {
    /// `text` in lines of at most `width` columns, broken at spaces (a word longer than the
    /// width is cut). The text's own line breaks are kept as paragraph breaks only where a
    /// blank line stands; single newlines are joined, since files wrap at their own width.
    static func words(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var out: [String] = []
        var paragraphs: [String] = [""]
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if raw.allSatisfy({ $0 == " " }) {
                paragraphs.append("")
            } else {
                paragraphs[paragraphs.count - 1] += " " + raw
            }
        }
        for paragraph in paragraphs {
            var line = ""
            for word in paragraph.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                let w = String(word)
                if line.isEmpty {
                    line = w
                } else if TextWidth.of(line) + 1 + TextWidth.of(w) <= width {
                    line += " " + w
                } else {
                    out.append(line)
                    line = w
                }
                while TextWidth.of(line) > width {
                    var head = ""
                    for ch in line where TextWidth.of(head) + TextWidth.of(ch) <= width { head.append(ch) }
                    out.append(head)
                    line = String(line.dropFirst(head.count))
                }
            }
            if !line.isEmpty { out.append(line) }
        }
        return out
    }
}
