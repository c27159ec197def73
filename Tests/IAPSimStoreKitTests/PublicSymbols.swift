import Foundation

/// The public declarations of a module's sources, each named by its enclosing types and, for a
/// function, its argument labels (`Product.purchase(options:)`, `Transaction.updates`,
/// `Product.SubscriptionInfo.RenewalState.subscribed`); a public enum's cases are public too.
/// A reading of the text, not of the compiler: enough for sources kept to STYLE.md.
enum PublicSymbols {
    struct Scope {
        var name: String?
        var depth: Int
        var publicEnum: Bool
    }

    static func list(files: [String]) throws -> [String] {
        var out: [String] = []
        for file in files.sorted() {
            out += symbols(in: try String(contentsOfFile: file, encoding: .utf8))
        }
        return out
    }

    static let typeKeywords: Set<String> = ["struct", "enum", "class", "actor", "protocol", "extension"]
    static let modifiers: Set<String> = [
        "public", "final", "static", "nonisolated", "convenience", "mutating", "indirect", "override", "open",
        "required", "lazy", "private(set)", "internal(set)", "fileprivate(set)", "package(set)",
    ]

    static func symbols(in text: String) -> [String] {
        var out: [String] = []
        var scopes: [Scope] = []
        var depth = 0
        var multiline = false
        let lines = text.components(separatedBy: "\n")
        var i = 0
        while i < lines.count {
            let raw = lines[i]
            i += 1
            if raw.components(separatedBy: "\"\"\"").count % 2 == 0 { multiline.toggle() }
            if multiline { continue }
            let line = code(of: raw).trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            var k = 0
            while k < words.count, words[k].hasPrefix("@") { k += 1 }
            var isPublic = false
            while k < words.count, modifiers.contains(words[k]) {
                if words[k] == "public" || words[k] == "open" { isPublic = true }
                k += 1
            }
            let keyword = k < words.count ? String(words[k].prefix { $0.isLetter }) : ""
            let path = scopes.compactMap(\.name)
            var pushName: String?
            var pushEnum = false
            if typeKeywords.contains(keyword), k + 1 < words.count {
                let name = String(words[k + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
                pushName = name
                if keyword == "extension", let w = line.range(of: " where ") {
                    let clause = line[w.upperBound...].prefix { $0 != "{" }.trimmingCharacters(in: .whitespaces)
                    pushName = name + "[" + clause + "]"
                }
                pushEnum = keyword == "enum" && isPublic
                if isPublic && keyword != "extension" { out.append((path + [name]).joined(separator: ".")) }
            } else if isPublic, ["func", "init", "var", "let", "typealias", "subscript"].contains(keyword) {
                var decl = line
                while balance(decl) > 0, i < lines.count {
                    decl += " " + code(of: lines[i]).trimmingCharacters(in: .whitespaces)
                    i += 1
                }
                out.append((path + [name(keyword, decl)]).joined(separator: "."))
                depth += braces(decl)
                closeScopes(&scopes, depth)
                continue
            } else if keyword == "case", let top = scopes.last, top.publicEnum, top.depth == depth {
                let list = line.dropFirst(4)
                for c in topLevel(String(list)) {
                    let n = c.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                    if !n.isEmpty { out.append((path + [String(n)]).joined(separator: ".")) }
                }
            }
            let before = depth
            depth += braces(line)
            if depth > before { scopes.append(Scope(name: pushName, depth: depth, publicEnum: pushEnum)) }
            closeScopes(&scopes, depth)
        }
        return out
    }

    static func closeScopes(_ scopes: inout [Scope], _ depth: Int) {
        while let top = scopes.last, top.depth > depth { scopes.removeLast() }
    }

    /// `name(label:label:)` for a function or an initializer, the name for the others.
    static func name(_ keyword: String, _ decl: String) -> String {
        var rest = Substring(decl)
        if keyword != "init" && keyword != "subscript" {
            guard let r = decl.range(of: keyword + " ") else { return decl }
            rest = decl[r.upperBound...]
        } else if let r = decl.range(of: keyword) {
            rest = decl[r.lowerBound...]
        }
        var base = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        if base.isEmpty { base = String(rest.prefix { "<>=!+-*/%&|^~".contains($0) }) }
        guard keyword == "func" || keyword == "init" || keyword == "subscript" else { return base }
        var afterName = rest.dropFirst(base.count)
        if afterName.hasPrefix("?") { afterName = afterName.dropFirst() }
        if afterName.hasPrefix("<") {
            var d = 0
            var idx = afterName.startIndex
            while idx < afterName.endIndex {
                if afterName[idx] == "<" { d += 1 }
                if afterName[idx] == ">" { d -= 1 }
                idx = afterName.index(after: idx)
                if d == 0 { break }
            }
            afterName = afterName[idx...]
        }
        guard afterName.hasPrefix("(") else { return base }
        var d = 0
        var params = ""
        for ch in afterName {
            if ch == "(" { d += 1 }
            if ch == ")" { d -= 1 }
            params.append(ch)
            if d == 0 { break }
        }
        let labels = topLevel(String(params.dropFirst().dropLast())).map { p -> String in
            let label = p.trimmingCharacters(in: .whitespaces).prefix { $0 != " " && $0 != ":" }
            return label + ":"
        }
        return base + "(" + labels.filter { $0 != ":" }.joined() + ")"
    }

    /// The comma-separated parts of `s` outside parentheses, brackets and angle brackets.
    static func topLevel(_ s: String) -> [String] {
        var parts: [String] = []
        var d = 0
        var cur = ""
        for ch in s {
            if "([<".contains(ch) { d += 1 }
            if ")]>".contains(ch) { d -= 1 }
            if ch == ",", d == 0 {
                parts.append(cur)
                cur = ""
            } else {
                cur.append(ch)
            }
        }
        if !cur.trimmingCharacters(in: .whitespaces).isEmpty { parts.append(cur) }
        return parts
    }

    /// The line without its comment and without its string literals' text.
    static func code(of line: String) -> String {
        var out = ""
        var inString = false
        var escaped = false
        var previous: Character = " "
        for ch in line {
            if inString {
                if escaped {
                    escaped = false
                } else if ch == "\\" {
                    escaped = true
                } else if ch == "\"" {
                    inString = false
                    out.append(ch)
                }
                continue
            }
            if ch == "/" && previous == "/" {
                out.removeLast()
                break
            }
            if ch == "\"" { inString = true }
            out.append(ch)
            previous = ch
        }
        return out
    }

    static func braces(_ s: String) -> Int {
        s.reduce(0) { $0 + ($1 == "{" ? 1 : $1 == "}" ? -1 : 0) }
    }

    static func balance(_ s: String) -> Int {
        s.reduce(0) { $0 + ($1 == "(" ? 1 : $1 == ")" ? -1 : 0) }
    }
}
