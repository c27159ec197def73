/// Rewrites the generated blocks of a Markdown file from the code's tables and leaves every
/// other line as it is. A block is the lines between `<!-- generated: NAME -->` and
/// `<!-- /generated: NAME -->`, each marker on a line of its own.
package enum DocRegeneration {
    /// A file whose markers cannot be read: an unknown block name, a block never closed, a
    /// closing marker without its opening one.
    package struct Failure: Error, Equatable, CustomStringConvertible {
        /// The marker's line, from 1.
        package var line: Int
        package var problem: String
        package var description: String { "line \(line): \(problem)" }
    }

    /// One generated block as the file holds it.
    package struct Block: Equatable {
        package var name: String
        /// The line of its opening marker, from 1.
        package var line: Int
        /// What the file holds between the markers.
        package var content: String
        /// What the tables generate for it.
        package var generated: String
        package var isStale: Bool { content != generated }
    }

    static let opening = "<!-- generated: ", closing = "<!-- /generated: ", markerEnd = " -->"

    /// `text` with every generated block written anew.
    package static func regenerate(_ text: String) throws(Failure) -> String {
        var out = ""
        for part in try parts(of: text) {
            switch part {
            case .prose(let lines): out += lines
            case .block(let block):
                out +=
                    opening + block.name + markerEnd + "\n" + block.generated + closing + block.name + markerEnd
                    + "\n"
            }
        }
        return out
    }

    /// Every generated block of `text`, in order.
    package static func blocks(in text: String) throws(Failure) -> [Block] {
        try parts(of: text).compactMap { part in
            if case .block(let block) = part { return block }
            return nil
        }
    }

    enum Part {
        case prose(String)
        case block(Block)
    }

    /// The file cut into prose and blocks. The last line may lack its newline.
    static func parts(of text: String) throws(Failure) -> [Part] {
        var parts: [Part] = []
        var prose = ""
        var open: (name: String, line: Int, content: String)?
        for (index, line) in lines(of: text).enumerated() {
            let marker = line.trimmingNewline()
            if let name = name(in: marker, after: opening) {
                if let open { throw Failure(line: index + 1, problem: "block '\(name)' opens inside '\(open.name)'") }
                guard DocBlocks.names.contains(name) else {
                    throw Failure(
                        line: index + 1,
                        problem: "unknown generated block '\(name)'; blocks are: "
                            + DocBlocks.names.joined(separator: ", "))
                }
                parts.append(.prose(prose))
                prose = ""
                open = (name, index + 1, "")
            } else if let name = name(in: marker, after: closing) {
                guard let block = open, block.name == name else {
                    throw Failure(line: index + 1, problem: "'\(name)' closes a block that is not open")
                }
                let generated = DocBlocks.render(name) ?? ""
                parts.append(.block(Block(name: name, line: block.line, content: block.content, generated: generated)))
                open = nil
            } else if open != nil {
                open?.content += line
            } else {
                prose += line
            }
        }
        if let open { throw Failure(line: open.line, problem: "block '\(open.name)' is never closed") }
        parts.append(.prose(prose))
        return parts
    }

    /// The lines of `text`, each with its newline.
    static func lines(of text: String) -> [Substring] {
        var result: [Substring] = []
        var start = text.startIndex
        while start < text.endIndex {
            let end = text[start...].firstIndex(of: "\n").map { text.index(after: $0) } ?? text.endIndex
            result.append(text[start..<end])
            start = end
        }
        return result
    }

    /// NAME when `line` is `prefix` + NAME + ` -->`.
    static func name(in line: Substring, after prefix: String) -> String? {
        guard line.hasPrefix(prefix), line.hasSuffix(markerEnd) else { return nil }
        let name = line.dropFirst(prefix.count).dropLast(markerEnd.count)
        return name.isEmpty ? nil : String(name)
    }
}

extension Substring {
    fileprivate func trimmingNewline() -> Substring { hasSuffix("\n") ? dropLast() : self }
}
