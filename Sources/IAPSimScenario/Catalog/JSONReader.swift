/// Reads JSON text (RFC 8259) into a `JSONNode` tree that knows where each value starts.
/// Foundation's reader says neither line nor column, and a StoreKit configuration file's
/// error must. It keeps every file reader's bounds (`FileLimits`: keys in one object, nesting,
/// values in all; the caller bounds the size), each refused where it is passed, and reads in
/// time linear in its input (a key is looked up among the object's keys in a set).
package struct JSONReader {
    /// The nesting every file reader allows (a StoreKit configuration file has six levels).
    package static let maxDepth = FileLimits.maxDepth

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    /// Where the current line starts.
    private var lineStart = 0 {
        didSet { counted = (lineStart, 1) }
    }
    /// A position of the current line already counted and its column: a column is counted
    /// from there, so that a long line (a minified file) is counted once, not once a value.
    private var counted = (index: 0, column: 1)
    private var depth = 0
    private var values = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The tree of `bytes`, which must hold one JSON value (a UTF-8 byte order mark allowed).
    package static func read(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var reader = JSONReader(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.i = 3 }
        reader.skipSpace()
        guard reader.i < bytes.count else { throw reader.error("the file is empty; a JSON object was expected") }
        let root = try reader.value()
        reader.skipSpace()
        guard reader.i == bytes.count else { throw reader.error("\(reader.found) after the end of the JSON value") }
        return root
    }

    private var column: Int {
        mutating get {
            var (k, n) = counted
            while k < i {
                if bytes[k] & 0xC0 != 0x80 { n += 1 }
                k += 1
            }
            counted = (k, n)
            return n
        }
    }

    private mutating func error(_ problem: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: column, problem: problem)
    }

    /// One more value (or key) read; past `FileLimits.maxValues` in all, refused here.
    private mutating func count() throws(JSONSyntaxError) {
        values += 1
        guard values <= FileLimits.maxValues else {
            throw limit(
                "more than \(FileLimits.text(FileLimits.maxValues)) values (objects, arrays, keys and texts); "
                    + "the limit is \(FileLimits.text(FileLimits.maxValues))")
        }
    }

    /// A bound of `FileLimits` passed here: the file may be JSON, but not one iapsim reads.
    private mutating func limit(_ problem: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: column, problem: problem, isLimit: true)
    }

    /// What is at the current position, for a message.
    private var found: String {
        guard i < bytes.count else { return "the end of the file" }
        let b = bytes[i]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return b < 0x80 ? "byte 0x\(String(b, radix: 16, uppercase: true))" : "a non-ASCII character"
    }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0D: i += 1
            case 0x0A:
                i += 1
                line += 1
                lineStart = i
            default: return
            }
        }
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONNode {
        let (l, c) = (line, column)
        guard i < bytes.count else { throw error("the file ends where a value was expected") }
        try count()
        let v: JSONNode.Value
        switch bytes[i] {
        case UInt8(ascii: "{"): v = try object()
        case UInt8(ascii: "["): v = try array()
        case UInt8(ascii: "\""): v = .string(try string())
        case UInt8(ascii: "t"): v = try word("true", .bool(true))
        case UInt8(ascii: "f"): v = try word("false", .bool(false))
        case UInt8(ascii: "n"): v = try word("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): v = try number()
        default:
            throw error(
                "\(found) where a value was expected: an object, an array, a string, a number, true, false or null")
        }
        return JSONNode(value: v, line: l, column: c)
    }

    private mutating func word(_ text: String, _ v: JSONNode.Value) throws(JSONSyntaxError) -> JSONNode.Value {
        let utf8 = Array(text.utf8)
        guard bytes.count - i >= utf8.count, Array(bytes[i..<i + utf8.count]) == utf8 else {
            throw error("\(found) where a value was expected (true, false and null are lowercase)")
        }
        i += utf8.count
        return v
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maxDepth else {
            throw limit(
                "values nested deeper than \(FileLimits.text(Self.maxDepth)) levels; "
                    + "the limit is \(FileLimits.text(Self.maxDepth))")
        }
        i += 1
        skipSpace()
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONNode.Value {
        try enter()
        defer { depth -= 1 }
        var members: [JSONNode.Member] = []
        var keys: Set<String> = []
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            return .object(members)
        }
        while true {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                throw error("\(found) where a key was expected: a string in double quotes")
            }
            let (kl, kc) = (line, column)
            let key = try string()
            try count()
            guard keys.insert(key).inserted else {
                throw JSONSyntaxError(
                    line: kl, column: kc, problem: "the key \"\(key)\" is written twice in one object")
            }
            guard keys.count <= FileLimits.maxMapKeys else {
                throw JSONSyntaxError(
                    line: kl, column: kc,
                    problem: "an object of more than \(FileLimits.text(FileLimits.maxMapKeys)) keys; "
                        + "the limit is \(FileLimits.text(FileLimits.maxMapKeys))",
                    isLimit: true)
            }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("\(found) where ':' was expected") }
            i += 1
            skipSpace()
            members.append(JSONNode.Member(key: key, keyLine: kl, keyColumn: kc, value: try value()))
            skipSpace()
            guard i < bytes.count else { throw error("the file ends inside an object; '}' was expected") }
            if bytes[i] == UInt8(ascii: "}") {
                i += 1
                return .object(members)
            }
            guard bytes[i] == UInt8(ascii: ",") else { throw error("\(found) where ',' or '}' was expected") }
            i += 1
            skipSpace()
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONNode.Value {
        try enter()
        defer { depth -= 1 }
        var items: [JSONNode] = []
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
            return .array(items)
        }
        while true {
            items.append(try value())
            skipSpace()
            guard i < bytes.count else { throw error("the file ends inside an array; ']' was expected") }
            if bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            guard bytes[i] == UInt8(ascii: ",") else { throw error("\(found) where ',' or ']' was expected") }
            i += 1
            skipSpace()
        }
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONNode.Value {
        let start = i
        func digits() -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
            return i - s
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        // JSON writes no leading zero: `0` alone, or `0.5`.
        if i < bytes.count, bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            guard digits() > 0 else { throw error("\(found) where a digit was expected") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { throw error("\(found) where a digit was expected after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw error("\(found) where an exponent's digit was expected") }
        }
        return .number(String(decoding: bytes[start..<i], as: UTF8.self))
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw error("the file ends inside a string; '\"' was expected") }
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                guard let text = String(validating: out, as: UTF8.self) else {
                    throw error("the string before this point is not UTF-8 text; the file must be UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                i += 1
                try escape(into: &out)
            case 0..<0x20:
                throw error(
                    "a control character (byte 0x\(b < 16 ? "0" : "")\(String(b, radix: 16, uppercase: true))) inside a string; write it escaped (\\n, \\t, \\u0000)"
                )
            default:
                out.append(b)
                i += 1
            }
        }
    }

    private mutating func escape(into out: inout [UInt8]) throws(JSONSyntaxError) {
        guard i < bytes.count else { throw error("the file ends inside a string's escape") }
        let b = bytes[i]
        i += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let c = simple[b] {
            out.append(c)
            return
        }
        guard b == UInt8(ascii: "u") else {
            i -= 1
            throw error("\(found) after '\\' in a string; accepted: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code), bytes.count - i >= 6, bytes[i] == UInt8(ascii: "\\"),
            bytes[i + 1] == UInt8(ascii: "u")
        {
            i += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
            code = 0x10000 + (code - 0xD800) << 10 + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
        out += Array(String(Character(scalar)).utf8)
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - i >= 4 else { throw error("the file ends inside a \\u escape") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let d = Character(Unicode.Scalar(bytes[i])).hexDigitValue else {
                throw error("\(found) in a \\u escape; four hexadecimal digits were expected")
            }
            code = code * 16 + UInt32(d)
            i += 1
        }
        return code
    }
}
