/// Checks a file's bytes before any YAML is read: it must be UTF-8 text with no character
/// that YAML refuses (NUL, other control characters). Errors point at the first bad byte.
enum InputCheck {
    /// Decodes `bytes` as UTF-8 and checks it is text.
    static func text(from bytes: [UInt8], file: String) throws(ScenarioError) -> String {
        var cursor = Cursor()
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                try check(scalar, cursor: cursor, file: file)
                cursor.advance(over: scalar)
                offset += encoded.count
            case .error:
                throw .notUTF8(at: cursor.location(file), byte: bytes[offset])
            case .emptyInput:
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    /// Checks that already-decoded text holds nothing YAML refuses.
    static func check(_ text: String, file: String) throws(ScenarioError) {
        var cursor = Cursor()
        for scalar in text.unicodeScalars {
            try check(scalar, cursor: cursor, file: file)
            cursor.advance(over: scalar)
        }
    }

    /// The characters libyaml accepts in a stream (YAML 1.1 `c-printable`).
    static func isPrintable(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0xE000...0xFFFD,
            0x10000...0x10FFFF:
            return true
        default:
            return false
        }
    }

    private static func check(
        _ scalar: Unicode.Scalar, cursor: Cursor, file: String
    ) throws(ScenarioError) {
        guard isPrintable(scalar.value) else {
            throw .binaryContent(at: cursor.location(file), scalar: scalar.value)
        }
    }

    /// Line and column (in Unicode scalars, 1-based) of the next scalar. A line ends at
    /// LF, CR LF or a lone CR, as in libyaml.
    struct Cursor {
        var line = 1
        var column = 1
        var afterCR = false

        mutating func advance(over scalar: Unicode.Scalar) {
            switch scalar {
            case "\n":
                if !afterCR { line += 1 }
                column = 1
                afterCR = false
            case "\r":
                line += 1
                column = 1
                afterCR = true
            default:
                column += 1
                afterCR = false
            }
        }

        func location(_ file: String) -> SourceLocation {
            SourceLocation(file: file, line: line, column: column)
        }
    }
}
